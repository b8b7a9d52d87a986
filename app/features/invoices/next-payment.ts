/**
 * The client dashboard's "Next due" (#37: the next step is always true): the next unpaid invoice's due
 * date, else the next line of a payment schedule ("Bakery site: Milestone 2 ($500.00) is due when the
 * agency marks it reached."), else what is overdue, else that nothing is due — never a bare "—".
 */
import type { UpcomingPayment } from "#app/features/agreements/payment-schedule.server";
import type { ClientBalance } from "./invoices.server";

/** A date the page formats in the reader's locale, or a sentence. */
export type NextPayment = { kind: "date"; date: string } | { kind: "text"; text: string };

/** What the card says when every invoice is paid and no schedule line is to come. */
export const NOTHING_DUE = "Nothing due";

/** What the card says when only overdue invoices are left (their sum shows on the line above). */
export const OVERDUE_NOW = "Now: the overdue amount above";

/**
 * @param balance - the client's balance (`nextDueDate`: the earliest unpaid invoice not overdue).
 * @param upcoming - the next schedule line of each open project of the client's, as
 *   `upcomingPayments` gives them (the caller's read, rights checked).
 * @returns the unpaid invoice's date first; else the schedule line falling due soonest (dated lines by
 *   date, then milestones waiting for the agency, in the projects' order), named with its project;
 *   else {@link OVERDUE_NOW} or {@link NOTHING_DUE}.
 */
export function nextPayment(
  balance: Pick<ClientBalance, "nextDueDate" | "overdueCount">,
  upcoming: readonly Pick<UpcomingPayment, "projectName" | "text" | "dueOn">[],
): NextPayment {
  if (balance.nextDueDate) return { kind: "date", date: balance.nextDueDate };
  const dated = upcoming.filter((u) => u.dueOn !== null).sort((a, b) => a.dueOn!.localeCompare(b.dueOn!));
  const next = dated[0] ?? upcoming[0];
  if (next) return { kind: "text", text: next.projectName ? `${next.projectName}: ${next.text}` : next.text };
  return { kind: "text", text: balance.overdueCount > 0 ? OVERDUE_NOW : NOTHING_DUE };
}
