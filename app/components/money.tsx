/**
 * Amounts on pages (docs/product.md#money): written by the vocabulary module in the settings'
 * currency, which the role area's layout loader provides (`currency`).
 */
import { useMatches } from "react-router";
import { DEFAULT_CURRENCY } from "#app/lib/money";
import { formatMoney } from "#app/lib/vocabulary";

/** @returns the settings' currency from the nearest layout that loads it, else the default (USD). */
export function useCurrency(): string {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i--) {
    const data = matches[i]?.loaderData as { currency?: unknown } | undefined;
    if (data && typeof data.currency === "string" && data.currency) return data.currency;
  }
  return DEFAULT_CURRENCY;
}

/** @returns a function writing cents in the settings' currency, e.g. 500050 → "$5,000.50". */
export function useFormatMoney(): (cents: number | null | undefined) => string {
  const currency = useCurrency();
  return (cents) => formatMoney(cents, currency);
}
