import { LocalDateTime } from "#app/components/local-time";
import { useFormatMoney } from "#app/components/money";
import { DataTable, type Column } from "#app/components/ui/data-table";
import { formatPercent } from "#app/lib/vocabulary";
import type { CommissionEntryState } from "../commission";
import { CommissionStateBadge } from "./commission-status-badge";

/** A ledger line as pages receive it (see `LedgerRow` in ledger-queries.server.ts). */
export interface LedgerLine {
  id: number;
  createdAt: string;
  clientName: string | null;
  projectName: string | null;
  invoiceNumber: string | null;
  paymentId: number | null;
  kind: "payment" | "refund" | "historical";
  baseCents: number;
  rateBps: number;
  amountCents: number;
  payableAt: string;
  state: CommissionEntryState;
  /** #39: the invoice's card payment is disputed (chargeback): the commission is flagged. */
  invoiceDisputed?: boolean;
}

/** What the Payment column says: the payment or refund and its amount. */
function paymentLabel(line: LedgerLine, money: (cents: number) => string): string {
  if (line.kind === "historical") return `Paid before the ledger (on ${money(line.baseCents)})`;
  const what = line.kind === "refund" ? "Refund" : "Payment";
  return `${what}${line.paymentId ? ` #${line.paymentId}` : ""} · ${money(line.baseCents)}`;
}

/**
 * The commission ledger (docs/product.md#commissions-ledger): date, client, invoice, payment,
 * rate, commission and state; stacked into cards on a phone.
 */
export function LedgerTable({ caption, lines, empty }: { caption: string; lines: LedgerLine[]; empty: string }) {
  const money = useFormatMoney();
  const columns: Column<LedgerLine>[] = [
    { header: "Date", cell: (l) => <LocalDateTime value={l.createdAt} style="date" /> },
    {
      header: "Client",
      cell: (l) => (
        <span className="block min-w-32 wrap-anywhere">
          {l.clientName ?? "—"}
          {l.projectName ? <span className="block text-xs text-slate-600">{l.projectName}</span> : null}
        </span>
      ),
    },
    { header: "Invoice", cell: (l) => <span className="whitespace-nowrap">{l.invoiceNumber ?? "—"}</span> },
    { header: "Payment", cell: (l) => paymentLabel(l, money) },
    { header: "Rate", className: "text-right", cell: (l) => formatPercent(l.rateBps) },
    {
      header: "Commission",
      className: "text-right whitespace-nowrap tabular-nums",
      cell: (l) => <span className={l.amountCents < 0 ? "text-red-800" : undefined}>{money(l.amountCents)}</span>,
    },
    {
      header: "State",
      cell: (l) => (
        <span className="flex flex-wrap items-center gap-1">
          <CommissionStateBadge state={l.state} />
          {l.invoiceDisputed ? (
            <span className="rounded bg-red-50 px-1.5 py-0.5 text-xs font-medium text-red-800" data-testid="commission-disputed">
              Disputed
            </span>
          ) : null}
          {l.state === "pending" ? (
            <span className="text-xs text-slate-600">
              payable <LocalDateTime value={l.payableAt} style="date" />
            </span>
          ) : null}
        </span>
      ),
    },
  ];
  return <DataTable caption={caption} columns={columns} rows={lines} rowKey={(l) => l.id} empty={empty} />;
}

/** The three totals of a ledger (cents). */
export function LedgerTotals({
  totals,
  testIdPrefix = "commission",
}: {
  totals: { pendingCents: number; payableCents: number; paidOutCents: number };
  testIdPrefix?: string;
}) {
  const money = useFormatMoney();
  const items: Array<[string, number, string]> = [
    ["Pending", totals.pendingCents, "pending"],
    ["Payable", totals.payableCents, "payable"],
    ["Paid out", totals.paidOutCents, "paid-out"],
  ];
  return (
    <dl className="grid gap-3 sm:grid-cols-3">
      {items.map(([label, cents, id]) => (
        <div key={label} className="rounded-xl border border-slate-200 p-4 shadow-sm">
          <dt className="text-sm text-slate-600">{label}</dt>
          <dd className="mt-1 text-2xl font-bold tabular-nums" data-testid={`${testIdPrefix}-${id}`}>
            {money(cents)}
          </dd>
        </div>
      ))}
    </dl>
  );
}
