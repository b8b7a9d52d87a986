/**
 * The agency's offer form on `/admin/proposals/:id` (docs/product.md#offers): project name, scope,
 * line items (description, quantity, unit price; Add / Remove work without JavaScript through
 * conform list intents answered by the server), estimated timeline, deposit, validity date; "Save
 * draft" (the client sees nothing) and "Send to client" (makes a version). The total shown while
 * typing is a preview: the server computes the stored one.
 */
import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import { LineItems } from "#app/components/ui/line-items";
import { FormMessage, getFormProps, SelectInput, TextArea, TextInput, useAppForm } from "#app/components/ui/form";
import type { FormConstraints, FormResult } from "#app/lib/forms";
import { useHydrated } from "#app/lib/use-hydrated";
import { formatCents, parseMoneyToCents } from "#app/lib/money";
import { MAX_OFFER_ITEMS } from "../agreements.messages";
import type { OfferFormDefaults } from "../offers.server";

type ItemText = OfferFormDefaults["items"][number];

interface Row {
  key: number;
  initial: ItemText;
  quantity: string;
  unitPrice: string;
}

let rowKeys = 0;

function previewTotal(rows: Row[]): number | null {
  let total = 0;
  for (const row of rows) {
    const quantity = /^\d{1,5}$/.test(row.quantity.trim()) ? Number(row.quantity.trim()) : NaN;
    try {
      const unit = parseMoneyToCents(row.unitPrice) ?? 0;
      if (!Number.isFinite(quantity)) return null;
      total += quantity * unit;
    } catch {
      return null;
    }
  }
  return total;
}

/**
 * @param constraint - `formConstraints(offerFormSchema)` from the loader.
 * @param defaultValue - the draft, else the current version, else the request.
 * @param lastResult - the offer form's last reply (field errors; rows changed without JavaScript).
 * @param currency - Settings' currency, for the total preview.
 * @param nextVersion - the number the next sent version gets (for the Send button).
 */
export function OfferForm({
  constraint,
  defaultValue,
  lastResult,
  success,
  currency,
  nextVersion,
}: {
  constraint: FormConstraints;
  defaultValue: OfferFormDefaults;
  lastResult?: FormResult | null;
  success?: string | null;
  currency: string;
  nextVersion: number;
}) {
  const [form, fields] = useAppForm({ id: "offer", constraint, lastResult, defaultValue: { ...defaultValue } });
  const navigation = useNavigation();
  const submittingIntent = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const hydrated = useHydrated();
  const posted = lastResult?.initialValue?.items;
  const [rows, setRows] = useState<Row[]>(() =>
    (Array.isArray(posted) ? (posted as Partial<ItemText>[]) : defaultValue.items).map((item) => {
      const initial = {
        description: String(item?.description ?? ""),
        quantity: String(item?.quantity ?? "1"),
        unitPrice: String(item?.unitPrice ?? ""),
      };
      return { key: ++rowKeys, initial, quantity: initial.quantity, unitPrice: initial.unitPrice };
    }),
  );
  const total = previewTotal(rows);
  const update = (key: number, patch: Partial<Row>) => setRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-5">
      <input type="hidden" name="form" value="offer" />
      <FormMessage id={form.errorId} errors={form.errors} success={success} />
      <TextInput field={fields.projectName} label="Project name" />
      <TextArea field={fields.scope} label="Scope of the work" rows={8} hint="What the agency will do, in full. Up to 20,000 characters." />
      <LineItems
        name="items"
        rows={rows}
        rowClass="grid min-w-0 items-start gap-3 border-b border-slate-100 pb-3 sm:grid-cols-[1fr_6rem_9rem_auto]"
        fieldsetClass="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 p-3 sm:p-4"
        emptyRow={{ description: "", quantity: "1", unitPrice: "" }}
        max={MAX_OFFER_ITEMS}
        hydrated={hydrated}
        onAdd={() =>
          setRows((current) => [
            ...current,
            { key: ++rowKeys, initial: { description: "", quantity: "1", unitPrice: "" }, quantity: "1", unitPrice: "" },
          ])
        }
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
              field={fields[`items[${index}].quantity`]}
              label={`Item ${index + 1} quantity`}
              defaultValue={row.initial.quantity}
              inputMode="numeric"
              onInput={(event) => update(row.key, { quantity: event.currentTarget.value })}
            />
            <TextInput
              field={fields[`items[${index}].unitPrice`]}
              label={`Item ${index + 1} unit price`}
              defaultValue={row.initial.unitPrice}
              inputMode="decimal"
              placeholder="e.g. 1,200.00"
              onInput={(event) => update(row.key, { unitPrice: event.currentTarget.value })}
            />
          </>
        )}
      >
        <p>
          Total: <strong data-testid="offer-total">{total === null ? "—" : formatCents(total, currency)}</strong>
          <span className="block text-sm text-slate-600">Quantity × unit price, summed; computed again on the server.</span>
        </p>
      </LineItems>
      <TextInput field={fields.timeline} label="Estimated timeline" placeholder="e.g. 6 weeks" />
      <div className="grid gap-3 sm:grid-cols-2">
        <SelectInput
          field={fields.depositKind}
          label="Deposit"
          options={[
            { value: "none", label: "No deposit" },
            { value: "amount", label: "An amount" },
            { value: "percent", label: "A percentage of the total" },
          ]}
        />
        <TextInput field={fields.depositValue} label="Deposit amount or percentage" hint="e.g. 500.00, or 30 for 30 %." />
      </div>
      <div className="max-w-xs">
        <TextInput field={fields.validUntil} label="Offer valid until" type="date" />
      </div>
      <div className="flex flex-wrap gap-2">
        <button
          type="submit"
          name="intent"
          value="save-offer"
          className={buttonClass("secondary")}
          disabled={submittingIntent === "save-offer"}
        >
          {submittingIntent === "save-offer" ? "Saving…" : "Save draft"}
        </button>
        <button
          type="submit"
          name="intent"
          value="send-offer"
          className={buttonClass("primary")}
          disabled={submittingIntent === "send-offer"}
        >
          {submittingIntent === "send-offer" ? "Sending…" : `Send to client (version ${nextVersion})`}
        </button>
      </div>
    </Form>
  );
}
