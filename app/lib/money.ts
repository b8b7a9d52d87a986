/**
 * Money as integer cents (design: `budgetCents`, `amountCents`). Parsing accepts what people
 * type ("$5,000", "5000.50", "1 200", "€12.5"); formatting uses Intl.
 */
import { numberFormat } from "#app/lib/intl-cache";

/** Largest amount accepted: $10,000,000.00, well inside a 32-bit integer column. */
export const MAX_CENTS = 1_000_000_000;

/**
 * Parses a money amount typed by a person into integer cents.
 *
 * @param input - e.g. `"$5,000"`, `"5000.50"`, `" 12 "`. Empty → `null`.
 * @returns cents (e.g. 500050), `null` for empty input.
 * @throws {Error} "Enter an amount like 5000 or $5,000.50" when unparsable, negative, with more
 *   than two decimals, or above {@link MAX_CENTS}.
 */
export function parseMoneyToCents(input: string | null | undefined): number | null {
  const raw = (input ?? "").trim();
  if (raw === "") return null;
  const cleaned = raw
    .replace(/^(usd|us\$|\$|€|£)\s*/i, "")
    .replace(/\s*(usd)$/i, "")
    .replace(/[\s,]/g, "");
  const match = /^(\d+)(?:\.(\d{1,2}))?$/.exec(cleaned);
  if (!match) throw new Error("Enter an amount like 5000 or $5,000.50");
  const cents = Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"));
  if (!Number.isSafeInteger(cents) || cents > MAX_CENTS) throw new Error("That amount is too large.");
  return cents;
}

/** The currency when Settings hold none (docs/product.md#money): the one definition of the default. */
export const DEFAULT_CURRENCY = "USD";

/** @returns the settings' currency code, {@link DEFAULT_CURRENCY} when unset. */
export function currencyOf(settings: { currency: string }): string {
  return settings.currency || DEFAULT_CURRENCY;
}

/**
 * Formats cents for display, e.g. `formatCents(500050)` → `"$5,000.50"`.
 *
 * @param currency - ISO 4217 code (settings.currency, default {@link DEFAULT_CURRENCY}).
 */
export function formatCents(cents: number | null | undefined, currency = DEFAULT_CURRENCY): string {
  if (cents === null || cents === undefined) return "—";
  let format = currencyFormats.get(currency);
  if (!format) {
    format = numberFormat("en-US", { style: "currency", currency });
    // Kept only once Intl accepted it (it throws for a malformed code): the code comes from Settings.
    currencyFormats.set(currency, format);
  }
  return format.format(cents / 100);
}

/** formatCents' formatter per currency code, found without building the shared cache's JSON key (a table formats 25–75 amounts). */
const currencyFormats = new Map<string, Intl.NumberFormat>();

/** Cents as a plain editable string, e.g. 500050 → "5000.50" (form default values). */
export function centsToInput(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return "";
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
