/**
 * A tiny Stripe API stand-in, to try card payments without a Stripe account and for the
 * card-payment tests (tests/e2e/payments.spec.ts, organisations.spec.ts, accept-sign-pay.spec.ts,
 * app/features/payments/*checkout*.test.ts): POST /v1/checkout/sessions answers a session whose
 * URL is a page on itself. Idempotency keys behave as Stripe's: a repeat with the same parameters
 * answers the first response again, with other parameters 400 `idempotency_error`.
 *
 * With `webhook` (as `npm run stripe:stand-in` runs it), the checkout page has "Pay" and "Cancel":
 * Pay posts a `checkout.session.completed` event signed with the webhook secret to the app's
 * `/webhooks/stripe` (as Stripe does), then returns to the session's `success_url`; Cancel returns
 * to its `cancel_url`. Nothing leaves the machine.
 *
 *   npm run stripe:stand-in            # listens on 127.0.0.1:12111 (STRIPE_STAND_IN_PORT), prints the variables
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import Stripe from "stripe";

interface SessionRequest {
  body: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/** Where the stand-in's "Pay" button sends its signed event. */
export interface StandInWebhook {
  /** The app's webhook URL, e.g. `http://localhost:3000/webhooks/stripe`. */
  url: string;
  /** The app's STRIPE_WEBHOOK_SECRET. */
  secret: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Starts the stand-in on 127.0.0.1.
 *
 * @param options.port - the port (default 0: a free one).
 * @param options.webhook - when set, the checkout page can pay (signed event to the app) or cancel.
 * @returns its base URL (the app's STRIPE_API_URL), the checkout-session requests received, `close()`.
 */
export async function startStripeStandIn(options: { port?: number; webhook?: StandInWebhook } = {}) {
  const requests: SessionRequest[] = [];
  const keys = new Map<string, { body: string; response: string }>();
  const sessions = new Map<string, URLSearchParams>();
  const signer = new Stripe("sk_test_stand_in");
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const port = (server.address() as AddressInfo).port;
      if (req.method === "POST" && req.url === "/v1/checkout/sessions") {
        const raw = Buffer.concat(chunks).toString();
        const body = new URLSearchParams(raw);
        const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
        requests.push({ body, idempotencyKey, authorization: req.headers.authorization });
        const seen = idempotencyKey ? keys.get(idempotencyKey) : undefined;
        if (seen && seen.body !== raw) {
          res.writeHead(400, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              error: {
                type: "idempotency_error",
                message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
              },
            }),
          );
          return;
        }
        if (seen) {
          res.writeHead(200, { "content-type": "application/json", "idempotent-replayed": "true" });
          res.end(seen.response);
          return;
        }
        const id = `cs_test_${requests.length}`;
        sessions.set(id, body);
        const response = JSON.stringify({
          id,
          object: "checkout.session",
          mode: "payment",
          url: `http://127.0.0.1:${port}/pay/${id}`,
          amount_total: Number(body.get("line_items[0][price_data][unit_amount]")),
          currency: body.get("line_items[0][price_data][currency]"),
          metadata: { invoice_id: body.get("metadata[invoice_id]") },
        });
        if (idempotencyKey) keys.set(idempotencyKey, { body: raw, response });
        res.writeHead(200, { "content-type": "application/json" });
        res.end(response);
        return;
      }
      const pay = /^\/pay\/(cs_test_\d+)$/.exec(req.url ?? "");
      if (req.method === "GET" && pay) {
        const body = sessions.get(pay[1]!);
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        if (!options.webhook || !body) {
          res.end("<!doctype html><title>Stripe stand-in</title><h1>Stand-in checkout</h1>");
          return;
        }
        const amount = Number(body.get("line_items[0][price_data][unit_amount]")) / 100;
        const currency = (body.get("line_items[0][price_data][currency]") ?? "usd").toUpperCase();
        const what = body.get("line_items[0][price_data][product_data][name]") ?? "Invoice";
        res.end(
          `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width"><title>Stripe stand-in</title>` +
            `<main style="font-family:system-ui;max-width:28rem;margin:2rem auto;padding:0 1rem"><h1>Stand-in checkout</h1>` +
            `<p>${escapeHtml(what)}: <strong>${amount.toFixed(2)} ${escapeHtml(currency)}</strong></p>` +
            `<p>No card, no Stripe account: "Pay" sends the app the signed event Stripe would send.</p>` +
            `<form method="post" action="/pay/${pay[1]}"><button name="outcome" value="paid">Pay</button> ` +
            `<button name="outcome" value="cancelled">Cancel</button></form></main></html>`,
        );
        return;
      }
      if (req.method === "POST" && pay && options.webhook) {
        const body = sessions.get(pay[1]!);
        if (!body) {
          res.writeHead(404, { "content-type": "text/plain" }).end("No such checkout session.");
          return;
        }
        const outcome = new URLSearchParams(Buffer.concat(chunks).toString()).get("outcome");
        if (outcome !== "paid") {
          res.writeHead(303, { location: body.get("cancel_url") ?? "/" }).end();
          return;
        }
        const payload = JSON.stringify({
          id: `evt_stand_in_${pay[1]}`,
          object: "event",
          type: "checkout.session.completed",
          created: Math.floor(Date.now() / 1000),
          data: {
            object: {
              id: pay[1],
              object: "checkout.session",
              payment_status: "paid",
              amount_total: Number(body.get("line_items[0][price_data][unit_amount]")),
              currency: body.get("line_items[0][price_data][currency]"),
              customer_email: body.get("customer_email"),
              payment_intent: `pi_stand_in_${pay[1]}`,
              metadata: { invoice_id: body.get("metadata[invoice_id]") },
            },
          },
        });
        const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.webhook.secret });
        fetch(options.webhook.url, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": signature },
          body: payload,
        })
          .then(async (answer) => {
            if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()}`);
            res.writeHead(303, { location: body.get("success_url") ?? "/" }).end();
          })
          .catch((error: unknown) => {
            res.writeHead(502, { "content-type": "text/plain" }).end(`The app's webhook did not take the event: ${String(error)}`);
          });
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "not found" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.STRIPE_STAND_IN_PORT ?? 12111);
  const app = process.env.BETTER_AUTH_URL || `http://localhost:${process.env.PORT ?? 3000}`;
  const secret = "whsec_stand_in_local_only";
  const standIn = await startStripeStandIn({ port, webhook: { url: `${app}/webhooks/stripe`, secret } });
  console.log(`Stripe stand-in on ${standIn.url}, paying into ${app}/webhooks/stripe. Start the app with:

  STRIPE_SECRET_KEY=sk_test_stand_in STRIPE_WEBHOOK_SECRET=${secret} STRIPE_API_URL=${standIn.url} npm start

Stop with Ctrl+C.`);
}
