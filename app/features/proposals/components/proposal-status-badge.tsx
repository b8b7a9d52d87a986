import { Badge, type BadgeTone } from "#app/components/ui/badge";
import type { ProposalStatus } from "#app/db/enums";
import { STATUS_LABELS } from "../proposal-rules";

const TONE: Record<ProposalStatus, BadgeTone> = {
  submitted: "violet",
  pending: "amber",
  planning: "blue",
  in_progress: "blue",
  review: "violet",
  completed: "green",
  closed: "gray",
  awaiting_acceptance: "amber",
};

/** A proposal's status (docs/product.md#proposal-statuses) as a coloured badge. */
export function ProposalStatusBadge({ status }: { status: ProposalStatus }) {
  return <Badge tone={TONE[status]}>{STATUS_LABELS[status]}</Badge>;
}

/** The client's decision on an ambassador proposal. */
export function ApprovalBadge({ approvedAt, declinedAt }: { approvedAt: Date | null; declinedAt: Date | null }) {
  if (approvedAt) return <Badge tone="green">Approved by client</Badge>;
  if (declinedAt) return <Badge tone="red">Declined by client</Badge>;
  return <Badge tone="amber">Awaiting client approval</Badge>;
}
