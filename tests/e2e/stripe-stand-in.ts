/** The Stripe API stand-in of the card-payment tests; it lives in scripts/ so `npm run stripe:stand-in` can run it too. */
export { startStripeStandIn } from "../../scripts/stripe-stand-in";
