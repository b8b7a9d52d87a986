/**
 * The line-item form of Generate Invoice and Edit Invoice (docs/product.md#invoices). With
 * JavaScript, Add and Remove change the rows in the page; without, they post the form with a
 * conform list intent and the action answers it with the rows changed (server-side conform).
 * The total shown while typing is a preview; the server computes the stored total.
 */
import { useState } from "react";
import { Form } from "react-router";
import { LineItems } from "#app/components/ui/line-items";
import { SubmitButton } from "#app/components/ui/field";
import { useLiveUpdate } from "#app/features/live/components/live-updates";
import { FormMessage, getFormProps, TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import type { FormConstraints, FormResult } from "#app/lib/forms";
import { useHydrated } from "#app/lib/use-hydrated";
import { formatCents, parseMoneyToCents } from "#app/lib/money";
import { MAX_INVOICE_ITEMS } from "../invoices.messages";

/** Form default values: amounts as typed text (e.g. "5000.00"). */
export interface InvoiceFormDefaults {
  items: { description: string; amount: string }[];
  dueDate: string;
}

function previewTotal(amounts: (string | undefined)[]): number | null {
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

interface Row {
  key: number;
  /** The row's starting values (a row keeps them when one above it is removed). */
  initial: { description: string; amount: string };
  /** The amount as typed (for the total preview). */
  amount: string;
}

let rowKeys = 0;

/**
 * Line items (description + amount each, add/remove), due date and a total preview.
 *
 * @param constraint - `formConstraints(invoiceFormSchema)` (or the edit schema) from the loader.
 * @param defaultValue - items with amounts as editable text (`centsToInput`), due date `YYYY-MM-DD`.
 * @param lastResult - the action's reply (field errors; the rows of a list change without JavaScript).
 * @param success - a saved message to show above the form.
 * @param version - edit only: the invoice's version, posted back in a hidden field (docs/product.md#invoices).
 */
export function InvoiceForm({
  id,
  constraint,
  lastResult,
  defaultValue,
  submitLabel,
  pendingLabel,
  success,
  version,
  knownInvoices,
}: {
  id: string;
  constraint: FormConstraints;
  version?: number;
  /** Generate only: how many invoices of the proposal the page shows, posted back (#37). */
  knownInvoices?: number;
  lastResult?: FormResult | null;
  defaultValue: InvoiceFormDefaults;
  submitLabel: string;
  pendingLabel: string;
  success?: string | null;
}) {
  const [form, fields] = useAppForm({ id, constraint, lastResult, defaultValue: { ...defaultValue } });
  // An open edit keeps what the admin typed when another admin saves meanwhile: no live reload
  // here (it would re-key the form with the new version); the stale version is refused on save.
  useLiveUpdate(() => version !== undefined);
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
  const itemErrors = fields.items.errors;
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
      <FormMessage id={form.errorId} errors={form.errors} success={success} />
      {version === undefined ? null : <input type="hidden" name="version" value={version} />}
      {knownInvoices === undefined ? null : <input type="hidden" name="knownInvoices" value={knownInvoices} />}
      <LineItems
        name="items"
        rows={rows}
        rowClass="grid items-start gap-3 sm:grid-cols-[1fr_11rem_auto]"
        fieldsetClass="flex flex-col gap-3 rounded-lg border border-slate-200 p-4"
        emptyRow={{ description: "", amount: "" }}
        max={MAX_INVOICE_ITEMS}
        hydrated={hydrated}
        onAdd={() => setRows((current) => [...current, { key: ++rowKeys, initial: { description: "", amount: "" }, amount: "" }])}
        onRemove={(key) => setRows((current) => current.filter((r) => r.key !== key))}
        errors={itemErrors}
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
              placeholder="e.g. 1,200.00"
              onInput={(event) => {
                const amount = event.currentTarget.value;
                setRows((current) => current.map((r) => (r.key === row.key ? { ...r, amount } : r)));
              }}
            />
          </>
        )}
      />
      <div className="max-w-xs">
        <TextInput field={fields.dueDate} label="Due date" type="date" />
      </div>
      <p className="text-lg">
        Total: <strong data-testid="invoice-total">{total === null ? "—" : formatCents(total)}</strong>
        <span className="block text-sm text-slate-600">The sum of the items, computed again on the server when you save.</span>
      </p>
      <div>
        <SubmitButton pending={pending} pendingLabel={pendingLabel}>
          {submitLabel}
        </SubmitButton>
      </div>
    </Form>
  );
}
