/**
 * A version's full terms (docs/product.md#offers), as both proposal pages show them: scope, line
 * items, total, deposit, timeline, validity and the terms and conditions. Phone-first: items stack
 * as cards under 640 px, nothing scrolls sideways.
 */
import type { ReactNode } from "react";
import { LocalDate, LocalDateTime } from "#app/components/local-time";
import { formatCents } from "#app/lib/money";
import type { VersionTerms } from "../terms";
import { dueRuleText, shareText } from "../schedule";

/** The current version as the loaders pass it (dates may arrive as strings). */
export interface VersionView {
  number: number;
  sha256: string;
  createdAt: Date | string;
  createdByName: string;
  terms: VersionTerms;
  depositText: string;
  depositCents: number | null;
}

function Block({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-sm font-medium text-slate-600">{label}</dt>
      <dd className="mt-0.5 wrap-anywhere text-slate-900">{children}</dd>
    </div>
  );
}

/**
 * @param version - the version shown.
 * @param headingId - the section heading's id (unique on the page).
 * @param title - the heading, e.g. "The agency's offer".
 * @param children - what follows the terms (acceptance, accept form).
 */
export function OfferTerms({
  version,
  headingId,
  title,
  children,
}: {
  version: VersionView;
  headingId: string;
  title: string;
  children?: ReactNode;
}) {
  const t = version.terms;
  const money = (cents: number | null) => formatCents(cents, t.currency);
  return (
    <section
      aria-labelledby={headingId}
      className="min-w-0 rounded-xl border border-brand-200 p-4 shadow-sm sm:p-6"
      data-testid="offer-terms"
    >
      <h2 id={headingId} className="text-xl font-semibold">
        {title} — version {version.number}
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Made <LocalDateTime value={version.createdAt} /> by {version.createdByName || "the agency"}
      </p>
      <dl className="mt-4 flex flex-col gap-4">
        <Block label="Project name">{t.projectName || "—"}</Block>
        <Block label="Scope">
          <span className="block whitespace-pre-wrap">{t.scope}</span>
        </Block>
        <div className="min-w-0">
          <dt className="text-sm font-medium text-slate-600">Line items</dt>
          <dd className="mt-1">
            <ul className="flex flex-col gap-2" aria-label="Line items">
              {t.items.map((item, index) => (
                <li key={index} className="grid gap-1 rounded-md border border-slate-200 p-2 sm:grid-cols-[1fr_auto] sm:gap-4">
                  <span className="wrap-anywhere">{item.description}</span>
                  <span className="text-sm text-slate-700 sm:text-right">
                    {item.quantity} × {money(item.unitPriceCents)} = <strong>{money(item.lineTotalCents)}</strong>
                  </span>
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <Block label="Total">
          <strong className="text-lg" data-testid="offer-total-amount">
            {money(t.totalCents)}
          </strong>
        </Block>
        <Block label="Deposit">{version.depositText}</Block>
        {t.schedule?.length ? (
          <div className="min-w-0">
            <dt className="text-sm font-medium text-slate-600">Payment schedule</dt>
            <dd className="mt-1">
              <ol className="flex flex-col gap-2" aria-label="Payment schedule" data-testid="offer-schedule">
                {version.depositCents ? (
                  <li className="grid gap-1 rounded-md border border-slate-200 p-2 sm:grid-cols-[1fr_auto] sm:gap-4">
                    <span>Deposit, when you sign</span>
                    <strong className="sm:text-right">{money(version.depositCents)}</strong>
                  </li>
                ) : null}
                {t.schedule.map((line, index) => (
                  <li key={index} className="grid gap-1 rounded-md border border-slate-200 p-2 sm:grid-cols-[1fr_auto] sm:gap-4">
                    <span className="wrap-anywhere">
                      {line.label}
                      {line.share.kind === "percent" ? ` (${shareText(line.share)})` : ""}, {dueRuleText(line.due)}
                    </span>
                    <strong className="sm:text-right">{money(line.amountCents)}</strong>
                  </li>
                ))}
              </ol>
            </dd>
          </div>
        ) : null}
        <Block label="Estimated timeline">{t.timeline || "—"}</Block>
        <Block label="Offer valid until">{t.validUntil ? <LocalDate value={t.validUntil} /> : "Not set"}</Block>
        <Block label="Terms and conditions">
          {t.termsAndConditions ? <span className="block whitespace-pre-wrap">{t.termsAndConditions}</span> : "None"}
        </Block>
        <Block label="SHA-256 of these terms">
          <code className="text-xs break-all" data-testid="version-hash">
            {version.sha256}
          </code>
        </Block>
      </dl>
      {children}
    </section>
  );
}
