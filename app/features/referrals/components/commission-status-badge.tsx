import { Badge, type BadgeTone } from "#app/components/ui/badge";
import { COMMISSION_STATE_LABELS, type CommissionEntryState } from "../commission";

const TONE: Record<CommissionEntryState, BadgeTone> = { pending: "amber", payable: "blue", paid_out: "green" };

/** A commission entry's state (docs/product.md#commissions-ledger): Pending, Payable or Paid out. */
export function CommissionStateBadge({ state }: { state: CommissionEntryState }) {
  return <Badge tone={TONE[state]}>{COMMISSION_STATE_LABELS[state]}</Badge>;
}
