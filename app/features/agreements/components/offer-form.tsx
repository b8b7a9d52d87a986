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
import type { OfferFormDefaults, ScheduleRowText } from "../offers.server";
import { parsePercentBps } from "../offer.schema";
import { depositCents } from "../terms";
import { computeSchedule, ScheduleError, type ScheduleLineTerms } from "../schedule";

type ItemText = OfferFormDefaults["items"][number];

interface Row {
  key: number;
  initial: ItemText;
  quantity: string;
  unitPrice: string;
}

let rowKeys = 0;

interface ScheduleRow {
  key: number;
  initial: ScheduleRowText;
  shareKind: string;
  shareValue: string;
  dueKind: string;
}

const EMPTY_SCHEDULE_ROW: ScheduleRowText = {
  label: "",
  shareKind: "percent",
  shareValue: "",
  dueKind: "milestone",
  dueDate: "",
  dueDays: "",
};

const DUE_OPTIONS = [
  { value: "milestone", label: "When I mark it reached" },
  { value: "date", label: "On a date" },
  { value: "days_after_signing", label: "A number of days after signing" },
] as const;

/** The schedule's amounts while typing (a preview: the server checks and computes the stored ones). */
function previewSchedule(
  total: number | null,
  depositKind: string,
  depositValue: string,
  rows: ScheduleRow[],
  currency: string,
): { amounts: number[]; problem: string | null } | null {
  if (total === null || rows.length === 0) return null;
  let deposit: number | null = null;
  try {
    if (depositKind === "amount") deposit = parseMoneyToCents(depositValue) ?? null;
    if (depositKind === "percent" && /^\d{1,3}$/.test(depositValue.trim()))
      deposit = depositCents({ kind: "percent", value: Number(depositValue.trim()) }, total);
    const lines: ScheduleLineTerms[] = rows.map((row) => {
      const bps = parsePercentBps(row.shareValue);
      const cents = row.shareKind === "amount" ? parseMoneyToCents(row.shareValue) : null;
      if (row.shareKind === "percent" ? Number.isNaN(bps) : !cents) throw new ScheduleError("");
      return {
        label: "",
        share: row.shareKind === "percent" ? { kind: "percent", value: bps } : { kind: "amount", value: cents! },
        due: { kind: "milestone" },
      };
    });
    const computed = computeSchedule(
      total,
      deposit,
      [...lines, { label: "", share: { kind: "rest" }, due: { kind: "milestone" } }],
      new Map(),
      (c) => formatCents(c, currency),
    );
    return { amounts: computed.slice(deposit !== null ? 1 : 0).map((line) => line.amountCents), problem: null };
  } catch (error) {
    return error instanceof ScheduleError && error.message ? { amounts: [], problem: error.message } : null;
  }
}

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
  const postedSchedule = lastResult?.initialValue?.schedule;
  const [scheduleRows, setScheduleRows] = useState<ScheduleRow[]>(() =>
    (Array.isArray(postedSchedule) ? (postedSchedule as Partial<ScheduleRowText>[]) : defaultValue.schedule).map((row) => {
      const initial = { ...EMPTY_SCHEDULE_ROW, ...Object.fromEntries(Object.entries(row ?? {}).map(([k, v]) => [k, String(v ?? "")])) };
      return { key: ++rowKeys, initial, shareKind: initial.shareKind, shareValue: initial.shareValue, dueKind: initial.dueKind };
    }),
  );
  const [deposit, setDeposit] = useState({ kind: defaultValue.depositKind as string, value: defaultValue.depositValue });
  const [finalDueKind, setFinalDueKind] = useState<string>(defaultValue.finalDueKind);
  const preview = previewSchedule(total, deposit.kind, deposit.value, scheduleRows, currency);
  const updateSchedule = (key: number, patch: Partial<ScheduleRow>) =>
    setScheduleRows((current) => current.map((r) => (r.key === key ? { ...r, ...patch } : r)));
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
          onChange={(event) => {
            const kind = event.currentTarget.value;
            setDeposit((d) => ({ ...d, kind }));
          }}
          options={[
            { value: "none", label: "No deposit" },
            { value: "amount", label: "An amount" },
            { value: "percent", label: "A percentage of the total" },
          ]}
        />
        <TextInput
          field={fields.depositValue}
          label="Deposit amount or percentage"
          hint="e.g. 500.00, or 30 for 30 %."
          onInput={(event) => {
            const value = event.currentTarget.value;
            setDeposit((d) => ({ ...d, value }));
          }}
        />
      </div>
      <LineItems
        name="schedule"
        legend="Payment schedule"
        noun="milestone"
        min={0}
        rows={scheduleRows}
        rowClass="grid min-w-0 items-start gap-3 border-b border-slate-100 pb-3 sm:grid-cols-2 lg:grid-cols-[1fr_9rem_8rem_12rem_10rem_auto]"
        fieldsetClass="flex min-w-0 flex-col gap-3 rounded-lg border border-slate-200 p-3 sm:p-4"
        emptyRow={{ ...EMPTY_SCHEDULE_ROW }}
        max={18}
        hydrated={hydrated}
        onAdd={() =>
          setScheduleRows((current) => [
            ...current,
            { key: ++rowKeys, initial: { ...EMPTY_SCHEDULE_ROW }, shareKind: "percent", shareValue: "", dueKind: "milestone" },
          ])
        }
        onRemove={(key) => setScheduleRows((current) => current.filter((r) => r.key !== key))}
        errors={fields.schedule.errors}
        errorId={fields.schedule.errorId}
        renderRow={(row, index) => (
          <>
            <TextInput
              field={fields[`schedule[${index}].label`]}
              label={`Milestone ${index + 1} name`}
              defaultValue={row.initial.label}
              placeholder="e.g. Design approved"
            />
            <SelectInput
              field={fields[`schedule[${index}].shareKind`]}
              label={`Milestone ${index + 1} share`}
              defaultValue={row.initial.shareKind}
              onChange={(event) => updateSchedule(row.key, { shareKind: event.currentTarget.value })}
              options={[
                { value: "percent", label: "Percentage" },
                { value: "amount", label: "Amount" },
              ]}
            />
            <TextInput
              field={fields[`schedule[${index}].shareValue`]}
              label={`Milestone ${index + 1} ${row.shareKind === "amount" ? "amount" : "percentage"}`}
              defaultValue={row.initial.shareValue}
              inputMode="decimal"
              placeholder={row.shareKind === "amount" ? "e.g. 1,200.00" : "e.g. 30"}
              hint={preview?.amounts[index] !== undefined ? `= ${formatCents(preview.amounts[index], currency)}` : undefined}
              onInput={(event) => updateSchedule(row.key, { shareValue: event.currentTarget.value })}
            />
            <SelectInput
              field={fields[`schedule[${index}].dueKind`]}
              label={`Milestone ${index + 1} is due`}
              defaultValue={row.initial.dueKind}
              onChange={(event) => updateSchedule(row.key, { dueKind: event.currentTarget.value })}
              options={DUE_OPTIONS}
            />
            {!hydrated || row.dueKind === "date" ? (
              <TextInput
                field={fields[`schedule[${index}].dueDate`]}
                label={`Milestone ${index + 1} due date`}
                type="date"
                defaultValue={row.initial.dueDate}
              />
            ) : null}
            {!hydrated || row.dueKind === "days_after_signing" ? (
              <TextInput
                field={fields[`schedule[${index}].dueDays`]}
                label={`Milestone ${index + 1}: days after signing`}
                inputMode="numeric"
                defaultValue={row.initial.dueDays}
              />
            ) : null}
            {hydrated && row.dueKind === "milestone" ? <span aria-hidden="true" /> : null}
          </>
        )}
      >
        <p className="text-sm text-slate-600">
          {scheduleRows.length === 0
            ? "No schedule: the client pays the deposit when signing (if you ask one), the rest on one invoice. Add a milestone to split the rest."
            : "After the deposit, each milestone becomes an invoice when it is due; the final payment is the rest of the total."}
        </p>
        {scheduleRows.length > 0 || !hydrated ? (
          <div className="grid gap-3 border-t border-slate-100 pt-3 sm:grid-cols-2" data-testid="final-payment">
            <TextInput field={fields.finalLabel} label="Final payment name" placeholder="Final payment" />
            <SelectInput
              field={fields.finalDueKind}
              label="Final payment is due"
              options={DUE_OPTIONS}
              onChange={(event) => setFinalDueKind(event.currentTarget.value)}
            />
            {!hydrated || finalDueKind === "date" ? (
              <TextInput field={fields.finalDueDate} label="Final payment due date" type="date" />
            ) : null}
            {!hydrated || finalDueKind === "days_after_signing" ? (
              <TextInput field={fields.finalDueDays} label="Final payment: days after signing" inputMode="numeric" />
            ) : null}
            {preview ? (
              <p className="text-sm sm:col-span-2" aria-live="polite" data-testid="schedule-preview">
                {preview.problem ??
                  `Final payment: ${formatCents(preview.amounts.at(-1) ?? 0, currency)}. The lines add up to ${formatCents(total, currency)}.`}
              </p>
            ) : null}
          </div>
        ) : null}
      </LineItems>
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
