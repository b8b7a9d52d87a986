import { Badge, type BadgeTone } from "#app/components/ui/badge";
import type { InvoiceDisplayStatus } from "../invoice-status";

/** The client's words for an invoice's status (docs/product.md#status-words): Paid, Unpaid, Overdue. */
export const CLIENT_INVOICE_STATUS: Record<InvoiceDisplayStatus, { label: string; tone: BadgeTone }> = {
  paid: { label: "Paid", tone: "green" },
  pending: { label: "Unpaid", tone: "amber" },
  overdue: { label: "Overdue", tone: "red" },
};

/** An invoice's status as the client sees it. */
export function InvoiceStatusBadge({ status }: { status: InvoiceDisplayStatus }) {
  const { label, tone } = CLIENT_INVOICE_STATUS[status];
  return <Badge tone={tone}>{label}</Badge>;
}
