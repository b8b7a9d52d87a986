import { csvExportLoader, PAYOUTS_EXPORT } from "./csv-exports.server";

/** The CSV of all payouts (see {@link PAYOUTS_EXPORT}; docs/product.md#commissions-payouts). */
export const loader = csvExportLoader(PAYOUTS_EXPORT);
