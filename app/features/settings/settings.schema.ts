/**
 * The admin settings form (docs/product.md#settings). The commission rate is typed as a
 * percent ("15", "12.5") and stored in basis points (1500, 1250). Also the billing details
 * printed on invoices, the payment link template and the accent colour with its contrast
 * check (its rules in `settings-rules.ts`, which pages use in the browser).
 */
import { z } from "zod";
import { optionalEmail, optionalText } from "#app/lib/text-fields";
import { BILLING_LIMITS, COMMISSION_HOLD_MESSAGES, STORAGE_QUOTA_MESSAGE } from "./settings.messages";
import { TERMS_MAX } from "#app/features/agreements/agreements.messages";
import { MIN_ACCENT_CONTRAST, normalizeHexColor, contrastRatio, accentContrastMessage, isHttpsTemplate } from "./settings-rules";
/** Re-exported for server code; browser code imports the messages module (no zod in the browser). */
export { SETTINGS_MESSAGES, SETTINGS_MESSAGE_MS, BILLING_LIMITS } from "./settings.messages";

/** An optional setting's text: "" when empty. */
const text = (label: string, max: number, multiline = false) => optionalText(label, max, { multiline }).transform((v) => v ?? "");

const ACCENT_FORMAT = "Enter the accent colour as a hex code like #1d3fa3.";
const PAYMENT_LINK_HTTPS = "The payment link must be a full https:// address, e.g. https://pay.example.com/{number}?amount={amount}.";

/** Re-exported for server code; pages import `settings-rules.ts` (no zod in the browser). */
export {
  MIN_ACCENT_CONTRAST,
  PAYMENT_LINK_PLACEHOLDERS,
  normalizeHexColor,
  contrastRatio,
  accentContrastMessage,
  isHttpsTemplate,
  buildPaymentLink,
} from "./settings-rules";

/** The messages of the recurring-billing fields (#39). */
export const DUNNING_MESSAGES = {
  format: "Write the days as whole numbers separated by commas, e.g. 1, 3, 7 (at most 5).",
  range: "Each day must be between 1 and 60.",
  months: "Enter the months as a whole number from 0 to 120.",
} as const;

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
  /** docs/product.md#commissions-ledger: whole days, 0–365 (absent = unchanged). */
  commissionHoldDays: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      if (v === "") {
        ctx.addIssue({ code: "custom", message: COMMISSION_HOLD_MESSAGES.required });
        return z.NEVER;
      }
      if (!/^\d{1,3}$/.test(v)) {
        ctx.addIssue({ code: "custom", message: COMMISSION_HOLD_MESSAGES.format });
        return z.NEVER;
      }
      const days = Number(v);
      if (days > 365) {
        ctx.addIssue({ code: "custom", message: COMMISSION_HOLD_MESSAGES.range });
        return z.NEVER;
      }
      return days;
    }),
  /** #36: storage per client organisation, in GB with up to 3 decimals (0.001–1000); absent = unchanged. */
  storageQuotaGb: z
    .string()
    .trim()
    .regex(/^\d{1,4}(\.\d{1,3})?$/, { error: STORAGE_QUOTA_MESSAGE })
    .transform((v) => Math.round(Number(v) * 1024))
    .refine((mb) => mb >= 1 && mb <= 1_000_000, STORAGE_QUOTA_MESSAGE)
    .optional(),
  /** #39 dunning (docs/product.md#dunning): "1, 3, 7" — days after the first failed automatic payment to retry (1–60, at most 5); absent = unchanged. */
  dunningRetryDays: z
    .string()
    .trim()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined) return undefined;
      const parts = v
        .split(",")
        .map((p) => p.trim())
        .filter(Boolean);
      if (parts.length === 0 || parts.length > 5 || parts.some((p) => !/^\d{1,2}$/.test(p))) {
        ctx.addIssue({ code: "custom", message: DUNNING_MESSAGES.format });
        return z.NEVER;
      }
      const days = [...new Set(parts.map(Number))].sort((a, b) => a - b);
      if (days.some((d) => d < 1 || d > 60)) {
        ctx.addIssue({ code: "custom", message: DUNNING_MESSAGES.range });
        return z.NEVER;
      }
      return days;
    }),
  /** #39: months from a billing plan's start during which its paid invoices earn commission (0–120); absent = unchanged. */
  recurringCommissionMonths: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { error: DUNNING_MESSAGES.months })
    .transform(Number)
    .refine((v) => v <= 120, DUNNING_MESSAGES.months)
    .optional(),
  /** #25a (docs/product.md#deposits): whole percent 0–100 asked as a deposit on new invoices; absent = unchanged. */
  defaultDepositPercent: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, { error: "Enter the deposit as a whole percent from 0 to 100." })
    .transform(Number)
    .refine((v) => v <= 100, "Enter the deposit as a whole percent from 0 to 100.")
    .optional(),
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
  /** #26a (docs/product.md#offer-versions): part of every offer version made while set; undefined when empty. */
  termsAndConditions: optionalText("Terms and conditions", TERMS_MAX, { multiline: true }).transform((v) => v ?? undefined),
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
  /** Absent (here and below, unless said otherwise) = unchanged. */
  companyName?: string;
  supportEmail?: string;
  defaultTimeline?: string;
  allowNewClients?: boolean;
  /** "Require two-factor for admins" (docs/product.md#account-page); absent = unchanged. */
  requireAdminTwoFactor?: boolean;
  /** "Require e-mail verification to sign in"; absent = unchanged. */
  requireEmailVerification?: boolean;
  /** "Require a phone number at client registration"; absent = unchanged. */
  requireClientPhone?: boolean;
  /** Basis points, 0–10,000. */
  commissionRateBps?: number;
  /** Days a commission entry stays Pending (0–365); absent = unchanged. */
  commissionHoldDays?: number;
  /** Storage per client organisation in MB (1–1,000,000); absent = unchanged. */
  storageQuotaMb?: number;
  /** #39: days after the first failed automatic payment to retry, sorted, each 1–60; absent = unchanged. */
  dunningRetryDays?: number[];
  /** #39: months a billing plan's invoices earn commission (0–120); absent = unchanged. */
  recurringCommissionMonths?: number;
  /** Deposit asked on new invoices, whole percent 0–100; absent = unchanged. */
  defaultDepositPercent?: number;
  /** The billing and brand fields: left as they are when undefined. */
  companyAddress?: string;
  taxId?: string;
  paymentInstructions?: string;
  /** "" or an https template ({@link isHttpsTemplate}). */
  paymentLinkTemplate?: string;
  /** "" or `#rrggbb` passing {@link MIN_ACCENT_CONTRAST}. */
  accentColor?: string;
  /** #26a: the terms and conditions text ("" = none); left as it is when undefined. */
  termsAndConditions?: string;
}
