/**
 * What changed between two versions (docs/product.md#offer-versions): field by field, old → new,
 * long texts (scope, items, terms and conditions) as a line diff made with the `diff` package.
 * Computed on the server: pages receive plain rows.
 */
import { diffLines } from "diff";
import { formatCents } from "#app/lib/money";
import { depositCents, type VersionTerms } from "./terms";
import { dueRuleText, shareText } from "./schedule";

/** One line of a line diff. */
export interface DiffLine {
  kind: "same" | "added" | "removed";
  text: string;
}

/** One changed field: short values as old → new, long texts as lines. */
export interface FieldChange {
  field: keyof VersionTerms;
  label: string;
  old: string;
  new: string;
  /** Present for long texts: the line diff (unchanged lines included). */
  lines?: DiffLine[];
}

const LABELS: Partial<Record<keyof VersionTerms, string>> = {
  projectName: "Project name",
  scope: "Scope",
  items: "Line items",
  totalCents: "Total",
  timeline: "Estimated timeline",
  deposit: "Deposit",
  validUntil: "Valid until",
  termsAndConditions: "Terms and conditions",
  currency: "Currency",
  schedule: "Payment schedule",
};

/** The fields compared, in the order the History lists them. */
const FIELDS: (keyof VersionTerms)[] = [
  "projectName",
  "scope",
  "items",
  "totalCents",
  "currency",
  "timeline",
  "deposit",
  "schedule",
  "validUntil",
  "termsAndConditions",
];

const LONG: (keyof VersionTerms)[] = ["scope", "items", "schedule", "termsAndConditions"];

/**
 * @returns the payment schedule as text, one line each (#37): "Milestone 1: design — 30 % ($900.00),
 *   when the agency marks it reached"; "" when the version has none.
 */
export function scheduleText(terms: Pick<VersionTerms, "schedule" | "currency">): string {
  const money = (cents: number) => formatCents(cents, terms.currency);
  return (terms.schedule ?? [])
    .map((line) => {
      const share = line.share.kind === "amount" ? money(line.amountCents) : `${shareText(line.share, money)} (${money(line.amountCents)})`;
      return `${line.label} — ${share}, ${dueRuleText(line.due)}`;
    })
    .join("\n");
}

/** @returns the items as text, one line each: "Design — 2 × $500.00 = $1,000.00". */
export function itemsText(terms: VersionTerms): string {
  return terms.items
    .map(
      (i) =>
        `${i.description} — ${i.quantity} × ${formatCents(i.unitPriceCents, terms.currency)} = ${formatCents(i.lineTotalCents, terms.currency)}`,
    )
    .join("\n");
}

/** @returns the deposit in words: "30 % ($900.00)", "$500.00" or "None". */
export function depositText(terms: VersionTerms): string {
  if (!terms.deposit) return "None";
  const cents = depositCents(terms.deposit, terms.totalCents);
  return terms.deposit.kind === "percent"
    ? `${terms.deposit.value} % (${formatCents(cents, terms.currency)})`
    : formatCents(cents, terms.currency);
}

function textOf(terms: VersionTerms, field: keyof VersionTerms): string {
  switch (field) {
    case "items":
      return itemsText(terms);
    case "totalCents":
      return formatCents(terms.totalCents, terms.currency);
    case "deposit":
      return depositText(terms);
    case "schedule":
      return scheduleText(terms);
    case "validUntil":
      return terms.validUntil ?? "Not set";
    case "termsAndConditions":
      return terms.termsAndConditions ?? "";
    default:
      return String(terms[field] ?? "");
  }
}

/** @returns the line diff of two texts (every line, marked same / added / removed). */
export function lineDiff(before: string, after: string): DiffLine[] {
  const withNewline = (text: string) => (text && !text.endsWith("\n") ? `${text}\n` : text);
  const out: DiffLine[] = [];
  for (const part of diffLines(withNewline(before), withNewline(after))) {
    const kind = part.added ? "added" : part.removed ? "removed" : "same";
    for (const line of part.value.replace(/\n$/, "").split("\n")) out.push({ kind, text: line });
  }
  return out;
}

/** @returns the fields that differ from `before` to `after`, in {@link FIELDS} order. */
export function diffTerms(before: VersionTerms, after: VersionTerms): FieldChange[] {
  const changes: FieldChange[] = [];
  for (const field of FIELDS) {
    const old = textOf(before, field);
    const now = textOf(after, field);
    if (old === now) continue;
    const change: FieldChange = { field, label: LABELS[field] ?? field, old, new: now };
    if (LONG.includes(field)) change.lines = lineDiff(old, now);
    changes.push(change);
  }
  return changes;
}
