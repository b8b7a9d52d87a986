import { Form, Link } from "react-router";
import type { Route } from "./+types/card-payments";
import { PageHeading } from "#app/components/page-heading";
import { LocalTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { buttonClass } from "#app/components/ui/button";
import { usePendingIntent } from "#app/components/ui/confirm";
import { DataTable, useActionHref, type Column } from "#app/components/ui/data-table";
import { ActionNotice } from "#app/components/ui/notice";
import { listUnappliedPayments, resolveUnappliedPayment } from "#app/features/payments/unapplied.server";
import { UNAPPLIED_REASON_LABELS } from "#app/features/payments/unapplied-labels";
import { actorAndDb } from "#app/features/users/session.server";
import { formId, formText, runIntent } from "#app/lib/form-action.server";
import { formatCents } from "#app/lib/money";

export const meta: Route.MetaFunction = () => [
  { title: "Card payments to review | Admin Console" },
  { name: "robots", content: "noindex" },
];

/** Card payments kept aside, open first (docs/product.md#card-payments, issue #36). */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const rows = await listUnappliedPayments(db, actor);
  return {
    rows: rows.map((r) => ({ ...r, receivedAt: r.receivedAt.toISOString(), resolvedAt: r.resolvedAt?.toISOString() ?? null })),
  };
}

/** `resolve`: marks one resolved with what was done (audited). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    resolve: async (form) => {
      await resolveUnappliedPayment(db, actor, formId(form), formText(form, "resolution"));
      return "Marked resolved.";
    },
  });
}

type Row = Route.ComponentProps["loaderData"]["rows"][number];

/** /admin/card-payments: what Stripe reported paid that is not on an invoice's balance. */
export default function AdminCardPayments({ loaderData, actionData }: Route.ComponentProps) {
  const columns: Column<Row>[] = [
    {
      header: "Payment",
      cell: (r) => (
        <div className="min-w-48">
          <p className="font-medium whitespace-nowrap">{formatCents(r.amountCents, r.currency)}</p>
          {r.refundedCents ? <p className="text-xs text-slate-600">{formatCents(r.refundedCents, r.currency)} refunded</p> : null}
          <p className="font-mono text-xs break-all text-slate-600">{r.processorPaymentIntent}</p>
        </div>
      ),
    },
    { header: "Why it was kept aside", cell: (r) => UNAPPLIED_REASON_LABELS[r.reason] },
    {
      header: "Invoice",
      cell: (r) =>
        r.invoiceId ? (
          <Link className="text-brand-700 underline" to={`/admin/invoices/${r.invoiceId}/payments`}>
            {r.invoiceNumber}
          </Link>
        ) : (
          "—"
        ),
    },
    {
      header: "Paid",
      cell: (r) => (
        <span className="whitespace-nowrap">
          <LocalTime value={r.receivedAt} />
        </span>
      ),
    },
    {
      header: "Status",
      cell: (r) =>
        r.resolvedAt ? (
          <div className="min-w-40">
            <Badge tone="green">Resolved</Badge>
            <p className="mt-1 text-sm break-words">{r.resolution}</p>
          </div>
        ) : (
          <ResolveForm row={r} />
        ),
    },
  ];
  return (
    <>
      <PageHeading
        title="Card payments to review"
        lead="Card payments Stripe reported that are not applied to an invoice's balance: paid in another currency, paid when nothing was due, or paid above the balance. Refund them in Stripe or record them by hand, then mark them resolved."
      />
      <ActionNotice result={actionData} className="mb-4" />
      <DataTable
        caption="Card payments kept aside, open ones first"
        columns={columns}
        rows={loaderData.rows}
        rowKey={(r) => r.id}
        empty="Nothing to review: every card payment is on its invoice."
      />
    </>
  );
}

function ResolveForm({ row }: { row: Row }) {
  const pending = usePendingIntent("resolve", row.id);
  const actionHref = useActionHref();
  const inputId = `resolution-${row.id}`;
  return (
    <Form method="post" action={actionHref} preventScrollReset className="flex min-w-56 flex-col gap-2">
      <input type="hidden" name="intent" value="resolve" />
      <input type="hidden" name="id" value={row.id} />
      <label htmlFor={inputId} className="text-sm font-medium">
        What was done
      </label>
      <input
        id={inputId}
        name="resolution"
        required
        maxLength={500}
        placeholder="Refunded in Stripe"
        className="rounded-md border border-slate-400 px-2 py-1"
      />
      <button type="submit" className={buttonClass("secondary")} disabled={pending}>
        {pending ? "Saving…" : "Mark resolved"}
      </button>
    </Form>
  );
}
