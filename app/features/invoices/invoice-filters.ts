/**
 * The admin invoice list's filters (docs/product.md#admin-invoices), shared by the page, its CSV
 * export and the use-case. Imports no zod: the page uses them in the browser.
 */
import { normalizeSearch } from "#app/lib/pagination";

/** Invoice list filters of docs/product.md#admin-invoices: all, paid, pending (unpaid, not past due), overdue (unpaid, past due). */
export const INVOICE_FILTERS = ["all", "paid", "pending", "overdue"] as const;
export type InvoiceFilter = (typeof INVOICE_FILTERS)[number];

/**
 * The admin invoice list's filters from its URL (`?filter=all|paid|pending|overdue`, `?q=`),
 * shared by the page and its CSV export. Unknown values mean `all`.
 */
export function invoiceListFiltersFrom(params: URLSearchParams): { filter: InvoiceFilter; q?: string } {
  const value = params.get("filter") ?? "";
  const filter = (INVOICE_FILTERS as readonly string[]).includes(value) ? (value as InvoiceFilter) : "all";
  return { filter, q: normalizeSearch(params.get("q")) };
}
