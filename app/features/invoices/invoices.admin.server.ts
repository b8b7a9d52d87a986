/**
 * The admin invoice use-cases, one module each (docs/product.md#invoices, docs/product.md#admin-invoices).
 * This module only re-exports them, so that existing imports keep working; new code imports the
 * use-case's own module.
 */
export { adminInvoiceColumns, type AdminInvoiceRow } from "./invoice-admin-row.server";
export { invoiceFilterSql } from "./invoice-filter.server";
export { formatInvoiceNumber, generateInvoice, getProposalToInvoice, type ProposalToInvoice } from "./generate-invoice.server";
export { getInvoiceForAdmin, type AdminInvoice } from "./get-invoice-for-admin.server";
export { updateInvoice } from "./update-invoice.server";
export { markInvoicePaid } from "./mark-invoice-paid.server";
export { deleteInvoice } from "./delete-invoice.server";
export { exportInvoicesForAdmin, listInvoicesForAdmin, toAdminInvoiceRow, type InvoiceListFilters } from "./list-invoices-for-admin.server";
export { invoiceSummary, type InvoiceSummary } from "./invoice-summary.server";
export { INVOICE_MESSAGES } from "./invoices.schema";
