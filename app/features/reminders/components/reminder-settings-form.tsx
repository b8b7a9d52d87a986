/**
 * "Automatic reminders" on /admin/settings/reminders (docs/product.md#reminders): a form of its own
 * (`intent=save-reminders`), four switches and two lists of days.
 */
import { Form, useNavigation } from "react-router";
import { SubmitButton } from "#app/components/ui/field";
import { getFormProps, getInputProps, TextInput, useAppForm, type FieldMetadata } from "#app/components/ui/form";
import { Notice } from "#app/components/ui/notice";
import type { FormConstraints } from "#app/lib/forms";
import type { FormResult } from "#app/lib/forms";
import { REMINDER_MESSAGES } from "../reminders.messages";

/** The form's values as the page shows them (days as text). */
export interface ReminderSettingsValues {
  invoiceEnabled: boolean;
  invoiceDays: string;
  proposalEnabled: boolean;
  proposalDays: string;
  meetingEnabled: boolean;
  digestEnabled: boolean;
}

export const SAVE_REMINDERS_INTENT = "save-reminders";

export function ReminderSettingsForm({
  constraint,
  values,
  timeZone,
  reply,
}: {
  constraint: FormConstraints;
  values: ReminderSettingsValues;
  /** The agency's time zone (settings.time_zone), for the digest's hint. */
  timeZone: string;
  reply: { ok: boolean; message: string; intent?: string; result?: FormResult } | undefined;
}) {
  const mine = reply?.intent === SAVE_REMINDERS_INTENT ? reply : undefined;
  const [form, fields] = useAppForm({ id: "reminders", constraint, lastResult: mine?.result, defaultValue: { ...values } });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formData?.get("intent") === SAVE_REMINDERS_INTENT;
  return (
    <section aria-labelledby="reminders-title" className="flex max-w-xl flex-col gap-4 rounded-lg border border-slate-200 p-4">
      <h2 id="reminders-title" className="text-lg font-semibold">
        Automatic reminders
      </h2>
      <p className="text-sm text-slate-700">
        E-mails sent by themselves, each at most once, and never once they are moot (paid, accepted, declined, cancelled). Clients can turn
        them off on their account page; you can pause them per client on the users page.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-4">
        <input type="hidden" name="intent" value={SAVE_REMINDERS_INTENT} />
        <Switch
          field={fields.invoiceEnabled}
          label="Invoice reminders"
          hint="At 09:00 (agency time) on each day below while a balance is due."
        />
        <TextInput
          field={fields.invoiceDays}
          label="Invoice reminder days"
          hint="Days relative to the due date, separated by commas: -3 is three days before, 0 the due date, 7 a week after."
          placeholder="-3, 0, 7, 14"
        />
        <Switch field={fields.proposalEnabled} label="Proposal reminders" hint="While a proposal waits for the client's answer." />
        <TextInput
          field={fields.proposalDays}
          label="Proposal reminder days"
          hint="Days after the proposal started waiting for the client, separated by commas."
          placeholder="3, 7"
        />
        <Switch
          field={fields.meetingEnabled}
          label="Meeting reminders"
          hint="24 hours before a confirmed meeting, with the calendar invite."
        />
        <Switch
          field={fields.digestEnabled}
          label="Daily digest for admins"
          hint={`At 08:00 ${timeZone} time: overdue invoices and what waits for you. Not sent when there is nothing.`}
        />
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save reminder settings
          </SubmitButton>
          <div aria-live="polite">
            {mine ? <Notice tone={mine.ok ? "success" : "error"}>{mine.ok ? mine.message : REMINDER_MESSAGES.failed}</Notice> : null}
          </div>
        </div>
      </Form>
    </section>
  );
}

function Switch({ field, label, hint }: { field: FieldMetadata; label: string; hint: string }) {
  const props = getInputProps(field, { type: "checkbox" });
  return (
    <div className="flex items-start gap-3">
      <input {...props} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" aria-describedby={`${field.id}-hint`} />
      <div>
        <label htmlFor={field.id} className="font-medium text-slate-800">
          {label}
        </label>
        <p id={`${field.id}-hint`} className="text-sm text-slate-600">
          {hint}
        </p>
      </div>
    </div>
  );
}
