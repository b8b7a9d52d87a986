import { csvExportLoader, INVOICES_EXPORT } from "./csv-exports.server";

/** The invoices CSV download (see {@link INVOICES_EXPORT}). */
export const loader = csvExportLoader(INVOICES_EXPORT);
