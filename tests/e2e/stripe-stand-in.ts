/** The Stripe API stand-in of the card-payment tests; it lives in scripts/ so `npm run stripe:stand-in` can run it too. */
export { startStripeStandIn, TEST_CARDS, type StripeStandIn, type TestCard } from "../../scripts/stripe-stand-in";
