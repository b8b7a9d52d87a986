/**
 * Editing an invoice (docs/product.md#invoices-editing): items and due date, with the version
 * check that refuses a save from a stale page.
 */
import { MONEY_ROLES } from "#app/features/organisations/access.server";
import { organisationPeople } from "#app/features/organisations/recipients.server";
import { asc, eq, sql } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { invoice, invoiceItem } from "#app/db/schema";
import { changedFields, recordAudit } from "#app/features/audit/audit.server";
import { queueUserNotice } from "#app/features/mail/notifications.server";
import { getSettings } from "#app/features/settings/settings.server";
import { assertRole, type Actor } from "#app/features/users/actor";
import { AppError, fieldError, notFound } from "#app/lib/errors";
import { checkedItems } from "./invoice-items.server";
import { lockProposalOfInvoice } from "./invoice-locks.server";
import { currencyOf, invoiceNotice } from "./invoice-notice.server";
import { getInvoiceMoney, syncInvoiceStatus } from "#app/features/payments/balance.server";
import { signedInvoicePath } from "#app/features/payments/invoice-link.server";
import { formatCents } from "#app/lib/money";
import { type InvoiceInput } from "./invoices.schema";
import { INVOICE_MESSAGES } from "./invoices.messages";

/**
 * Replaces an unpaid invoice's items and due date; the total is recomputed (docs/product.md#invoice-statuses
 * invoices: items, total, dueDate). A paid invoice is a settled record and is not edited.
 * In the same transaction: one audit event `updated` with the changed fields
 * (dueDate, totalCents, items) before and after, and an essential notice to the client
 * (link /view-invoice/:id). Saving identical values changes nothing: no audit, no mail.
 * Every change raises the invoice's `version`; a save carrying an older `input.version` (the
 * page was loaded before another admin's save) is refused and writes nothing
 * (docs/product.md#invoices).
 *
 * @returns the new total in cents.
 * @throws {AppError} 403 unless the actor is an admin; 404 unknown invoice; 409 paid invoice,
 *   or "This invoice was changed by someone else; reload to see it." for a stale version;
 *   400 invalid items or due date.
 */
export async function updateInvoice(db: Database, actor: Actor, invoiceId: number, input: InvoiceInput): Promise<{ totalCents: number }> {
  assertRole(actor, "admin");
  const { items, totalCents } = checkedItems(input);
  return db.transaction(async (tx) => {
    await lockProposalOfInvoice(tx, invoiceId);
    const [current] = await tx
      .select({
        status: invoice.status,
        number: invoice.number,
        clientId: invoice.clientId,
        organisationId: invoice.organisationId,
        dueDate: invoice.dueDate,
        totalCents: invoice.totalCents,
        version: invoice.version,
      })
      .from(invoice)
      .where(eq(invoice.id, invoiceId))
      .for("update");
    if (!current) throw notFound(INVOICE_MESSAGES.notFound);
    if (current.status === "paid") throw new AppError("CONFLICT", INVOICE_MESSAGES.paidLocked);
    if (input.version !== undefined && input.version !== current.version)
      throw new AppError("CONFLICT", INVOICE_MESSAGES.changedBySomeoneElse);
    const oldItems = await tx
      .select({ description: invoiceItem.description, amountCents: invoiceItem.amountCents })
      .from(invoiceItem)
      .where(eq(invoiceItem.invoiceId, invoiceId))
      .orderBy(asc(invoiceItem.position), asc(invoiceItem.id));
    const { before, after } = changedFields(
      { dueDate: current.dueDate, totalCents: current.totalCents, items: oldItems },
      { dueDate: input.dueDate, totalCents, items },
    );
    if (!after) return { totalCents };
    // A partly paid invoice may be edited, but not below what was paid (docs/product.md#payments).
    const { paidCents } = await getInvoiceMoney(tx, invoiceId);
    if (totalCents < paidCents)
      throw fieldError("items", INVOICE_MESSAGES.belowPaid(formatCents(paidCents, currencyOf(await getSettings(tx)))));
    await tx.delete(invoiceItem).where(eq(invoiceItem.invoiceId, invoiceId));
    await tx.insert(invoiceItem).values(items.map((item, position) => ({ invoiceId, position, ...item })));
    await tx
      .update(invoice)
      .set({ dueDate: input.dueDate, totalCents, version: sql`${invoice.version} + 1`, updatedAt: sql`now()` })
      .where(eq(invoice.id, invoiceId));
    await syncInvoiceStatus(tx, invoiceId);
    await recordAudit(tx, actor, { entity: "invoice", entityId: invoiceId, action: "updated", before, after });
    const clientId = current.clientId;
    if (clientId) {
      const currency = currencyOf(await getSettings(tx));
      for (const person of await organisationPeople(tx, current.organisationId, MONEY_ROLES, clientId))
        await queueUserNotice(
          tx,
          person,
          invoiceNotice(
            invoiceId,
            current.number,
            totalCents,
            input.dueDate,
            currency,
            "updated",
            await signedInvoicePath(tx, invoiceId, clientId, undefined, person),
          ),
        );
    }
    return { totalCents };
  });
}
