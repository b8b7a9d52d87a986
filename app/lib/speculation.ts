/**
 * Prefetch on intent without JavaScript: the browser's speculation rules prefetch a
 * same-origin link when the pointer rests on it (docs/product.md#settings). The text is constant so the
 * Content-Security-Policy can allow it by hash (server/security.ts).
 */
export const SPECULATION_RULES = JSON.stringify({
  prefetch: [{ where: { and: [{ href_matches: "/*" }, { not: { href_matches: "/logout" } }] }, eagerness: "moderate" }],
});
