/** Why a card payment was kept aside (issue #36), for the page and the mail: a module the browser may load too. */

/** Why a card payment was kept aside. */
export type UnappliedReason = "other-currency" | "nothing-due" | "above-balance";

/** What each reason means, for the admin (page and mail). */
export const UNAPPLIED_REASON_LABELS: Record<UnappliedReason, string> = {
  "other-currency": "Paid in another currency than the invoice's",
  "nothing-due": "Paid when nothing was due",
  "above-balance": "Paid above the balance",
};
