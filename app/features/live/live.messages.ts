/**
 * What the page's polite live region says about an update (docs/product.md#live-updates).
 * Pure, shared by the browser and the tests.
 */
import type { InvoiceStatusWord } from "#app/lib/vocabulary";
import { INVOICE_STATUS_LABELS, MEETING_STATUS_LABELS, PROPOSAL_STATUS_LABELS } from "#app/lib/vocabulary";
import type { MeetingStatus, ProposalStatus } from "#app/db/enums";
import type { LiveUpdate } from "./live-kinds";

const proposalName = (u: LiveUpdate) => (u.data.projectName ? `"${u.data.projectName}"` : `#${u.proposalId ?? u.entityId}`);

/**
 * @returns the sentence announced for `update`, or null for updates that are not announced
 *   (the page simply shows the new state).
 */
export function announcementFor(update: LiveUpdate): string | null {
  const { kind, data } = update;
  switch (kind) {
    case "proposal.status-changed":
    case "proposal.status-undone":
      return data.status
        ? `Proposal ${proposalName(update)} is now ${PROPOSAL_STATUS_LABELS[data.status as ProposalStatus] ?? data.status}.`
        : null;
    case "proposal.created":
    case "proposal.submitted":
      return `New proposal ${proposalName(update)}.`;
    case "proposal.approved":
      return `Proposal ${proposalName(update)} was approved.`;
    case "proposal.declined":
      return `Proposal ${proposalName(update)} was declined.`;
    case "proposal.revision-requested":
      return `Revision requested on proposal ${proposalName(update)}.`;
    case "meeting.requested":
      return "New meeting request.";
    case "meeting.accepted":
    case "meeting.declined":
      return `Meeting request ${MEETING_STATUS_LABELS[data.status as MeetingStatus]?.toLowerCase() ?? data.status}.`;
    case "invoice.created":
      return `New invoice ${data.number ?? ""}.`.replace(" .", ".");
    case "invoice.marked-paid":
    case "invoice.marked-unpaid":
      return `Invoice ${data.number ?? `#${update.entityId}`} is now ${INVOICE_STATUS_LABELS[data.status as InvoiceStatusWord] ?? data.status}.`;
    case "contact.received":
      return "New contact message.";
    case "message.posted":
      return `New message from ${data.authorName ?? "someone"}.`;
    case "note.posted":
      return `New internal note from ${data.authorName ?? "an admin"}.`;
    default:
      return null;
  }
}
