import { csvExportLoader, USERS_EXPORT } from "./csv-exports.server";

/** The users CSV download (see {@link USERS_EXPORT}). */
export const loader = csvExportLoader(USERS_EXPORT);
