import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/payment-method";
import { PageHeading } from "#app/components/page-heading";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmAction } from "#app/components/ui/confirm";
import { FormMessage, useIsSubmitting } from "#app/components/ui/form";
import { servicesContext } from "#app/context";
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import {
  SAVED_CARD_MESSAGES,
  cardLabel,
  completeCardSetup,
  getSavedCard,
  removeSavedCard,
  startCardSetup,
} from "#app/features/payments/saved-cards.server";
import { cardPaymentsEnabled } from "#app/features/payments/stripe.server";
import { getSettings } from "#app/features/settings/settings.server";
import { requireOrganisationRoles, requireUser } from "#app/features/users/session.server";
import { requireConfirmation, runIntent } from "#app/lib/form-action.server";
import { currencyOf } from "#app/lib/money";

export const meta: Route.MetaFunction = () => [{ title: "Saved card | Client Portal" }, { name: "robots", content: "noindex" }];

/** Owners and billing people only (docs/product.md#organisations: saved payment details). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(MONEY_ROLES)];

/**
 * `/payment-method` (docs/product.md#saved-cards): the organisation's saved card (brand, last 4,
 * expiry) with Replace and Remove, or "Save a card". Back from Stripe Checkout
 * (`?setup=done&session_id=…`) the card is saved here (the webhook does it too) and the page
 * reloads without the query.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const actor = requireUser(context);
  const params = new URL(request.url).searchParams;
  let notice: { ok: boolean; message: string } | null = null;
  if (params.get("setup") === "done") {
    const saved = await completeCardSetup(db, env, actor, params.get("session_id") ?? "");
    notice = saved ? { ok: true, message: SAVED_CARD_MESSAGES.saved } : { ok: false, message: SAVED_CARD_MESSAGES.setupIncomplete };
  } else if (params.get("setup") === "cancelled") {
    notice = { ok: true, message: SAVED_CARD_MESSAGES.cancelled };
  }
  const card = await getSavedCard(db, actor);
  return { card: card ? { ...card, label: cardLabel(card) } : null, enabled: cardPaymentsEnabled(env), notice };
}

/** `save-card` (also Replace): to Stripe Checkout in setup mode; `remove-card`: after the confirmation. */
export async function action(args: Route.ActionArgs) {
  const { db, env } = args.context.get(servicesContext);
  const actor = requireUser(args.context);
  return runIntent(args, {
    "save-card": async () => {
      const url = await startCardSetup(db, env, actor, { origin: env.origin, currency: currencyOf(await getSettings(db)) });
      return redirect(url);
    },
    "remove-card": async (form) => {
      requireConfirmation(form, "Confirm the removal first.");
      await removeSavedCard(db, env, actor);
      return SAVED_CARD_MESSAGES.removed;
    },
  });
}

const two = (n: number) => String(n).padStart(2, "0");

export default function PaymentMethod({ loaderData, actionData }: Route.ComponentProps) {
  const { card, enabled, notice } = loaderData;
  const pending = useIsSubmitting();
  const message = actionData ?? notice;
  return (
    <>
      <PageHeading
        title="Saved card"
        lead="The card your organisation's automatic payments are charged to. We keep only what Stripe tells us: the brand, the last 4 digits and the expiry."
      >
        <Link to="/invoices" className="text-brand-700 underline">
          ← Back to your invoices
        </Link>
      </PageHeading>
      {message ? <FormMessage errors={message.ok ? undefined : [message.message]} success={message.ok ? message.message : null} /> : null}
      <section aria-labelledby="saved-card" className="my-4 rounded-xl border border-slate-200 p-4 shadow-sm">
        <h2 id="saved-card" className="mb-2 text-lg font-semibold">
          Card on file
        </h2>
        {card ? (
          <>
            <p data-testid="saved-card" className="text-base">
              <strong>{card.label}</strong> · expires {two(card.expMonth)}/{card.expYear}
            </p>
            <div className="mt-3 flex flex-wrap items-start gap-3">
              {enabled ? (
                <Form method="post">
                  <button type="submit" name="intent" value="save-card" className={buttonClass("secondary", "md")} disabled={pending}>
                    {pending ? "Opening Stripe…" : "Replace card"}
                  </button>
                </Form>
              ) : null}
              <ConfirmAction
                intent="remove-card"
                id="card"
                label="Remove card"
                question={`Remove ${card.label}?`}
                details="Plans that charge automatically will mail you their invoices to pay instead."
                confirmLabel="Yes, remove the card"
                pendingLabel="Removing…"
              />
            </div>
          </>
        ) : (
          <>
            <p className="text-slate-700">No card saved. Invoices are mailed to you with a link to pay them.</p>
            {enabled ? (
              <Form method="post" className="mt-3">
                <button type="submit" name="intent" value="save-card" className={buttonClass("primary", "md")} disabled={pending}>
                  {pending ? "Opening Stripe…" : "Save a card"}
                </button>
              </Form>
            ) : (
              <p className="mt-2 text-sm text-slate-700">Card payments are not available yet.</p>
            )}
          </>
        )}
      </section>
    </>
  );
}
