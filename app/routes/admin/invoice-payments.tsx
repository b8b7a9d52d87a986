import { Form, Link } from "react-router";
import type { Route } from "./+types/invoice-payments";
import { PageHeading } from "#app/components/page-heading";
import { Badge } from "#app/components/ui/badge";
import { Notice } from "#app/components/ui/notice";
import { DataTable } from "#app/components/ui/data-table";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, SelectInput, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { useFormatMoney } from "#app/components/money";
import { InvoiceStatusBadge } from "#app/features/invoices/components/invoice-status-badge";
import { getInvoiceForAdmin } from "#app/features/invoices/invoices.admin.server";
import { INVOICE_MESSAGES } from "#app/features/invoices/invoices.messages";
import { getInvoiceMoney } from "#app/features/payments/balance.server";
import { setInvoiceDeposit } from "#app/features/payments/deposit.server";
import { PAYMENT_METHOD_LABELS, PAYMENT_METHODS } from "#app/features/payments/payments.messages";
import { depositFormSchema, paymentFormSchema, receivedAtOf, refundFormSchema } from "#app/features/payments/payments.schema";
import { listPaymentsForAdmin, recordPayment, recordRefund } from "#app/features/payments/record-payment.server";
import { businessDay, getSettings } from "#app/features/settings/settings.server";
import { autopayNotice } from "#app/features/billing/autopay.server";
import { actorAndDb } from "#app/features/users/session.server";
import { formatCalendarDate } from "#app/lib/dates";
import { conformIntent, runIntent, type FormReply } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { paramId } from "#app/lib/ids";
import { centsToInput, currencyOf, formatCents } from "#app/lib/money";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Payments of ${data?.invoice.number ?? "invoice"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** One invoice's money and payments (docs/product.md#payments). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const invoiceId = paramId(params.invoiceId, INVOICE_MESSAGES.notFound);
  const invoice = await getInvoiceForAdmin(db, actor, invoiceId);
  const [money, rows, settings, business, autopay] = await Promise.all([
    getInvoiceMoney(db, invoiceId),
    listPaymentsForAdmin(db, actor, invoiceId),
    getSettings(db),
    businessDay(db),
    autopayNotice(db, invoiceId),
  ]);
  return {
    invoice: {
      id: invoice.id,
      number: invoice.number,
      projectName: invoice.projectName,
      clientName: invoice.clientName,
      dueDate: invoice.dueDate,
    },
    money: { ...money, disputedAt: money.disputedAt?.toISOString() ?? null },
    payments: rows.map((p) => ({ ...p, receivedAt: p.receivedAt.toISOString() })),
    currency: currencyOf(settings),
    autopay,
    today: business.today,
    forms: {
      payment: formConstraints(paymentFormSchema),
      refund: formConstraints(refundFormSchema),
      deposit: formConstraints(depositFormSchema),
    },
  };
}

/** `record-payment`, `record-refund`, `set-deposit`: each answers with the new balance. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const invoiceId = paramId(args.params.invoiceId, INVOICE_MESSAGES.notFound);
  const currency = currencyOf(await getSettings(db));
  const money = (cents: number) => formatCents(cents, currency);
  return runIntent(args, {
    "record-payment": conformIntent(paymentFormSchema, async (value) => {
      const { payment, money: after } = await recordPayment(db, actor, invoiceId, {
        amountCents: value.amount,
        currency: value.currency ?? currency,
        method: value.method,
        receivedAt: receivedAtOf(value.receivedOn, await businessDay(db)),
        reference: value.reference,
      });
      return `Payment of ${money(payment.amountCents)} recorded. New balance: ${money(after.balanceCents)}.`;
    }),
    "record-refund": conformIntent(refundFormSchema, async (value) => {
      const { payment, money: after } = await recordRefund(db, actor, invoiceId, {
        paymentId: value.paymentId,
        amountCents: value.amount,
        currency: value.currency ?? currency,
        receivedAt: receivedAtOf(value.receivedOn, await businessDay(db)),
        reference: value.reference,
      });
      return `Refund of ${money(-payment.amountCents)} recorded. New balance: ${money(after.balanceCents)}.`;
    }),
    "set-deposit": conformIntent(depositFormSchema, async (value) => {
      const cents = await setInvoiceDeposit(db, actor, invoiceId, value);
      return cents === null ? "No deposit is asked." : `Deposit set to ${money(cents)}.`;
    }),
  });
}

/** /admin/invoices/:invoiceId/payments: money summary, payments and refunds, and the forms that record them. */
export default function InvoicePayments({ loaderData, actionData }: Route.ComponentProps) {
  const money = useFormatMoney();
  const { invoice, money: m, payments } = loaderData;
  const reply = actionData as FormReply | undefined;
  const refundable = payments.filter((p) => p.refundableCents > 0);
  return (
    <>
      <PageHeading title={`Payments of ${invoice.number}`} lead={invoice.projectName || invoice.clientName || undefined}>
        <Link to={`/admin/invoices/edit/${invoice.id}`} className="text-brand-700 underline">
          ← Back to the invoice
        </Link>
      </PageHeading>
      {reply?.ok ? (
        // Outside the forms: "Record payment" leaves the page once nothing is due.
        <Notice tone="success" className="mb-4">
          {reply.message}
        </Notice>
      ) : null}
      {loaderData.autopay ? (
        <div data-testid="autopay-notice" className="mb-4">
          <Notice tone="info">{loaderData.autopay}</Notice>
        </div>
      ) : null}
      <dl className="mb-6 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 rounded-lg border border-slate-200 p-4 text-sm">
        <dt className="font-medium text-slate-600">Status</dt>
        <dd className="flex flex-wrap gap-2">
          <InvoiceStatusBadge status={m.status} />
          {m.disputedAt ? <Badge tone="red">Disputed</Badge> : null}
        </dd>
        <dt className="font-medium text-slate-600">Total</dt>
        <dd>{money(m.totalCents)}</dd>
        {m.depositCents ? (
          <>
            <dt className="font-medium text-slate-600">Deposit</dt>
            <dd>
              {money(m.depositCents)}
              {m.depositDue ? " (not yet paid)" : " (paid)"}
            </dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-600">Paid</dt>
        <dd>{money(m.paidCents)}</dd>
        {m.refundedCents ? (
          <>
            <dt className="font-medium text-slate-600">Refunded</dt>
            <dd>{money(m.refundedCents)}</dd>
          </>
        ) : null}
        <dt className="font-medium text-slate-600">Balance due</dt>
        <dd className="font-semibold">{money(m.balanceCents)}</dd>
        <dt className="font-medium text-slate-600">Due date</dt>
        <dd>{formatCalendarDate(invoice.dueDate)}</dd>
      </dl>

      <DataTable
        caption={`Payments and refunds of ${invoice.number}`}
        columns={[
          { header: "Date", cell: (p) => formatCalendarDate(p.receivedAt.slice(0, 10)) },
          { header: "Kind", cell: (p) => (p.amountCents < 0 ? `Refund of payment #${p.refundOf}` : `Payment #${p.id}`) },
          { header: "Method", cell: (p) => PAYMENT_METHOD_LABELS[p.method] },
          { header: "Amount", className: "sm:text-right whitespace-nowrap", cell: (p) => money(p.amountCents) },
          { header: "Reference", cell: (p) => <span className="wrap-text">{p.reference ?? p.processorPaymentIntent ?? "—"}</span> },
        ]}
        rows={payments}
        rowKey={(p) => p.id}
        empty="No payments yet."
      />

      <div className="mt-8 grid gap-8 lg:grid-cols-2">
        {m.balanceCents > 0 ? (
          <PaymentForm
            constraint={loaderData.forms.payment}
            reply={reply?.intent === "record-payment" ? reply : undefined}
            balance={m.balanceCents}
            today={loaderData.today}
            key={`pay-${m.balanceCents}`}
          />
        ) : (
          <p className="text-slate-700">Nothing is due on this invoice.</p>
        )}
        {refundable.length ? (
          <RefundForm
            constraint={loaderData.forms.refund}
            reply={reply?.intent === "record-refund" ? reply : undefined}
            payments={refundable.map((p) => ({
              value: String(p.id),
              label: `Payment #${p.id} · ${PAYMENT_METHOD_LABELS[p.method]} · ${money(p.amountCents)} (refundable ${money(p.refundableCents)})`,
            }))}
            today={loaderData.today}
            key={`refund-${m.refundedCents}`}
          />
        ) : null}
        <DepositForm
          constraint={loaderData.forms.deposit}
          reply={reply?.intent === "set-deposit" ? reply : undefined}
          depositCents={m.depositCents}
        />
      </div>
    </>
  );
}

type Constraint = Parameters<typeof useAppForm>[0]["constraint"];

function PaymentForm({ constraint, reply, balance, today }: { constraint: Constraint; reply?: FormReply; balance: number; today: string }) {
  const money = useFormatMoney();
  const [form, fields] = useAppForm({
    id: "record-payment",
    constraint,
    lastResult: reply?.result,
    defaultValue: { amount: centsToInput(balance), method: "bank_transfer", receivedOn: today },
  });
  const pending = useIsSubmitting();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-lg border border-slate-200 p-4">
      <h2 className="text-lg font-semibold">Record payment</h2>
      <input type="hidden" name="intent" value="record-payment" />
      <FormMessage id={form.errorId} errors={form.errors} success={null} />
      <TextInput
        field={fields.amount}
        label="Amount"
        inputMode="decimal"
        hint={`Balance due: ${money(balance)}. The whole balance by default.`}
      />
      <SelectInput
        field={fields.method}
        label="Method"
        options={PAYMENT_METHODS.map((v) => ({ value: v, label: PAYMENT_METHOD_LABELS[v] }))}
      />
      <TextInput field={fields.receivedOn} label="Date received" type="date" max={today} />
      <TextInput field={fields.reference} label="Reference (optional)" hint="E.g. the bank transfer's reference." />
      <SubmitButton pending={pending} pendingLabel="Recording…">
        Record payment
      </SubmitButton>
    </Form>
  );
}

function RefundForm({
  constraint,
  reply,
  payments,
  today,
}: {
  constraint: Constraint;
  reply?: FormReply;
  payments: { value: string; label: string }[];
  today: string;
}) {
  const [form, fields] = useAppForm({
    id: "record-refund",
    constraint,
    lastResult: reply?.result,
    defaultValue: { paymentId: payments[payments.length - 1]?.value, receivedOn: today },
  });
  const pending = useIsSubmitting();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-lg border border-slate-200 p-4">
      <h2 className="text-lg font-semibold">Record refund</h2>
      <input type="hidden" name="intent" value="record-refund" />
      <FormMessage id={form.errorId} errors={form.errors} success={null} />
      <SelectInput field={fields.paymentId} label="Payment refunded" options={payments} />
      <TextInput
        field={fields.amount}
        label="Refund amount"
        inputMode="decimal"
        hint="At most what is left of that payment. A refund does not make the client owe it again."
      />
      <TextInput field={fields.receivedOn} label="Date refunded" type="date" max={today} />
      <TextInput field={fields.reference} label="Reference (optional)" />
      <SubmitButton pending={pending} pendingLabel="Recording…">
        Record refund
      </SubmitButton>
    </Form>
  );
}

function DepositForm({ constraint, reply, depositCents }: { constraint: Constraint; reply?: FormReply; depositCents: number }) {
  const [form, fields] = useAppForm({
    id: "set-deposit",
    constraint,
    lastResult: reply?.result,
    defaultValue: { kind: depositCents ? "amount" : "percent", value: depositCents ? centsToInput(depositCents) : "" },
  });
  const pending = useIsSubmitting();
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4 rounded-lg border border-slate-200 p-4">
      <h2 className="text-lg font-semibold">Deposit</h2>
      <input type="hidden" name="intent" value="set-deposit" />
      <FormMessage id={form.errorId} errors={form.errors} success={null} />
      <SelectInput
        field={fields.kind}
        label="Deposit asked"
        options={[
          { value: "percent", label: "A percentage of the total" },
          { value: "amount", label: "An amount" },
          { value: "none", label: "No deposit" },
        ]}
      />
      <TextInput
        field={fields.value}
        label="Deposit (percent or amount)"
        inputMode="decimal"
        hint="E.g. 30 for 30 %, or 500.00 for an amount."
      />
      <SubmitButton pending={pending} pendingLabel="Saving…">
        Save deposit
      </SubmitButton>
    </Form>
  );
}
