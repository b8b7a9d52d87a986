/**
 * The Stripe client and its configuration (docs/product.md#card-payments): card payments are on
 * when both secrets are set; one SDK client per key and API base (`STRIPE_API_URL` points the
 * official SDK at the local stand-in in tests).
 */
import Stripe from "stripe";

/** What card payments need from the configuration. */
export interface StripeConfig {
  STRIPE_SECRET_KEY?: string;
  STRIPE_WEBHOOK_SECRET?: string;
  STRIPE_API_URL?: string;
}

/** Card payments are on when both the secret key and the webhook secret are set. */
export function cardPaymentsEnabled(env: StripeConfig): boolean {
  return Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_WEBHOOK_SECRET);
}

/**
 * The SDK's connection options from STRIPE_API_URL (`http://localhost:12111` → host, port, protocol).
 */
export function stripeApiOptions(apiUrl: string | undefined): { host?: string; port?: number; protocol?: "http" | "https" } {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port ? Number(url.port) : protocol === "http" ? 80 : 443, protocol };
}

const clients = new Map<string, Stripe>();

/** @returns the Stripe client for this configuration (one per key and base), or null when card payments are off. */
export function stripeClient(env: StripeConfig): Stripe | null {
  if (!cardPaymentsEnabled(env)) return null;
  const key = `${env.STRIPE_SECRET_KEY}|${env.STRIPE_API_URL ?? ""}`;
  let client = clients.get(key);
  if (!client) {
    client = new Stripe(env.STRIPE_SECRET_KEY!, { ...stripeApiOptions(env.STRIPE_API_URL), maxNetworkRetries: 1, timeout: 10_000 });
    clients.set(key, client);
  }
  return client;
}
