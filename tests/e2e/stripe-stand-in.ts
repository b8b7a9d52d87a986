/**
 * A tiny Stripe API stand-in for the card-payment specs (payments.spec.ts, organisations.spec.ts) and
 * the checkout tests (app/features/payments/stripe-checkout.server.test.ts): POST /v1/checkout/sessions
 * answers a session whose URL is a page on itself. Idempotency keys behave as Stripe's: a repeat with
 * the same parameters answers the first response again, with other parameters 400 `idempotency_error`.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

interface SessionRequest {
  body: URLSearchParams;
  idempotencyKey: string | undefined;
  authorization: string | undefined;
}

/** A tiny Stripe API stand-in: POST /v1/checkout/sessions answers a session with a URL on itself. */
export async function startStripeStandIn() {
  const requests: SessionRequest[] = [];
  const keys = new Map<string, { body: string; response: string }>();
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
      if (req.method === "GET" && req.url?.startsWith("/pay/")) {
        res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        res.end("<!doctype html><title>Stripe stand-in</title><h1>Stand-in checkout</h1>");
        return;
      }
      res.writeHead(404, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: "not found" } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
