/**
 * Signed invoice links (docs/product.md#invoice-link, issue #25): each invoice mail carries
 * `/i/<token>`, which opens that one invoice — its page, its PDF and its pay action — without
 * signing in, and nothing else. The token names the invoice and when it expires (60 days after the
 * mail), signed with HMAC-SHA-256 over the invoice, its client and the expiry under a key kept in
 * `app_meta` (made on first use). Nothing else is stored: a link is checked by recomputing its
 * signature against the invoice's current client, so it stops working when the invoice is deleted,
 * moves to another client, or the client is deactivated or closed. A forged or expired link is a 404.
 *
 * Organisations (docs/product.md#organisations, ADR 022): an invoice mail goes to each owner and
 * billing person of the invoice's organisation, each with a link signed for them — the token then
 * ends in `~<their user id>` (a link for the invoice's own client keeps the original form, so every
 * link sent before keeps working). The link acts as that person in the invoice's organisation, and
 * the invoice's reads check their membership and role there: a person removed from the
 * organisation, or no longer owner or billing, finds a 404.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { appMeta, invoice, user } from "#app/db/schema";
import { roleOf, type Actor } from "#app/features/users/actor";
import { notFound } from "#app/lib/errors";

/** How long a link works after the mail: 60 days. */
export const INVOICE_LINK_TTL_MS = 60 * 24 * 3600 * 1000;
import { INVOICE_LINK_INVALID } from "./payments.messages";

export { INVOICE_LINK_INVALID };
const KEY_NAME = "invoice_link_secret";

async function linkKey(q: Queryable): Promise<string> {
  const read = async () => (await q.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, KEY_NAME)))[0]?.value;
  const existing = await read();
  if (existing) return existing;
  await q
    .insert(appMeta)
    .values({ key: KEY_NAME, value: randomBytes(32).toString("hex") })
    .onConflictDoNothing();
  return (await read())!;
}

function mac(key: string, invoiceId: number, clientId: string, expires: number): string {
  return createHmac("sha256", key).update(`invoice-link:${invoiceId}:${clientId}:${expires}`).digest("base64url").slice(0, 32);
}

/**
 * @param clientId - the invoice's `client_id`.
 * @param recipientId - the person the mail goes to (default: the invoice's client).
 * @returns the path `/i/<token>` of a link to one invoice for `recipientId`, valid 60 days from `now`.
 */
export async function signedInvoicePath(
  q: Queryable,
  invoiceId: number,
  clientId: string,
  now: Date = new Date(),
  recipientId: string = clientId,
): Promise<string> {
  const expires = Math.floor((now.getTime() + INVOICE_LINK_TTL_MS) / 1000);
  const suffix = recipientId === clientId ? "" : `~${recipientId}`;
  return `/i/${invoiceId}.${expires}.${mac(await linkKey(q), invoiceId, recipientId, expires)}${suffix}`;
}

/**
 * Checks a link's token.
 *
 * @returns the invoice id and the client it is for, as an actor (role client) for the invoice's reads.
 * @throws {AppError} 404 {@link INVOICE_LINK_INVALID} when malformed, forged, expired, the invoice gone, or its client deactivated/closed.
 */
export async function openSignedInvoice(
  q: Queryable,
  token: string | undefined,
  now: Date = new Date(),
): Promise<{ invoiceId: number; client: Actor }> {
  const match = /^([1-9]\d{0,9})\.(\d{1,12})\.([A-Za-z0-9_-]{32})(?:~([A-Za-z0-9_-]{1,64}))?$/.exec(token ?? "");
  if (!match) throw notFound(INVOICE_LINK_INVALID);
  const invoiceId = Number(match[1]);
  const expires = Number(match[2]);
  if (invoiceId > 2_147_483_647 || expires * 1000 <= now.getTime()) throw notFound(INVOICE_LINK_INVALID);
  const recipient = match[4];
  const [row] = await q
    .select({
      personId: user.id,
      email: user.email,
      banned: user.banned,
      closedAt: user.closedAt,
      role: user.role,
      organisationId: invoice.organisationId,
    })
    .from(invoice)
    .innerJoin(user, eq(user.id, recipient ? sql`${recipient}` : invoice.clientId))
    .where(and(eq(invoice.id, invoiceId), recipient ? sql`${invoice.clientId} is distinct from ${recipient}` : undefined));
  if (!row || row.banned || row.closedAt || roleOf(row.role) !== "client") throw notFound(INVOICE_LINK_INVALID);
  const expected = Buffer.from(mac(await linkKey(q), invoiceId, row.personId, expires));
  const given = Buffer.from(match[3]!);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw notFound(INVOICE_LINK_INVALID);
  // The person acts in the invoice's organisation; their membership and role are checked by the reads.
  return { invoiceId, client: { id: row.personId, role: "client", email: row.email, organisationId: row.organisationId } };
}
