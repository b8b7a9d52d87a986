/**
 * The admin invoice list's filters (docs/product.md#admin-invoices), shared by the page, its CSV
 * export and the use-case. Imports no zod: the page uses them in the browser.
 */
import { normalizeSearch } from "#app/lib/pagination";

/**
 * Invoice list filters of docs/product.md#admin-invoices: all, pending (Unpaid: nothing paid, not past due),
 * partial (Partially paid, not past due), overdue (a balance due and past due, partially paid or not), paid, refunded.
 */
export const INVOICE_FILTERS = ["all", "pending", "partial", "overdue", "paid", "refunded"] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

/**
 * The admin invoice list's filters from its URL (`?filter=all|pending|partial|overdue|paid|refunded`, `?q=`),
 * shared by the page and its CSV export. Unknown values mean `all`.
 */
export function invoiceListFiltersFrom(params: URLSearchParams): { filter: InvoiceFilter; q?: string } {
  const value = params.get("filter") ?? "";
  const filter = (INVOICE_FILTERS as readonly string[]).includes(value) ? (value as InvoiceFilter) : "all";
  return { filter, q: normalizeSearch(params.get("q")) };
}
