/**
 * The admin settings form (spec §3 settings, §9 defaults; issue #5). The commission rate is
 * typed as a percent ("15", "12.5") and stored in basis points (1500, 1250).
 */
import { z } from "zod";
import { optionalEmail, optionalText } from "#app/lib/text-fields";

export const SETTINGS_MESSAGES = {
  saved: "✅ Settings saved.",
  failed: "❌ Failed to save settings.",
} as const;

/** How long the saved/failed message stays on screen (spec §9: 3 s). */
export const SETTINGS_MESSAGE_MS = 3_000;

/** An optional setting's text: "" when empty. */
const text = (label: string, max: number) => optionalText(label, max).transform((v) => v ?? "");

export const settingsSchema = z.object({
  companyName: text("Company name", 200),
  supportEmail: optionalEmail().transform((v) => v ?? ""),
  defaultTimeline: text("Default timeline", 200),
  /** A checkbox: present ("on") = true, absent = false. */
  allowNewClients: z
    .boolean()
    .optional()
    .transform((v) => v ?? false),
  /** A checkbox (docs/product.md#email-verification): sign-in refused until the address is verified. */
  requireEmailVerification: z
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
});

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
  /** "Require e-mail verification to sign in"; absent = unchanged. */
  requireEmailVerification?: boolean;
  commissionRateBps: number;
}
