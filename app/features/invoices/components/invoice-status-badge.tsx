import { Badge, type BadgeTone } from "#app/components/ui/badge";
import { INVOICE_STATUS_LABELS } from "#app/lib/vocabulary";
import type { InvoiceDisplayStatus } from "../invoice-status";

const TONE: Record<InvoiceDisplayStatus, BadgeTone> = {
  paid: "green",
  pending: "amber",
  partial: "amber",
  overdue: "red",
  "partial-overdue": "red",
  refunded: "gray",
};

/** An invoice's shown status (docs/product.md#status-words): Unpaid, Partially paid, Overdue, Partially paid · Overdue, Paid or Refunded, on every screen. */
export function InvoiceStatusBadge({ status }: { status: InvoiceDisplayStatus }) {
  return <Badge tone={TONE[status]}>{INVOICE_STATUS_LABELS[status]}</Badge>;
}
