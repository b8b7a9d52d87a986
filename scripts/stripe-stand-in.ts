/**
 * A small Stripe API stand-in, to try card payments without a Stripe account and for the
 * card-payment tests (tests/e2e/payments.spec.ts, organisations.spec.ts, accept-sign-pay.spec.ts,
 * autopay.spec.ts, app/features/payments/*.test.ts), answering the calls the official `stripe` SDK
 * makes (form-encoded bodies, `expand[]`) with Stripe's shapes:
 *
 * - `POST /v1/checkout/sessions` mode `payment`: a session whose URL is a page on itself. With a
 *   webhook (as `npm run stripe:stand-in` runs it) the page has "Pay" and "Cancel": Pay posts a
 *   `checkout.session.completed` event signed with the webhook secret to the app's `/webhooks/stripe`
 *   (as Stripe does), then returns to the session's `success_url`; Cancel returns to its `cancel_url`.
 * - mode `setup` (#39 saved cards): its page offers the test cards; "Save card" makes the SetupIntent
 *   and its payment method, completes the session, sends `checkout.session.completed` and returns to
 *   the `success_url`, `{CHECKOUT_SESSION_ID}` filled in.
 * - `GET /v1/checkout/sessions/<id>`, `POST /v1/customers`, `POST|GET /v1/setup_intents[/<id>]`,
 *   `GET /v1/payment_methods/<id>`, `POST /v1/payment_methods/<id>/detach`, `GET /v1/payment_intents/<id>`.
 * - `POST /v1/payment_intents` with `confirm=true` (off session): the payment method's test card
 *   decides — `succeed` answers `succeeded` and sends `payment_intent.succeeded`; `requires_action`
 *   (4000 0027 6000 3184) and `declined` (4000 0000 0000 0002) answer Stripe's 402 `card_error`
 *   (`authentication_required` / `card_declined`, the intent in the error) and send
 *   `payment_intent.payment_failed`.
 *
 * Idempotency keys behave as Stripe's on every POST: a repeat with the same parameters answers the
 * first response again (same status), with other parameters 400 `idempotency_error`. Events are
 * signed with the SDK's `stripe.webhooks.generateTestHeaderString`. Nothing leaves the machine.
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

/** A request the stand-in received (any path). */
export interface StandInCall {
  method: string;
  path: string;
  body: URLSearchParams;
  idempotencyKey: string | undefined;
}

/** The stand-in's test cards. */
export type TestCard = "succeed" | "requires_action" | "declined";

/** The card behind each test card (brand, number's last 4). */
export const TEST_CARDS: Record<TestCard, { brand: string; last4: string; number: string }> = {
  succeed: { brand: "visa", last4: "4242", number: "4242 4242 4242 4242" },
  requires_action: { brand: "visa", last4: "3184", number: "4000 0027 6000 3184" },
  declined: { brand: "visa", last4: "0002", number: "4000 0000 0000 0002" },
};

/** Where the stand-in sends its signed events. */
export interface StandInWebhook {
  /** The app's webhook URL, e.g. `http://localhost:3000/webhooks/stripe`. */
  url: string;
  /** The app's STRIPE_WEBHOOK_SECRET. */
  secret: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Json = Record<string, unknown>;

interface PaymentMethod {
  id: string;
  object: "payment_method";
  type: "card";
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: string; country: string };
  created: number;
  metadata: Json;
  behaviour: TestCard;
}

const signer = new Stripe("sk_test_stand_in_signer");

/**
 * Starts the stand-in on 127.0.0.1.
 *
 * @param options.port - the port (default 0: a free one).
 * @param options.webhook - where events go (also settable later with `setWebhook`); with it the
 *   payment page can pay (signed event to the app) or cancel.
 * @returns its base URL (the app's STRIPE_API_URL), the checkout-session requests and every call received, `close()`…
 */
export async function startStripeStandIn(options: { port?: number; webhook?: StandInWebhook } = {}) {
  const requests: SessionRequest[] = [];
  const calls: StandInCall[] = [];
  const keys = new Map<string, { body: string; status: number; response: string }>();
  const customers = new Map<string, Json>();
  const sessions = new Map<string, Json>();
  const setupIntents = new Map<string, Json>();
  const paymentMethods = new Map<string, PaymentMethod>();
  const paymentIntents = new Map<string, Json>();
  const sentEvents: Json[] = [];
  let webhook: StandInWebhook | null = options.webhook ?? null;
  let counter = 0;
  const nextId = (prefix: string) => `${prefix}_test_${(++counter).toString().padStart(4, "0")}`;
  const nowSeconds = () => Math.floor(Date.now() / 1000);
  let pendingDeliveries: Promise<unknown>[] = [];

  /** Sends one event to the webhook (when set), signed as Stripe signs; resolves when answered. */
  const sendEvent = (type: string, object: Json) => {
    const event = { id: nextId("evt"), object: "event", type, created: nowSeconds(), livemode: false, data: { object } };
    sentEvents.push(event);
    if (!webhook) return;
    const payload = JSON.stringify(event);
    const header = signer.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
    const delivery = fetch(webhook.url, {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: payload,
    }).catch(() => undefined);
    pendingDeliveries.push(delivery);
  };

  const publicPaymentMethod = (pm: PaymentMethod): Json => {
    const { behaviour: _behaviour, ...rest } = pm;
    return rest;
  };

  const makePaymentMethod = (card: TestCard, customer: string | null): PaymentMethod => {
    const pm: PaymentMethod = {
      id: nextId("pm"),
      object: "payment_method",
      type: "card",
      customer,
      card: {
        brand: TEST_CARDS[card].brand,
        last4: TEST_CARDS[card].last4,
        exp_month: 12,
        exp_year: new Date().getUTCFullYear() + 3,
        funding: "credit",
        country: "US",
      },
      created: nowSeconds(),
      metadata: {},
      behaviour: card,
    };
    paymentMethods.set(pm.id, pm);
    return pm;
  };

  /** `expand[]` values of a request (query or body). */
  const expands = (params: URLSearchParams) => params.getAll("expand[]").concat(params.getAll("expand[0]"), params.getAll("expand[1]"));

  const setupIntentView = (si: Json, expand: string[]): Json => {
    const pm = si.payment_method ? paymentMethods.get(si.payment_method as string) : undefined;
    return {
      ...si,
      payment_method: pm && expand.some((e) => e.endsWith("payment_method")) ? publicPaymentMethod(pm) : (si.payment_method ?? null),
    };
  };
  const sessionView = (session: Json, expand: string[]): Json => {
    const si = session.setup_intent ? setupIntents.get(session.setup_intent as string) : undefined;
    return {
      ...session,
      setup_intent:
        si && expand.some((e) => e.startsWith("setup_intent"))
          ? setupIntentView(
              si,
              expand.map((e) => e.replace(/^setup_intent\./, "")),
            )
          : (session.setup_intent ?? null),
    };
  };

  /** Completes a setup-mode session with a test card, as the hosted page's "Save card" does. */
  const completeSetup = (sessionId: string, card: TestCard): Json => {
    const session = sessions.get(sessionId);
    if (!session || session.mode !== "setup") throw new Error(`no setup session ${sessionId}`);
    if (session.status === "complete") return session;
    const customer = (session.customer as string | null) ?? null;
    const pm = makePaymentMethod(card, customer);
    const si: Json = {
      id: nextId("seti"),
      object: "setup_intent",
      status: "succeeded",
      usage: "off_session",
      customer,
      payment_method: pm.id,
      created: nowSeconds(),
      metadata: session.metadata ?? {},
    };
    setupIntents.set(si.id as string, si);
    Object.assign(session, { status: "complete", setup_intent: si.id });
    sendEvent("setup_intent.succeeded", si);
    sendEvent("checkout.session.completed", { ...session });
    return session;
  };

  const chargeCard = (body: URLSearchParams): { status: number; json: Json } => {
    const pm = paymentMethods.get(body.get("payment_method") ?? "");
    if (!pm)
      return {
        status: 400,
        json: {
          error: { type: "invalid_request_error", code: "resource_missing", message: "No such PaymentMethod", param: "payment_method" },
        },
      };
    const metadata: Json = {};
    for (const [k, v] of body) {
      const m = /^metadata\[(.+)\]$/.exec(k);
      if (m) metadata[m[1]!] = v;
    }
    const amount = Number(body.get("amount"));
    const pi: Json = {
      id: nextId("pi"),
      object: "payment_intent",
      amount,
      amount_received: 0,
      currency: body.get("currency"),
      customer: body.get("customer"),
      payment_method: pm.id,
      metadata,
      created: nowSeconds(),
      latest_charge: null,
      last_payment_error: null,
      status: "requires_confirmation",
    };
    paymentIntents.set(pi.id as string, pi);
    if (body.get("confirm") !== "true") return { status: 200, json: pi };
    if (pm.behaviour === "succeed") {
      Object.assign(pi, { status: "succeeded", amount_received: amount, latest_charge: nextId("ch") });
      sendEvent("payment_intent.succeeded", { ...pi });
      return { status: 200, json: pi };
    }
    const error =
      pm.behaviour === "requires_action"
        ? {
            type: "card_error",
            code: "authentication_required",
            decline_code: "authentication_required",
            message: "Your card was declined. This transaction requires authentication.",
          }
        : { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
    Object.assign(pi, {
      status: "requires_payment_method",
      last_payment_error: { ...error, payment_method: publicPaymentMethod(pm) },
    });
    sendEvent("payment_intent.payment_failed", { ...pi });
    return { status: 402, json: { error: { ...error, payment_intent: pi, payment_method: publicPaymentMethod(pm) } } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const port = (server.address() as AddressInfo).port;
      const url = new URL(req.url ?? "/", `http://127.0.0.1:${port}`);
      const raw = Buffer.concat(chunks).toString();
      const body = new URLSearchParams(req.method === "GET" ? url.search : raw);
      const idempotencyKey = req.headers["idempotency-key"] as string | undefined;
      const send = (status: number, json: Json) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      const notFound = () => send(404, { error: { type: "invalid_request_error", code: "resource_missing", message: "not found" } });
      calls.push({ method: req.method ?? "GET", path: url.pathname, body, idempotencyKey });

      // The hosted pages (not the API).
      const page = /^\/pay\/([\w]+)$/.exec(url.pathname);
      if (page) {
        const session = sessions.get(page[1]!);
        if (req.method === "GET") {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          if (session?.mode === "setup") {
            const options = (Object.keys(TEST_CARDS) as TestCard[])
              .map(
                (card, i) =>
                  `<p><label><input type="radio" name="card" value="${card}"${i === 0 ? " checked" : ""}> ${TEST_CARDS[card].number}</label></p>`,
              )
              .join("");
            res.end(
              `<!doctype html><html lang="en"><title>Stripe stand-in</title><main><h1>Stand-in checkout: save a card</h1><form method="post"><fieldset><legend>Test card</legend>${options}</fieldset><button type="submit">Save card</button></form><p><a href="${session.cancel_url as string}">Back</a></p></main></html>`,
            );
          } else if (!webhook || !session) {
            res.end("<!doctype html><title>Stripe stand-in</title><h1>Stand-in checkout</h1>");
          } else {
            const asked = session.request as URLSearchParams;
            const amount = Number(asked.get("line_items[0][price_data][unit_amount]")) / 100;
            const currency = (asked.get("line_items[0][price_data][currency]") ?? "usd").toUpperCase();
            const what = asked.get("line_items[0][price_data][product_data][name]") ?? "Invoice";
            res.end(
              `<!doctype html><html lang="en"><meta name="viewport" content="width=device-width"><title>Stripe stand-in</title>` +
                `<main style="font-family:system-ui;max-width:28rem;margin:2rem auto;padding:0 1rem"><h1>Stand-in checkout</h1>` +
                `<p>${escapeHtml(what)}: <strong>${amount.toFixed(2)} ${escapeHtml(currency)}</strong></p>` +
                `<p>No card, no Stripe account: "Pay" sends the app the signed event Stripe would send.</p>` +
                `<form method="post" action="/pay/${session.id as string}"><button name="outcome" value="paid">Pay</button> ` +
                `<button name="outcome" value="cancelled">Cancel</button></form></main></html>`,
            );
          }
          return;
        }
        if (req.method === "POST" && session?.mode === "setup") {
          const card = (new URLSearchParams(raw).get("card") ?? "succeed") as TestCard;
          completeSetup(session.id as string, TEST_CARDS[card] ? card : "succeed");
          // Deliver the webhook before returning the browser, as Stripe mostly does.
          void Promise.all(pendingDeliveries).then(() => {
            res.writeHead(303, { location: String(session.success_url).replace("{CHECKOUT_SESSION_ID}", session.id as string) });
            res.end();
          });
          return;
        }
        if (req.method === "POST" && session && webhook) {
          const asked = session.request as URLSearchParams;
          const outcome = new URLSearchParams(raw).get("outcome");
          if (outcome !== "paid") {
            res.writeHead(303, { location: asked.get("cancel_url") ?? "/" }).end();
            return;
          }
          const id = session.id as string;
          const payload = JSON.stringify({
            id: `evt_stand_in_${id}`,
            object: "event",
            type: "checkout.session.completed",
            created: nowSeconds(),
            data: {
              object: {
                id,
                object: "checkout.session",
                mode: "payment",
                payment_status: "paid",
                amount_total: Number(asked.get("line_items[0][price_data][unit_amount]")),
                currency: asked.get("line_items[0][price_data][currency]"),
                customer_email: asked.get("customer_email"),
                payment_intent: `pi_stand_in_${id}`,
                metadata: { invoice_id: asked.get("metadata[invoice_id]") },
              },
            },
          });
          const signature = signer.webhooks.generateTestHeaderString({ payload, secret: webhook.secret });
          fetch(webhook.url, {
            method: "POST",
            headers: { "content-type": "application/json", "stripe-signature": signature },
            body: payload,
          })
            .then(async (answer) => {
              if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()}`);
              res.writeHead(303, { location: asked.get("success_url") ?? "/" }).end();
            })
            .catch((error: unknown) => {
              res.writeHead(502, { "content-type": "text/plain" }).end(`The app's webhook did not take the event: ${String(error)}`);
            });
          return;
        }
        if (req.method === "POST" && !session) {
          res.writeHead(404, { "content-type": "text/plain" }).end("No such checkout session.");
          return;
        }
        return notFound();
      }

      if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        requests.push({ body, idempotencyKey, authorization: req.headers.authorization });
      }
      if (req.method === "POST") {
        const seen = idempotencyKey ? keys.get(idempotencyKey) : undefined;
        if (seen && seen.body !== raw) {
          return send(400, {
            error: {
              type: "idempotency_error",
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with.`,
            },
          });
        }
        if (seen) {
          res.writeHead(seen.status, { "content-type": "application/json", "idempotent-replayed": "true" });
          res.end(seen.response);
          return;
        }
      }
      const remember = (status: number, json: Json) => {
        if (req.method === "POST" && idempotencyKey) keys.set(idempotencyKey, { body: raw, status, response: JSON.stringify(json) });
        send(status, json);
      };

      if (req.method === "POST" && url.pathname === "/v1/checkout/sessions") {
        const mode = body.get("mode") ?? "payment";
        const id = mode === "setup" ? `cs_test_setup_${++counter}` : `cs_test_${requests.length}`;
        const metadata: Json = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]!] = v;
        }
        const session: Json =
          mode === "setup"
            ? {
                id,
                object: "checkout.session",
                mode,
                status: "open",
                url: `http://127.0.0.1:${port}/pay/${id}`,
                customer: body.get("customer"),
                setup_intent: null,
                payment_intent: null,
                payment_status: "no_payment_required",
                success_url: body.get("success_url"),
                cancel_url: body.get("cancel_url"),
                client_reference_id: body.get("client_reference_id"),
                metadata,
                created: nowSeconds(),
              }
            : {
                id,
                object: "checkout.session",
                mode: "payment",
                url: `http://127.0.0.1:${port}/pay/${id}`,
                amount_total: Number(body.get("line_items[0][price_data][unit_amount]")),
                currency: body.get("line_items[0][price_data][currency]"),
                metadata: { invoice_id: body.get("metadata[invoice_id]") },
              };
        sessions.set(id, session);
        remember(200, session);
        // What the payment page shows (not part of the API's answer).
        Object.defineProperty(session, "request", { value: body, enumerable: false });
        return;
      }
      const sessionGet = /^\/v1\/checkout\/sessions\/([\w]+)$/.exec(url.pathname);
      if (req.method === "GET" && sessionGet) {
        const session = sessions.get(sessionGet[1]!);
        return session ? send(200, sessionView(session, expands(body))) : notFound();
      }
      if (req.method === "POST" && url.pathname === "/v1/customers") {
        const metadata: Json = {};
        for (const [k, v] of body) {
          const m = /^metadata\[(.+)\]$/.exec(k);
          if (m) metadata[m[1]!] = v;
        }
        const customer = {
          id: nextId("cus"),
          object: "customer",
          email: body.get("email"),
          name: body.get("name"),
          metadata,
          created: nowSeconds(),
        };
        customers.set(customer.id, customer);
        return remember(200, customer);
      }
      if (req.method === "POST" && url.pathname === "/v1/setup_intents") {
        const si: Json = {
          id: nextId("seti"),
          object: "setup_intent",
          status: "requires_payment_method",
          usage: body.get("usage") ?? "off_session",
          customer: body.get("customer"),
          payment_method: null,
          client_secret: `seti_secret_${counter}`,
          created: nowSeconds(),
          metadata: {},
        };
        setupIntents.set(si.id as string, si);
        return remember(200, si);
      }
      const siGet = /^\/v1\/setup_intents\/([\w]+)$/.exec(url.pathname);
      if (req.method === "GET" && siGet) {
        const si = setupIntents.get(siGet[1]!);
        return si ? send(200, setupIntentView(si, expands(body))) : notFound();
      }
      const pmGet = /^\/v1\/payment_methods\/([\w]+)$/.exec(url.pathname);
      if (req.method === "GET" && pmGet) {
        const pm = paymentMethods.get(pmGet[1]!);
        return pm ? send(200, publicPaymentMethod(pm)) : notFound();
      }
      const pmDetach = /^\/v1\/payment_methods\/([\w]+)\/detach$/.exec(url.pathname);
      if (req.method === "POST" && pmDetach) {
        const pm = paymentMethods.get(pmDetach[1]!);
        if (!pm || !pm.customer)
          return remember(400, {
            error: {
              type: "invalid_request_error",
              code: "payment_method_unattached",
              message: "The payment method is not attached to a customer.",
            },
          });
        pm.customer = null;
        return remember(200, publicPaymentMethod(pm));
      }
      if (req.method === "POST" && url.pathname === "/v1/payment_intents") {
        const { status, json } = chargeCard(body);
        return remember(status, json);
      }
      const piGet = /^\/v1\/payment_intents\/([\w]+)$/.exec(url.pathname);
      if (req.method === "GET" && piGet) {
        const pi = paymentIntents.get(piGet[1]!);
        return pi ? send(200, pi) : notFound();
      }
      return notFound();
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, "127.0.0.1", resolve));
  const standIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The Checkout Session requests, in order. */
    requests,
    /** Every API call, in order. */
    calls,
    /** Every event the stand-in made (sent when a webhook is set). */
    events: sentEvents,
    /** Where (and with which secret) to send events from now on. */
    setWebhook(url: string, secret: string) {
      webhook = { url, secret };
    },
    /** Completes a setup-mode Checkout Session with a test card (what the hosted page's button does). */
    completeSetup,
    /** A payment method of a test card attached to `customer`, as a saved card would be. */
    addPaymentMethod(card: TestCard, customer: string | null = null) {
      return publicPaymentMethod(makePaymentMethod(card, customer)) as unknown as Stripe.PaymentMethod;
    },
    /** Waits for the webhook deliveries made so far. */
    async settled() {
      const pending = pendingDeliveries;
      pendingDeliveries = [];
      await Promise.all(pending);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return standIn;
}

/** The stand-in's handle. */
export type StripeStandIn = Awaited<ReturnType<typeof startStripeStandIn>>;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const port = Number(process.env.STRIPE_STAND_IN_PORT ?? 12111);
  const app = process.env.BETTER_AUTH_URL || `http://localhost:${process.env.PORT ?? 3000}`;
  const secret = "whsec_stand_in_local_only";
  const standIn = await startStripeStandIn({ port, webhook: { url: `${app}/webhooks/stripe`, secret } });
  console.log(`Stripe stand-in on ${standIn.url}, paying into ${app}/webhooks/stripe. Start the app with:

  STRIPE_SECRET_KEY=sk_test_stand_in STRIPE_WEBHOOK_SECRET=${secret} STRIPE_API_URL=${standIn.url} npm start

Stop with Ctrl+C.`);
}
