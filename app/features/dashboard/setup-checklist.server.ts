/**
 * The first-run checklist of the admin dashboard (issue #41, docs/product.md#setup-checklist): what
 * a fresh install needs before it sends its first invoice or meeting invite, each step linking to
 * its form and done as soon as the saved settings say so (nothing is stored about the list itself).
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { DEFAULT_WEEKLY_HOURS } from "#app/db/enums";
import { rowsOf } from "#app/db/rows";
import { brandLogo } from "#app/db/schema";
import { cardPaymentsEnabled, type StripeConfig } from "#app/features/payments/stripe.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";

/** One step: its label, what it is for, where its form is, and whether it is done. */
export interface SetupStep {
  id: "company-name" | "billing-details" | "payments" | "availability" | "brand" | "terms";
  label: string;
  why: string;
  href: string;
  done: boolean;
}

/**
 * The checklist's steps, in order. Availability counts as done once the time zone or the weekly
 * hours differ from the defaults (UTC, Monday–Friday 9–17) or were saved once (an audited change).
 *
 * @param env - the Stripe variables: card payments count as a way to pay.
 * @throws {AppError} 403 unless the actor is an admin.
 */
export async function setupChecklist(db: Queryable, actor: Actor, env: StripeConfig): Promise<SetupStep[]> {
  assertRole(actor, "admin");
  const s = await getSettings(db);
  // Whether a logo exists and whether the availability was ever saved: one statement (issue #42).
  const [{ logo, availabilitySaved }] = rowsOf<{ logo: boolean; availabilitySaved: boolean }>(
    await db.execute(
      sql`select exists (select 1 from ${brandLogo}) as "logo", exists (select 1 from audit_event where entity = 'settings' and (jsonb_exists(after, 'timeZone') or jsonb_exists(after, 'weeklyHours'))) as "availabilitySaved"`,
    ),
  ) as [{ logo: boolean; availabilitySaved: boolean }];
  const hoursChanged = canonical(s.weeklyHours) !== canonical(DEFAULT_WEEKLY_HOURS);
  return [
    {
      id: "company-name",
      label: "Company name",
      why: "Shown in the portal, on invoices, in mails and calendar invites.",
      href: "/admin/settings/company",
      done: s.companyName.trim() !== "",
    },
    {
      id: "billing-details",
      label: "Address and tax ID",
      why: "Printed on every invoice.",
      href: "/admin/settings/company#billing-details",
      done: s.companyAddress.trim() !== "" && s.taxId.trim() !== "",
    },
    {
      id: "payments",
      label: "How clients pay",
      why: "Payment instructions or a payment link on invoices, or card payments through Stripe.",
      href: "/admin/settings/payments#payment-instructions",
      done: s.paymentInstructions.trim() !== "" || s.paymentLinkTemplate.trim() !== "" || cardPaymentsEnabled(env),
    },
    {
      id: "availability",
      label: "Time zone and weekly hours",
      why: `When clients may book meetings (now ${s.timeZone}).`,
      href: "/admin/settings/availability",
      done: s.timeZone !== "UTC" || hoursChanged || availabilitySaved,
    },
    {
      id: "brand",
      label: "Brand",
      why: "Your logo or accent colour in the portal and mails.",
      href: "/admin/settings/brand",
      done: logo || s.accentColor !== "",
    },
    {
      id: "terms",
      label: "Terms and conditions",
      why: "What clients accept when they sign a proposal.",
      href: "/admin/settings/terms",
      done: s.termsAndConditions.trim() !== "",
    },
  ];
}

/** JSON with object keys sorted (jsonb does not keep the written order). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}
