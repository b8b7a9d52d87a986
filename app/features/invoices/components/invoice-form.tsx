/**
 * The line-item form of Generate Invoice and Edit Invoice (docs/product.md#invoices). Add and Remove
 * are conform list intents: client-side with JavaScript, a round trip to the action without.
 * The total shown while typing is a preview; the server computes the stored total.
 */
import { getFormProps, useForm, type SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { Form, useNavigation } from "react-router";
import type { z } from "zod";
import { buttonClass } from "#app/components/ui/button";
import { SubmitButton } from "#app/components/ui/field";
import { FormMessage, TextInput, useIsSubmitting } from "#app/components/ui/form";
import { formatCents, parseMoneyToCents } from "#app/lib/money";
import { invoiceFormSchema, MAX_INVOICE_ITEMS } from "../invoices.schema";

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

/**
 * Line items (description + amount each, add/remove), due date and a total preview.
 *
 * @param defaultValue - items with amounts as editable text (`centsToInput`), due date `YYYY-MM-DD`.
 * @param lastResult - the action's conform reply (field errors, list intents without JS).
 * @param success - a saved message to show above the form.
 * @param version - edit only: the invoice's version, posted back in a hidden field (docs/product.md#invoices).
 */
export function InvoiceForm({
  id,
  lastResult,
  defaultValue,
  submitLabel,
  pendingLabel,
  success,
  version,
}: {
  id: string;
  version?: number;
  lastResult?: SubmissionResult<string[]> | null;
  defaultValue: InvoiceFormDefaults;
  submitLabel: string;
  pendingLabel: string;
  success?: string | null;
}) {
  const navigation = useNavigation();
  // useForm typed with the schema's input, so the item list is typed (same options as useAppForm).
  const [form, fields] = useForm<z.input<typeof invoiceFormSchema>, z.output<typeof invoiceFormSchema>>({
    id,
    lastResult: navigation.state === "idle" ? lastResult : undefined,
    defaultValue,
    onValidate: ({ formData }) => parseWithZod(formData, { schema: invoiceFormSchema }),
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const pending = useIsSubmitting();
  const items = fields.items.getFieldList();
  const total = previewTotal(items.map((item) => item.getFieldset().amount.value as string | undefined));
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
      <FormMessage id={form.errorId} errors={form.errors} success={success} />
      {version === undefined ? null : <input type="hidden" name="version" value={version} />}
      <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
        <legend className="px-1 font-semibold">Line items</legend>
        {items.map((item, index) => {
          const f = item.getFieldset();
          return (
            <div key={item.key} className="grid items-start gap-3 sm:grid-cols-[1fr_11rem_auto]">
              <TextInput field={f.description} label={`Item ${index + 1} description`} maxLength={200} />
              <TextInput field={f.amount} label={`Item ${index + 1} amount`} inputMode="decimal" placeholder="e.g. 1,200.00" />
              <div className="sm:pt-6">
                <button
                  {...form.remove.getButtonProps({ name: fields.items.name, index })}
                  className={buttonClass("danger")}
                  aria-label={`Remove item ${index + 1}`}
                  disabled={items.length <= 1}
                >
                  Remove
                </button>
              </div>
            </div>
          );
        })}
        {fields.items.errors?.length ? (
          <p id={fields.items.errorId} className="text-sm text-red-700">
            {fields.items.errors.join(" ")}
          </p>
        ) : null}
        <div>
          <button
            {...form.insert.getButtonProps({ name: fields.items.name, defaultValue: { description: "", amount: "" } })}
            className={buttonClass("secondary")}
            disabled={items.length >= MAX_INVOICE_ITEMS}
          >
            + Add item
          </button>
        </div>
      </fieldset>
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
