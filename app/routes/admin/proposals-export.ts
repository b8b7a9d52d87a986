import { csvExportLoader, PROPOSALS_EXPORT } from "./csv-exports.server";

/** The proposals CSV download (see {@link PROPOSALS_EXPORT}). */
export const loader = csvExportLoader(PROPOSALS_EXPORT);
