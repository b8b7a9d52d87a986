/**
 * An accepted offer's payment schedule as both proposal pages show it (issue #37,
 * docs/product.md#payment-schedule): each line with its amount, when it falls due and its invoice.
 * The admin's page adds "Mark milestone reached" (with a confirmation) on a milestone not reached.
 * Phone-first: one card per line, nothing scrolls sideways.
 */
import { Link } from "react-router";
import { ConfirmAction } from "#app/components/ui/confirm";
import { formatCalendarDate } from "#app/lib/dates";
import { formatCents } from "#app/lib/money";
import type { ScheduleLineView } from "../payment-schedule.server";

/** The line's state in words: paid, to pay, due on a day, or waiting for the milestone. */
function stateText(line: ScheduleLineView, audience: "admin" | "client"): string {
  if (line.invoiceId !== null) {
    return line.invoiceStatus === "paid"
      ? `Paid (invoice ${line.invoiceNumber})`
      : `Invoice ${line.invoiceNumber}, to pay by ${formatCalendarDate(line.invoiceDueDate)}`;
  }
  if (line.dueOn) return `Due on ${formatCalendarDate(line.dueOn)}: its invoice is sent that day`;
  return audience === "admin" ? "Waits for you to mark the milestone reached" : "Due when the agency marks the milestone reached";
}

/**
 * @param lines - the schedule, by position (from `listScheduleLines`).
 * @param audience - `admin` links the admin's invoice page and offers "Mark milestone reached".
 */
export function ScheduleLines({
  lines,
  currency,
  audience,
  headingId,
}: {
  lines: ScheduleLineView[];
  currency: string;
  audience: "admin" | "client";
  headingId: string;
}) {
  if (lines.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="min-w-0 rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6" data-testid="schedule">
      <h2 id={headingId} className="text-xl font-semibold">
        Payment schedule
      </h2>
      <ol className="mt-3 flex flex-col gap-2">
        {lines.map((line) => (
          <li
            key={line.id}
            className="grid min-w-0 gap-2 rounded-md border border-slate-200 p-3 sm:grid-cols-[1fr_auto] sm:items-center"
            data-testid={`schedule-line-${line.position}`}
          >
            <div className="min-w-0">
              <p className="font-medium wrap-anywhere">
                {line.label} · <span className="tabular-nums">{formatCents(line.amountCents, currency)}</span>
              </p>
              <p className="text-sm text-slate-700">
                {line.invoiceId !== null ? (
                  <Link
                    className="text-brand-700 underline"
                    to={audience === "admin" ? `/admin/invoices/${line.invoiceId}/payments` : `/view-invoice/${line.invoiceId}`}
                  >
                    {stateText(line, audience)}
                  </Link>
                ) : (
                  stateText(line, audience)
                )}
              </p>
            </div>
            {audience === "admin" && line.dueKind === "milestone" && line.invoiceId === null && !line.reachedAt ? (
              <ConfirmAction
                intent="mark-milestone"
                id={line.id}
                label="Mark milestone reached"
                subject={`“${line.label}”`}
                question={`Mark “${line.label}” reached?`}
                details={`Its invoice of ${formatCents(line.amountCents, currency)} is issued now and mailed to the client. This cannot be undone.`}
                confirmLabel="Yes, it is reached: send the invoice"
                pendingLabel="Sending…"
                tone="primary"
              />
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}
