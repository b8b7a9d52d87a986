/**
 * The accent colour's and the payment link's rules (docs/product.md#settings), zod-free: the
 * settings page (colour picker) and the invoice view use them in the browser; the settings
 * schema checks the same on the server.
 */

/** Smallest contrast ratio of white text on the accent colour (WCAG AA for normal text). */
export const MIN_ACCENT_CONTRAST = 4.5;

/** Placeholders a payment link template may hold. */
export const PAYMENT_LINK_PLACEHOLDERS = ["{number}", "{amount}", "{currency}"] as const;

/**
 * @param hex - `#rgb` or `#rrggbb` (any case).
 * @returns `#rrggbb` in lowercase, or null when it is not a hex colour.
 */
export function normalizeHexColor(hex: string): string | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const digits = m[1]!.length === 3 ? [...m[1]!].map((c) => c + c).join("") : m[1]!;
  return `#${digits.toLowerCase()}`;
}

/** WCAG relative luminance of `#rrggbb` (0 black … 1 white). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/**
 * WCAG contrast ratio between two `#rrggbb` colours.
 *
 * @returns 1 (none) … 21 (black on white).
 */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The refusal of an accent colour too light for white text (docs/product.md#settings). */
export function accentContrastMessage(hex: string): string {
  const ratio = Math.floor(contrastRatio(hex, "#ffffff") * 10) / 10;
  return `White text on ${hex} has a contrast of only ${ratio}:1 (at least ${MIN_ACCENT_CONTRAST}:1 is needed). Choose a darker colour.`;
}

/**
 * @returns true when `template`, with its placeholders filled, is an https URL with a host.
 */
export function isHttpsTemplate(template: string): boolean {
  if (!/^https:\/\//i.test(template) || /[\s<>"]/.test(template)) return false;
  try {
    const url = new URL(template.replace(/\{(number|amount|currency)\}/g, "x"));
    return url.protocol === "https:" && url.hostname.length > 0 && !url.username && !url.password;
  } catch {
    return false;
  }
}

/**
 * The "Pay now" link of an invoice (docs/product.md#invoice-view).
 *
 * @param template - the saved template ("" = no link).
 * @param invoice.number - e.g. `INV-2026-0001`; `amountCents` the total in cents.
 * @returns the URL with `{number}`, `{amount}` (e.g. `1234.50`) and `{currency}` substituted
 *   (URL-encoded), or null when no template is set or the result is not an https URL.
 */
export function buildPaymentLink(template: string, invoice: { number: string; amountCents: number; currency: string }): string | null {
  if (!template || !isHttpsTemplate(template)) return null;
  const amount = `${Math.floor(invoice.amountCents / 100)}.${String(invoice.amountCents % 100).padStart(2, "0")}`;
  const values: Record<string, string> = { number: invoice.number, amount, currency: invoice.currency };
  return template.replace(/\{(number|amount|currency)\}/g, (_, key: string) => encodeURIComponent(values[key]!));
}
