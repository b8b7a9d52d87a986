/**
 * The next invoice number (docs/product.md#invoice-numbers) for writers other than the generate
 * page (a billing cycle's invoice, #39): the same per-year counter row, in the caller's transaction,
 * so every invoice shares one gapless `INV-YYYY-NNNN` sequence.
 */
import { sql } from "drizzle-orm";
import type { Queryable } from "#app/db/client.server";
import { invoiceCounter } from "#app/db/schema";
import { formatInvoiceNumber } from "./generate-invoice.server";

/**
 * Takes the next number of `now`'s UTC year (a concurrent writer waits on the counter row until
 * this transaction ends; a rollback gives the number back).
 *
 * @returns e.g. `INV-2026-0042`.
 */
export async function allocateInvoiceNumber(tx: Queryable, now: Date): Promise<string> {
  const year = now.getUTCFullYear();
  const [counter] = await tx
    .insert(invoiceCounter)
    .values({ year, lastNumber: 1 })
    .onConflictDoUpdate({ target: invoiceCounter.year, set: { lastNumber: sql`${invoiceCounter.lastNumber} + 1` } })
    .returning({ n: invoiceCounter.lastNumber });
  return formatInvoiceNumber(year, counter!.n);
}
