/**
 * Token-bearing addresses never reach the log (docs/product.md#operations, issue #36): a path
 * whose segment is a bearer secret — whoever holds it opens what it names — is logged with
 * that segment replaced by `[redacted]`, and a query is never logged (its `token=` values are
 * the sign-in, reset and verification secrets).
 *
 * The secret segments (route config `app/routes.ts`):
 * - `/i/:token`, `/i/:token/pdf` — a signed invoice link (opens and pays an invoice);
 * - `/invitations/:token` — an invitation to a client organisation;
 * - `/verify/:certificateId` and `…/certificate/:certificateId` — a certificate of acceptance;
 * - `/account/my-data/:token` — a data export's download link.
 * The reset-password, verify-email and confirm-email links carry their token in the query.
 */

/** What replaces a secret path segment. */
export const REDACTED_SEGMENT = "[redacted]";

/**
 * Path prefixes followed by one secret segment (a `.data` suffix, the single-fetch variant of the
 * same address, is kept after the placeholder).
 */
const SECRET_SEGMENT =
  /^(\/(?:i|invitations|verify|account\/my-data)\/|\/(?:admin\/)?proposals\/[^/]+\/certificate\/)([^/]+?)(\.data)?(?=\/|$)/;

/**
 * @param url - a request target's path, with or without a query (`/i/abc/pdf?x=1`); an
 *   absolute-form target is reduced to its path first.
 * @returns the path with its secret segment written `[redacted]` and without the query, e.g.
 *   `/i/[redacted]/pdf`, `/invitations/[redacted].data`, `/reset-password`.
 */
export function redactPath(url: string): string {
  let path = url;
  if (!path.startsWith("/")) {
    // Absolute form (`http://host/i/…`): only its path is logged.
    const slash = path.indexOf("/", path.indexOf("//") + 2);
    path = path.indexOf("//") === -1 || slash === -1 ? "/" : path.slice(slash);
  }
  const end = path.search(/[?#]/);
  if (end !== -1) path = path.slice(0, end);
  return path.replace(
    SECRET_SEGMENT,
    (_match, prefix: string, _secret: string, data: string | undefined) => `${prefix}${REDACTED_SEGMENT}${data ?? ""}`,
  );
}
