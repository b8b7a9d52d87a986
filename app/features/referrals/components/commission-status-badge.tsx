import { Badge, type BadgeTone } from "#app/components/ui/badge";
import { COMMISSION_STATUS_LABELS, commissionStatus, type CommissionStatusWord } from "#app/lib/vocabulary";

const TONE: Record<CommissionStatusWord, BadgeTone> = { "awaiting-approval": "gray", unpaid: "amber", paid: "green" };

/** A commission's status (docs/product.md#status-words): Awaiting client approval, Unpaid or Paid. */
export function CommissionStatusBadge({ clientApproved, paid }: { clientApproved: boolean; paid: boolean }) {
  const status = commissionStatus({ clientApproved, paid });
  return <Badge tone={TONE[status]}>{COMMISSION_STATUS_LABELS[status]}</Badge>;
}
