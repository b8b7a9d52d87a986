/**
 * The ambassador's referral link (docs/product.md#registration): the site origin + /register?ref=<code>.
 *
 * @param origin - public origin without trailing slash, e.g. `https://example.com`.
 * @param code - the referral code (stored lowercased).
 */
export function referralLink(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, "")}/register?ref=${encodeURIComponent(code)}`;
}
