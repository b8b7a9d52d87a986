/**
 * Saved cards (docs/product.md#saved-cards, issue #39, ADR 025): a client organisation's owner or
 * billing person (`MONEY_ROLES`) saves a card through Stripe Checkout in setup mode, sees it
 * (brand, last 4, expiry), replaces it (the same flow; the new card replaces the old, which is
 * detached at Stripe) and removes it. We store only Stripe's ids and what Stripe answers for
 * display (`saved_card`): never a card number.
 *
 * The card is saved both when the client comes back from Checkout ({@link completeCardSetup}) and by
 * the `checkout.session.completed` webhook ({@link saveCardFromSetupSession}), whichever comes first;
 * the other finds it saved. A late event of an older setup never replaces a newer card
 * (`setup_created` decides).
 */
import { eq, sql } from "drizzle-orm";
import type Stripe from "stripe";
import type { Database, Queryable } from "#app/db/client.server";
import { rowsOf } from "#app/db/rows";
import { auditEvent, organisation, savedCard, stripeCustomer } from "#app/db/schema";
import { MONEY_ROLES, inOrganisation, requireOrganisationRole } from "#app/features/organisations/access.server";
import type { Actor } from "#app/features/users/actor";
import { conflict, notFound } from "#app/lib/errors";
import { logger } from "#app/lib/logger.server";
import { stripeClient, type StripeConfig } from "./stripe-client.server";

/** The page of the saved card (client area). */
export const PAYMENT_METHOD_PATH = "/payment-method";

/** The messages of the saved-card page. */
export const SAVED_CARD_MESSAGES = {
  notFound: "Page not found",
  notSetUp: "Card payments are not set up.",
  saved: "Your card was saved. Plans that charge automatically will use it.",
  removed: "Your card was removed. Invoices will be mailed to you to pay.",
  noCard: "There is no saved card.",
  setupIncomplete: "The card was not saved. Please try again.",
  cancelled: "Nothing was saved.",
} as const;

/** A saved card as the pages show it. */
export interface SavedCardView {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** When it was saved (ISO, UTC). */
  savedAt: string;
}

/**
 * The actor's organisation when they may manage its payment details (owner or billing), checked in
 * the statement.
 *
 * @throws {AppError} 404 "Page not found" for anyone else.
 */
async function moneyOrganisation(q: Queryable, actor: Actor): Promise<{ id: number; name: string }> {
  requireOrganisationRole(actor, MONEY_ROLES, SAVED_CARD_MESSAGES.notFound);
  const [row] = await q
    .select({ id: organisation.id, name: organisation.name })
    .from(organisation)
    .where(inOrganisation(organisation.id, actor, MONEY_ROLES));
  if (!row) throw notFound(SAVED_CARD_MESSAGES.notFound);
  return row;
}

/** @returns the organisation's saved card, or null. */
export async function savedCardOf(q: Queryable, organisationId: number) {
  const [row] = await q.select().from(savedCard).where(eq(savedCard.organisationId, organisationId));
  return row ?? null;
}

/**
 * The saved card of the actor's organisation (owner or billing person).
 *
 * @returns the card for display, or null when none is saved.
 * @throws {AppError} 404 for a member or anyone outside the organisation.
 */
export async function getSavedCard(db: Database, actor: Actor): Promise<SavedCardView | null> {
  requireOrganisationRole(actor, MONEY_ROLES, SAVED_CARD_MESSAGES.notFound);
  // One statement: the organisation as {@link moneyOrganisation} checks it, with its card if any.
  const [row] = await db
    .select({
      brand: savedCard.brand,
      last4: savedCard.last4,
      expMonth: savedCard.expMonth,
      expYear: savedCard.expYear,
      savedAt: savedCard.savedAt,
    })
    .from(organisation)
    .leftJoin(savedCard, eq(savedCard.organisationId, organisation.id))
    .where(inOrganisation(organisation.id, actor, MONEY_ROLES));
  if (!row) throw notFound(SAVED_CARD_MESSAGES.notFound);
  return row.brand !== null && row.last4 !== null && row.expMonth !== null && row.expYear !== null && row.savedAt !== null
    ? { brand: row.brand, last4: row.last4, expMonth: row.expMonth, expYear: row.expYear, savedAt: row.savedAt.toISOString() }
    : null;
}

/**
 * The organisation's Stripe customer, made once (idempotency key per organisation; a race between
 * two people keeps the first row and Stripe answers both the same customer).
 */
async function customerOf(db: Database, stripe: Stripe, org: { id: number; name: string }, email: string): Promise<string> {
  const [known] = await db.select({ id: stripeCustomer.customerId }).from(stripeCustomer).where(eq(stripeCustomer.organisationId, org.id));
  if (known) return known.id;
  const customer = await stripe.customers.create(
    { name: org.name, email, metadata: { organisation_id: String(org.id) } },
    { idempotencyKey: `customer-organisation-${org.id}` },
  );
  await db.insert(stripeCustomer).values({ organisationId: org.id, customerId: customer.id }).onConflictDoNothing();
  const [row] = await db.select({ id: stripeCustomer.customerId }).from(stripeCustomer).where(eq(stripeCustomer.organisationId, org.id));
  return row!.id;
}

/**
 * "Save a card" / "Replace card": a Checkout Session in setup mode for the organisation's customer.
 *
 * @param origin - the site's public origin (return URLs).
 * @returns the session's URL to redirect to.
 * @throws {AppError} 404 for a member or outsider; 409 when card payments are off.
 */
export async function startCardSetup(
  db: Database,
  env: StripeConfig,
  actor: Actor,
  input: { origin: string; currency: string },
): Promise<string> {
  const stripe = stripeClient(env);
  if (!stripe) throw conflict(SAVED_CARD_MESSAGES.notSetUp);
  const org = await moneyOrganisation(db, actor);
  const customer = await customerOf(db, stripe, org, actor.email);
  const metadata = { organisation_id: String(org.id), user_id: actor.id };
  const params: Stripe.Checkout.SessionCreateParams = {
    mode: "setup",
    customer,
    currency: input.currency.toLowerCase(),
    client_reference_id: String(org.id),
    metadata,
    setup_intent_data: { metadata },
    success_url: `${input.origin}${PAYMENT_METHOD_PATH}?setup=done&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${input.origin}${PAYMENT_METHOD_PATH}?setup=cancelled`,
  };
  // No key of ours: a double click makes two setup sessions, and an unused one charges nothing and
  // expires (the SDK still sends its own key, so its network retries make one).
  const session = await stripe.checkout.sessions.create(params);
  if (!session.url) throw new Error("Stripe answered a Checkout Session without a URL");
  return session.url;
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  typeof value === "string" ? value : (value?.id ?? null);

/** Reads an organisation id from metadata. @returns null when missing or malformed. */
function organisationIdOf(metadata: Record<string, string> | null | undefined): number | null {
  const raw = metadata?.organisation_id ?? "";
  return /^[1-9]\d{0,9}$/.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

/** What saving a card from a setup did. */
export type SaveOutcome = "saved" | "duplicate" | "older" | "ignored";

/**
 * Saves the card of a completed setup-mode Checkout Session (the return page and the webhook). The
 * session's customer must be the organisation's; the SetupIntent must have succeeded.
 *
 * @returns `saved`, `duplicate` (this setup's card is the saved one), `older` (a newer card is
 *   saved), or `ignored` (not a setup of ours).
 */
export async function saveCardFromSetupSession(
  db: Database,
  stripe: Stripe,
  sessionId: string,
  savedById: string | null = null,
): Promise<SaveOutcome> {
  const session = await stripe.checkout.sessions.retrieve(sessionId, { expand: ["setup_intent", "setup_intent.payment_method"] });
  if (session.mode !== "setup") return "ignored";
  const organisationId = organisationIdOf(session.metadata);
  const customerId = idOf(session.customer);
  const setup = session.setup_intent;
  if (organisationId === null || !customerId || !setup || typeof setup === "string" || setup.status !== "succeeded") return "ignored";
  let method = setup.payment_method;
  if (typeof method === "string") method = await stripe.paymentMethods.retrieve(method);
  if (!method?.card) return "ignored";
  const [known] = await db
    .select({ id: stripeCustomer.customerId })
    .from(stripeCustomer)
    .where(eq(stripeCustomer.organisationId, organisationId));
  if (known?.id !== customerId) {
    logger.warn({ sessionId, organisationId }, "saved card: the session's customer is not the organisation's");
    return "ignored";
  }
  const card = method.card;
  const outcome = await db.transaction(async (tx) => {
    const [current] = await tx.select().from(savedCard).where(eq(savedCard.organisationId, organisationId)).for("update");
    const setupCreated = new Date(setup.created * 1000);
    if (current?.setupIntentId === setup.id) return { outcome: "duplicate" as const };
    if (current && current.setupCreated > setupCreated) return { outcome: "older" as const, detach: method.id };
    // The row is the lock between two first saves: insert, or update the one there.
    const values = {
      organisationId,
      customerId,
      paymentMethodId: method.id,
      setupIntentId: setup.id,
      setupCreated,
      brand: card.brand,
      last4: card.last4,
      expMonth: card.exp_month,
      expYear: card.exp_year,
      savedById: savedById ?? (session.metadata?.user_id || null),
    };
    const written = rowsOf<{ organisation_id: number }>(
      await tx.execute(sql`
        insert into saved_card (organisation_id, customer_id, payment_method_id, setup_intent_id, setup_created, brand, last4, exp_month, exp_year, saved_by_id, saved_at)
        values (${values.organisationId}, ${values.customerId}, ${values.paymentMethodId}, ${values.setupIntentId}, ${values.setupCreated.toISOString()}, ${values.brand}, ${values.last4}, ${values.expMonth}, ${values.expYear},
          (select id from "user" where id = ${values.savedById}), now())
        on conflict (organisation_id) do update set customer_id = excluded.customer_id, payment_method_id = excluded.payment_method_id,
          setup_intent_id = excluded.setup_intent_id, setup_created = excluded.setup_created, brand = excluded.brand, last4 = excluded.last4,
          exp_month = excluded.exp_month, exp_year = excluded.exp_year, saved_by_id = excluded.saved_by_id, saved_at = excluded.saved_at,
          expiry_notice_sent_at = null
          where saved_card.setup_created <= excluded.setup_created and saved_card.setup_intent_id <> excluded.setup_intent_id
        returning organisation_id`),
    );
    if (!written.length) return { outcome: "duplicate" as const };
    await tx.insert(auditEvent).values({
      actorId: null,
      actorEmail: "Stripe",
      entity: "organisation",
      entityId: String(organisationId),
      action: current ? "card-replaced" : "card-saved",
      before: current ? { brand: current.brand, last4: current.last4, expMonth: current.expMonth, expYear: current.expYear } : null,
      after: { brand: card.brand, last4: card.last4, expMonth: card.exp_month, expYear: card.exp_year, savedById: values.savedById },
    });
    return { outcome: "saved" as const, detach: current && current.paymentMethodId !== method.id ? current.paymentMethodId : undefined };
  });
  // The card that is no longer saved is detached at Stripe (after the commit; a failure is only logged).
  if ("detach" in outcome && outcome.detach) await detachQuietly(stripe, outcome.detach);
  return outcome.outcome;
}

async function detachQuietly(stripe: Stripe, paymentMethodId: string): Promise<void> {
  try {
    await stripe.paymentMethods.detach(paymentMethodId);
  } catch (error) {
    logger.warn({ err: error, paymentMethodId }, "saved card: detaching the replaced card failed");
  }
}

/**
 * The return from Checkout (`?setup=done&session_id=…`): saves the session's card when it is the
 * actor organisation's.
 *
 * @returns true when the card is saved (now or already by the webhook).
 * @throws {AppError} 404 for a member or outsider; 409 when card payments are off.
 */
export async function completeCardSetup(db: Database, env: StripeConfig, actor: Actor, sessionId: string): Promise<boolean> {
  const stripe = stripeClient(env);
  if (!stripe) throw conflict(SAVED_CARD_MESSAGES.notSetUp);
  const org = await moneyOrganisation(db, actor);
  if (!/^cs_[\w]{1,200}$/.test(sessionId)) return false;
  let outcome: SaveOutcome;
  try {
    const session = await stripe.checkout.sessions.retrieve(sessionId);
    if (organisationIdOf(session.metadata) !== org.id) return false;
    outcome = await saveCardFromSetupSession(db, stripe, sessionId, actor.id);
  } catch (error) {
    logger.warn({ err: error, sessionId }, "saved card: the setup session could not be read");
    return false;
  }
  return outcome !== "ignored";
}

/**
 * "Remove card" (after the confirmation): detaches the payment method at Stripe and deletes the row;
 * plans that charge automatically then mail their invoices with a pay link.
 *
 * @throws {AppError} 404 for a member or outsider; 409 when no card is saved.
 */
export async function removeSavedCard(db: Database, env: StripeConfig, actor: Actor): Promise<void> {
  const org = await moneyOrganisation(db, actor);
  const removed = await db.transaction(async (tx) => {
    const [card] = await tx.delete(savedCard).where(eq(savedCard.organisationId, org.id)).returning();
    if (!card) throw conflict(SAVED_CARD_MESSAGES.noCard);
    await tx.insert(auditEvent).values({
      actorId: actor.id,
      actorEmail: actor.email,
      entity: "organisation",
      entityId: String(org.id),
      action: "card-removed",
      before: { brand: card.brand, last4: card.last4, expMonth: card.expMonth, expYear: card.expYear },
      after: null,
    });
    return card;
  });
  const stripe = stripeClient(env);
  if (stripe) await detachQuietly(stripe, removed.paymentMethodId);
}

/** "Visa •••• 4242" */
export function cardLabel(card: { brand: string; last4: string }): string {
  const brand = card.brand === "amex" ? "American Express" : card.brand.charAt(0).toUpperCase() + card.brand.slice(1);
  return `${brand} •••• ${card.last4}`;
}
