/**
 * Closing one's own account (docs/product.md#closing-an-account): a client or an ambassador, after
 * the password (and the second factor when two-factor is on) and a confirmation. The account's
 * personal data is erased or anonymised (`eraseAccount`), what the law keeps stays, every session
 * ends, the address is free again, and a last mail tells the old address.
 */
import { recordAudit } from "#app/features/audit/audit.server";
import { queueNotification } from "#app/features/mail/notifications.server";
import type { AccountDeps } from "#app/features/users/accounts.server";
import type { SessionUser } from "#app/features/users/actor";
import { checkPassword } from "#app/features/users/account/guards.server";
import { checkSecondFactor } from "#app/features/users/account/two-factor.server";
import { AppError, fieldError } from "#app/lib/errors";
import type { RequestMeta } from "#app/lib/request.server";
import { eraseAccount } from "./erasure.server";
import { organisationsNeedingOwner } from "#app/features/organisations/organisations.server";
import { PRIVACY_MESSAGES } from "./privacy.messages";
import { and, asc, eq, sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoice, membership } from "#app/db/schema";
import { invoiceBalanceSql } from "#app/features/payments/balance.server";
import { MONEY_ROLES } from "#app/features/organisations/access.server";

/** An unpaid balance the person would leave behind (issue #41): its invoices and their sum. */
export interface UnpaidOnClosing {
  /** The invoices with a balance due, by number (e.g. "INV-2026-0007"), oldest due first. */
  invoices: Array<{ number: string; balanceCents: number; dueDate: string }>;
  /** Sum of their balances, in cents. */
  totalCents: number;
}

/**
 * What closing the account would leave unpaid (docs/product.md#closing-an-account, issue #41): the
 * invoices with a balance due of each organisation in which the person is the last one who handles
 * money (an owner or billing person) — nobody else would see or pay them once they are gone.
 *
 * @param userId - the person closing their account.
 * @returns the invoices (empty for an ambassador or a client who owes nothing) and their total in cents.
 */
export async function unpaidBalanceOnClosing(q: Queryable, userId: string): Promise<UnpaidOnClosing> {
  const balance = invoiceBalanceSql;
  const rows = await q
    .select({ number: invoice.number, balanceCents: balance.mapWith(Number), dueDate: invoice.dueDate })
    .from(invoice)
    .innerJoin(membership, and(eq(membership.organisationId, invoice.organisationId), eq(membership.userId, userId)))
    .where(
      and(
        eq(invoice.status, "unpaid"),
        sql`${membership.role} in (${sql.join(
          MONEY_ROLES.map((r) => sql`${r}`),
          sql`, `,
        )})`,
        sql`not exists (select 1 from membership other where other.organisation_id = ${invoice.organisationId} and other.user_id <> ${userId} and other.role in ('owner', 'billing'))`,
        sql`${balance} > 0`,
      ),
    )
    .orderBy(asc(invoice.dueDate), asc(invoice.id));
  return { invoices: rows, totalCents: rows.reduce((sum, row) => sum + row.balanceCents, 0) };
}

/**
 * @param input.code - required when two-factor is on (a TOTP code or a backup code).
 * @param input.acknowledgeUnpaid - the person read that an unpaid balance stays due (required when
 *   {@link unpaidBalanceOnClosing} finds one).
 * @returns headers that clear the session cookie (the session is gone already).
 * @throws {AppError} 403 for an admin; 409 the only owner of an organisation that has other people
 *   (make one of them an owner first); 409 an unpaid balance not acknowledged
 *   (`acknowledgeUnpaid`, the message names the amount and the invoices); 400 wrong password (`password`), missing or wrong code
 *   (`code`); 429 too many attempts.
 */
export async function closeOwnAccount(
  deps: AccountDeps,
  actor: SessionUser,
  input: { password: string; code?: string; acknowledgeUnpaid?: boolean },
  meta: RequestMeta,
): Promise<Headers> {
  if (actor.role !== "client" && actor.role !== "ambassador") throw new AppError("FORBIDDEN", PRIVACY_MESSAGES.closeAdmin);
  // The last owner of an organisation with other people hands it over first (docs/product.md#closing-an-account).
  const needOwner = await organisationsNeedingOwner(deps.db, actor.id);
  if (needOwner.length) throw new AppError("CONFLICT", PRIVACY_MESSAGES.transferOwnership(needOwner.map((o) => o.name)));
  // An unpaid balance is said first (issue #41): closing does not cancel it.
  if (!input.acknowledgeUnpaid) {
    const unpaid = await unpaidBalanceOnClosing(deps.db, actor.id);
    if (unpaid.invoices.length) {
      const message = PRIVACY_MESSAGES.unpaidNotAcknowledged;
      throw new AppError("CONFLICT", message, { fieldErrors: { acknowledgeUnpaid: [message] } });
    }
  }
  await checkPassword(deps, actor.id, input.password, "password");
  if (actor.twoFactorEnabled) {
    if (!input.code?.trim()) throw fieldError("code", PRIVACY_MESSAGES.closeNeedsCode);
    await checkSecondFactor(deps, actor, input.code, meta);
  }
  await deps.db.transaction(async (tx) => {
    if (!(await eraseAccount(tx, actor.id, "Closed by the account holder"))) return;
    await recordAudit(
      tx,
      { id: actor.id, role: actor.role, email: "closed account" },
      {
        entity: "user",
        entityId: actor.id,
        action: "closed",
        before: null,
        after: null,
      },
    );
    await queueNotification(tx, {
      to: actor.email,
      subject: "Your account is closed",
      lines: [
        "Your account was closed at your request. Your personal data has been erased; invoices and payments are kept as the law requires.",
        "This address is free again. If it was not you, contact us at once.",
      ],
      link: { label: "Visit the site", path: "/" },
    });
  });
  const headers = new Headers();
  headers.append("Set-Cookie", "better-auth.session_token=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax");
  headers.append("Set-Cookie", "__Secure-better-auth.session_token=; Path=/; Max-Age=0; HttpOnly; Secure; SameSite=Lax");
  return headers;
}
