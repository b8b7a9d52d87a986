import { csvExportLoader, COMMISSIONS_EXPORT } from "./csv-exports.server";

/** The commissions CSV download (see {@link COMMISSIONS_EXPORT}). */
export const loader = csvExportLoader(COMMISSIONS_EXPORT);
