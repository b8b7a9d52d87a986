/**
 * The billing plan form (issue #39, docs/product.md#recurring-billing): on /admin/billing-plans/new
 * everything; on a plan's page only what may change from the next invoice (name, items, days to
 * pay, automatic payment, the end). Line items add and remove in place with JavaScript, by
 * posting a conform list intent without it (like the invoice form).
 */
import { useState } from "react";
import { Form } from "react-router";
import { LineItems } from "#app/components/ui/line-items";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, getFormProps, getInputProps, SelectInput, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import type { FormConstraints, FormResult } from "#app/lib/forms";
import { useHydrated } from "#app/lib/use-hydrated";
import { formatCents, parseMoneyToCents } from "#app/lib/money";
import { FREQUENCY_LABELS, MAX_PLAN_ITEMS } from "../billing.messages";
import { BILLING_FREQUENCIES } from "../plan-dates";

/** The form's starting values (amounts as typed text). */
export interface PlanFormDefaults {
  name: string;
  items: { description: string; amount: string }[];
  dueDays: string;
  autopay: boolean;
  endDate: string;
  maxCycles: string;
  organisationId?: string;
  frequency?: string;
  startDate?: string;
  dayOfMonth?: string;
}

interface Row {
  key: number;
  initial: { description: string; amount: string };
  amount: string;
}
let rowKeys = 0;

function previewTotal(amounts: string[]): number | null {
  let total = 0;
  for (const amount of amounts) {
    try {
      total += parseMoneyToCents(amount) ?? 0;
    } catch {
      return null;
    }
  }
  return total;
}

/**
 * @param mode - `create` shows the organisation, frequency, start date and day of the month.
 * @param organisations - the organisations to choose from (create).
 * @param currency - the agency's currency (the total preview).
 */
export function PlanForm({
  id,
  mode,
  constraint,
  lastResult,
  defaultValue,
  organisations = [],
  currency,
  intent,
}: {
  id: string;
  mode: "create" | "change";
  constraint: FormConstraints;
  lastResult?: FormResult | null;
  defaultValue: PlanFormDefaults;
  organisations?: { id: number; name: string }[];
  currency: string;
  intent?: string;
}) {
  const [form, fields] = useAppForm({
    id,
    constraint,
    lastResult,
    defaultValue: { ...defaultValue },
  });
  const pending = useIsSubmitting();
  const hydrated = useHydrated();
  const posted = lastResult?.initialValue?.items;
  const [rows, setRows] = useState<Row[]>(() =>
    (Array.isArray(posted) ? (posted as { description?: string; amount?: string }[]) : defaultValue.items).map((item) => {
      const initial = { description: String(item?.description ?? ""), amount: String(item?.amount ?? "") };
      return { key: ++rowKeys, initial, amount: initial.amount };
    }),
  );
  const total = previewTotal(rows.map((row) => row.amount));
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
      <FormMessage id={form.errorId} errors={form.errors} />
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      <div className="grid gap-4 sm:grid-cols-2">
        {mode === "create" ? (
          <SelectInput
            field={fields.organisationId}
            label="Client organisation"
            placeholder="Choose…"
            options={organisations.map((o) => ({ value: String(o.id), label: o.name }))}
          />
        ) : null}
        <TextInput field={fields.name} label="Plan name" placeholder="e.g. Hosting and maintenance" />
      </div>
      <LineItems
        name="items"
        rows={rows}
        rowClass="grid items-start gap-3 sm:grid-cols-[1fr_11rem_auto]"
        fieldsetClass="flex flex-col gap-3 rounded-lg border border-slate-200 p-4"
        emptyRow={{ description: "", amount: "" }}
        max={MAX_PLAN_ITEMS}
        hydrated={hydrated}
        onAdd={() => setRows((current) => [...current, { key: ++rowKeys, initial: { description: "", amount: "" }, amount: "" }])}
        onRemove={(key) => setRows((current) => current.filter((r) => r.key !== key))}
        errors={fields.items.errors}
        errorId={fields.items.errorId}
        renderRow={(row, index) => (
          <>
            <TextInput
              field={fields[`items[${index}].description`]}
              label={`Item ${index + 1} description`}
              defaultValue={row.initial.description}
            />
            <TextInput
              field={fields[`items[${index}].amount`]}
              label={`Item ${index + 1} amount`}
              defaultValue={row.initial.amount}
              inputMode="decimal"
              placeholder="e.g. 200.00"
              onInput={(event) => {
                const amount = event.currentTarget.value;
                setRows((current) => current.map((r) => (r.key === row.key ? { ...r, amount } : r)));
              }}
            />
          </>
        )}
      />
      <p>
        Each invoice: <strong data-testid="plan-total">{total === null ? "—" : formatCents(total, currency)}</strong>
      </p>
      {mode === "create" ? (
        <fieldset className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-3">
          <legend className="px-1 font-semibold">Schedule</legend>
          <SelectInput
            field={fields.frequency}
            label="How often"
            options={BILLING_FREQUENCIES.map((f) => ({ value: f, label: FREQUENCY_LABELS[f] }))}
          />
          <TextInput field={fields.startDate} label="Start date" type="date" />
          <TextInput
            field={fields.dayOfMonth}
            label="Day of the month (optional)"
            inputMode="numeric"
            hint="1–31; a shorter month bills on its last day. Empty: the start date's day."
          />
        </fieldset>
      ) : null}
      <fieldset className="grid gap-4 rounded-lg border border-slate-200 p-4 sm:grid-cols-3">
        <legend className="px-1 font-semibold">{mode === "create" ? "End and payment terms" : "From the next invoice"}</legend>
        <TextInput field={fields.endDate} label="End date (optional)" type="date" />
        <TextInput
          field={fields.maxCycles}
          label="Number of invoices (optional)"
          inputMode="numeric"
          hint="Or an end date; empty: until cancelled."
        />
        <TextInput
          field={fields.dueDays}
          label="Days to pay"
          inputMode="numeric"
          hint="Each invoice is due this many days after it is issued."
        />
        <div className="flex items-start gap-3">
          <input {...getInputProps(fields.autopay, { type: "checkbox" })} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" />
          <div>
            <label htmlFor={fields.autopay.id} className="font-medium text-slate-800">
              Charge the saved card automatically
            </label>
            <p className="text-sm text-slate-600">
              Each invoice is charged to the organisation&apos;s saved card when it is issued. Without a saved card, or when the card fails,
              it is mailed with a pay link and retried on the dunning days (Settings).
            </p>
          </div>
        </div>
      </fieldset>
      <div>
        <SubmitButton pending={pending} pendingLabel="Saving…">
          {mode === "create" ? "Create plan" : "Save changes"}
        </SubmitButton>
      </div>
    </Form>
  );
}
