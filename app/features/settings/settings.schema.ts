/**
 * The admin settings form (docs/product.md#settings). The commission rate is typed as a
 * percent ("15", "12.5") and stored in basis points (1500, 1250). Also the billing details
 * printed on invoices, the payment link template and the accent colour with its contrast
 * check (shared by the browser and the server).
 */
import { z } from "zod";
import { optionalEmail, optionalText } from "#app/lib/text-fields";

export const SETTINGS_MESSAGES = {
  saved: "✅ Settings saved.",
  failed: "❌ Failed to save settings.",
} as const;

/** How long the saved/failed message stays on screen (docs/product.md#form-messages: 3 s). */
export const SETTINGS_MESSAGE_MS = 3_000;

/** An optional setting's text: "" when empty. */
const text = (label: string, max: number, multiline = false) => optionalText(label, max, { multiline }).transform((v) => v ?? "");

/** Limits of the billing fields (characters). */
export const BILLING_LIMITS = { companyAddress: 500, taxId: 50, paymentInstructions: 2_000, paymentLinkTemplate: 2_048 } as const;

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

const ACCENT_FORMAT = "Enter the accent colour as a hex code like #1d3fa3.";
const PAYMENT_LINK_HTTPS = "The payment link must be a full https:// address, e.g. https://pay.example.com/{number}?amount={amount}.";

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

export const settingsSchema = z.object({
  companyName: text("Company name", 200),
  supportEmail: optionalEmail().transform((v) => v ?? ""),
  defaultTimeline: text("Default timeline", 200),
  /** A checkbox: present ("on") = true, absent = false. */
  allowNewClients: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  /** docs/product.md#account-page: admins without two-factor are sent to set it up. A checkbox. */
  requireAdminTwoFactor: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  /** A checkbox (docs/product.md#email-verification): sign-in refused until the address is verified. */
  requireEmailVerification: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  /** A checkbox (docs/product.md#registration): client registration asks for a phone number. */
  requireClientPhone: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  commissionRatePercent: z
    .string({ error: "Commission rate is required." })
    .trim()
    .min(1, { error: "Commission rate is required.", abort: true })
    .regex(/^\d{1,3}(\.\d{1,2})?$/, { error: "Enter the rate as a percent, e.g. 15 or 12.5.", abort: true })
    .transform((v) => percentToBps(v))
    .refine((bps) => bps <= 10_000, "The rate must be between 0 and 100 %."),
  companyAddress: text("Company address", BILLING_LIMITS.companyAddress, true),
  taxId: text("Tax ID", BILLING_LIMITS.taxId),
  paymentInstructions: text("Payment instructions", BILLING_LIMITS.paymentInstructions, true),
  paymentLinkTemplate: z
    .string()
    .trim()
    .max(BILLING_LIMITS.paymentLinkTemplate, {
      error: `Payment link must be at most ${BILLING_LIMITS.paymentLinkTemplate} characters.`,
      abort: true,
    })
    .refine((v) => !v || isHttpsTemplate(v), PAYMENT_LINK_HTTPS)
    .optional()
    .transform((v) => v ?? ""),
  accentColor: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (!v) return "";
      const hex = normalizeHexColor(v);
      if (!hex) {
        ctx.addIssue({ code: "custom", message: ACCENT_FORMAT });
        return z.NEVER;
      }
      if (contrastRatio(hex, "#ffffff") < MIN_ACCENT_CONTRAST) {
        ctx.addIssue({ code: "custom", message: accentContrastMessage(hex) });
        return z.NEVER;
      }
      return hex;
    }),
});

/** Messages of the settings fields checked again by the server. */
export const SETTINGS_FIELD_MESSAGES = { accentFormat: ACCENT_FORMAT, paymentLinkHttps: PAYMENT_LINK_HTTPS } as const;

/** "12.5" → 1250 (exact decimal arithmetic, no floating point). */
export function percentToBps(percent: string): number {
  const [whole, fraction = ""] = percent.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}

/** 1250 → "12.5", 1500 → "15". */
export function bpsToPercent(bps: number): string {
  const whole = Math.floor(bps / 100);
  const fraction = String(bps % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}` : String(whole);
}

/** What {@link saveSettings} takes: validated values, the rate in basis points. */
export interface SettingsInput {
  companyName: string;
  supportEmail: string;
  defaultTimeline: string;
  allowNewClients: boolean;
  /** "Require two-factor for admins" (docs/product.md#account-page); false when not given. */
  requireAdminTwoFactor?: boolean;
  /** "Require e-mail verification to sign in"; absent = unchanged. */
  requireEmailVerification?: boolean;
  /** "Require a phone number at client registration"; absent = unchanged. */
  requireClientPhone?: boolean;
  commissionRateBps: number;
  /** The billing and brand fields: left as they are when undefined. */
  companyAddress?: string;
  taxId?: string;
  paymentInstructions?: string;
  /** "" or an https template ({@link isHttpsTemplate}). */
  paymentLinkTemplate?: string;
  /** "" or `#rrggbb` passing {@link MIN_ACCENT_CONTRAST}. */
  accentColor?: string;
}
