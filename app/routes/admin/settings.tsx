import { TermsSettingsField } from "#app/features/agreements/components/terms-settings-field";
import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import type { Route } from "./+types/settings";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { getFormProps, getInputProps, TextArea, TextInput, useAppForm } from "#app/components/ui/form";
import { Notice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import { LOGO_MESSAGES, MAX_LOGO_BYTES } from "#app/features/settings/logo";
import { bpsToPercent, settingsSchema } from "#app/features/settings/settings.schema";
import { SETTINGS_MESSAGE_MS, SETTINGS_MESSAGES } from "#app/features/settings/settings.messages";
import { getBrand, getSettingsForAdmin, removeLogo, saveLogo, saveSettings } from "#app/features/settings/settings.server";
import { fieldError } from "#app/lib/errors";
import { conformIntent, formAction, readForm, requireConfirmation, runIntent } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { requireUser } from "#app/features/users/session.server";
import { SettingsSections } from "#app/features/settings/components/settings-sections";
import { DepositSettingsField } from "#app/features/payments/components/deposit-settings-field";
import { AccentColorField } from "#app/features/settings/components/accent-color-field";
import { CommissionHoldField } from "#app/features/settings/components/commission-hold-field";
import { ReminderSettingsForm, SAVE_REMINDERS_INTENT } from "#app/features/reminders/components/reminder-settings-form";
import { getReminderSettings, saveReminderSettings } from "#app/features/reminders/reminder-settings.server";
import { formatDays, reminderSettingsSchema, REMINDER_MESSAGES } from "#app/features/reminders/reminders.schema";

export const meta: Route.MetaFunction = () => [{ title: "Settings | Admin Console" }, { name: "robots", content: "noindex" }];

/** The global settings (docs/product.md#settings). */
export async function loader({ context }: Route.LoaderArgs) {
  const actor = requireUser(context);
  const { db } = context.get(servicesContext);
  const settings = await getSettingsForAdmin(db, actor);
  const brand = await getBrand(db);
  const reminders = await getReminderSettings(db);
  return {
    form: formConstraints(settingsSchema),
    logoPath: brand.logoPath,
    // docs/product.md#reminders: a form of its own.
    reminders: {
      form: formConstraints(reminderSettingsSchema),
      timeZone: settings.timeZone,
      values: {
        ...reminders,
        invoiceDays: formatDays(reminders.invoiceDays),
        proposalDays: formatDays(reminders.proposalDays),
      },
    },
    settings: {
      companyName: settings.companyName,
      supportEmail: settings.supportEmail,
      defaultTimeline: settings.defaultTimeline,
      allowNewClients: settings.allowNewClients,
      requireAdminTwoFactor: settings.requireAdminTwoFactor,
      requireEmailVerification: settings.requireEmailVerification,
      requireClientPhone: settings.requireClientPhone,
      commissionRatePercent: bpsToPercent(settings.commissionRateBps),
      commissionHoldDays: String(settings.commissionHoldDays),
      storageQuotaGb: String(Math.round((settings.storageQuotaMb / 1024) * 1000) / 1000),
      dunningRetryDays: settings.dunningRetryDays.join(", "),
      recurringCommissionMonths: String(settings.recurringCommissionMonths),
      companyAddress: settings.companyAddress,
      taxId: settings.taxId,
      paymentInstructions: settings.paymentInstructions,
      paymentLinkTemplate: settings.paymentLinkTemplate,
      accentColor: settings.accentColor,
      defaultDepositPercent: String(settings.defaultDepositPercent),
      termsAndConditions: settings.termsAndConditions,
    },
  };
}

/**
 * Saves the settings (docs/product.md#settings: "✅ Settings saved." or "❌ Failed to save
 * settings."), or, for `intent=upload-logo` (a multipart form, the only upload this route
 * takes: server/body-guard.ts) and `intent=remove-logo`, the logo.
 */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db } = args.context.get(servicesContext);
  // The settings form posts no intent; peek at a copy of the body to route the logo forms.
  const intent = (await readForm(args.request.clone())).get("intent");
  if (intent === "upload-logo" || intent === "remove-logo") {
    return runIntent(args, {
      "upload-logo": async (form) => {
        const file = form.get("logo");
        // Read in memory and checked before anything is written (the body guard bounds it to 256 KB).
        if (!(file instanceof File) || file.size === 0) throw fieldError("logo", LOGO_MESSAGES.missing);
        if (file.size > MAX_LOGO_BYTES) throw fieldError("logo", LOGO_MESSAGES.tooLarge);
        await saveLogo(db, actor, new Uint8Array(await file.arrayBuffer()));
        return LOGO_MESSAGES.saved;
      },
      "remove-logo": async (form) => {
        requireConfirmation(form, "Confirm the removal first.");
        await removeLogo(db, actor);
        return LOGO_MESSAGES.removed;
      },
    });
  }
  if (intent === SAVE_REMINDERS_INTENT) {
    return runIntent(args, {
      [SAVE_REMINDERS_INTENT]: conformIntent(reminderSettingsSchema, async (value) => {
        await saveReminderSettings(db, actor, value);
        return REMINDER_MESSAGES.saved;
      }),
    });
  }
  return formAction(
    args,
    settingsSchema,
    async ({ commissionRatePercent, storageQuotaGb, ...rest }) => {
      await saveSettings(db, actor, {
        ...rest,
        storageQuotaMb: storageQuotaGb,
        termsAndConditions: rest.termsAndConditions ?? "",
        commissionRateBps: commissionRatePercent,
      });
      return SETTINGS_MESSAGES.saved;
    },
    { failureMessage: SETTINGS_MESSAGES.failed },
  );
}

/** /admin/settings: the settings form; the commission rate is typed in percent. */
export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const settingsReply = actionData && !("intent" in actionData && actionData.intent) ? actionData : undefined;
  const [form, fields] = useAppForm({
    id: "settings",
    constraint: loaderData.form,
    lastResult: settingsReply?.result,
    defaultValue: loaderData.settings,
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && !navigation.formData?.has("intent");
  const message = useFadingMessage(settingsReply);
  const checkbox = getInputProps(fields.allowNewClients, { type: "checkbox" });
  const twoFactorCheckbox = getInputProps(fields.requireAdminTwoFactor, { type: "checkbox" });
  const verifyCheckbox = getInputProps(fields.requireEmailVerification, { type: "checkbox" });
  const phoneCheckbox = getInputProps(fields.requireClientPhone, { type: "checkbox" });
  return (
    <>
      <PageHeading title="Settings" lead="Global settings of the portal." />
      <SettingsSections />
      <Form method="post" {...getFormProps(form)} className="flex max-w-xl flex-col gap-4">
        <TextInput field={fields.companyName} label="Company name" autoComplete="organization" />
        <TextInput field={fields.supportEmail} label="Support email" type="email" autoComplete="email" />
        <TextInput field={fields.defaultTimeline} label="Default timeline" placeholder="e.g. 4–6 weeks" />
        <TextInput
          field={fields.commissionRatePercent}
          label="Ambassador commission (%)"
          inputMode="decimal"
          hint="Of each payment on the invoice of a proposal the client approved; frozen when the client approves."
        />
        <CommissionHoldField field={fields.commissionHoldDays} />
        <TextInput
          field={fields.storageQuotaGb}
          label="Storage per client (GB)"
          inputMode="decimal"
          hint="The files each client organisation may store in its conversations, e.g. 2. Uploads beyond it are refused."
        />
        <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 font-semibold">Recurring billing</legend>
          <TextInput
            field={fields.dunningRetryDays}
            label="Retry a failed automatic payment after (days)"
            hint="Days after the first failure, separated by commas, e.g. 1, 3, 7. The client gets a reminder with each retry; after the last one you are told."
          />
          <TextInput
            field={fields.recurringCommissionMonths}
            label="Commission on a billing plan's invoices for (months)"
            inputMode="numeric"
            hint="From the plan's start; frozen on each plan when it is created. 0: none."
          />
        </fieldset>
        <fieldset id="payment-instructions" className="flex scroll-mt-20 flex-col gap-4 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 font-semibold">Billing details on invoices</legend>
          <TextArea field={fields.companyAddress} label="Company address" rows={3} autoComplete="street-address" />
          <TextInput field={fields.taxId} label="Tax ID (optional)" />
          <TextArea
            field={fields.paymentInstructions}
            label="Payment instructions (optional)"
            rows={4}
            hint="Printed on every invoice, e.g. your bank details."
          />
          <TextInput
            field={fields.paymentLinkTemplate}
            label="Payment link (optional)"
            inputMode="url"
            placeholder="https://pay.example.com/{number}?amount={amount}"
            hint="An https:// address. {number} becomes the invoice number, {amount} the total (e.g. 1234.50), {currency} the currency. When set, invoices show a Pay now button."
          />
        </fieldset>
        <DepositSettingsField field={fields.defaultDepositPercent} />
        <AccentColorField field={fields.accentColor} />
        <TermsSettingsField field={fields.termsAndConditions} />
        <div className="flex items-start gap-3">
          <input {...checkbox} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" />
          <div>
            <label htmlFor={fields.allowNewClients.id} className="font-medium text-slate-800">
              Allow new clients
            </label>
            <p className="text-sm text-slate-600">When off, the client registration page refuses new accounts.</p>
          </div>
        </div>
        <div className="flex items-start gap-3">
          <input {...twoFactorCheckbox} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" />
          <div>
            <label htmlFor={fields.requireAdminTwoFactor.id} className="font-medium text-slate-800">
              Require two-factor for admins
            </label>
            <p className="text-sm text-slate-600">
              An admin without two-factor authentication is sent to set it up before reaching the admin pages.
            </p>
          </div>
        </div>
        <div className="flex items-start gap-3">
          <input {...verifyCheckbox} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" />
          <div>
            <label htmlFor={fields.requireEmailVerification.id} className="font-medium text-slate-800">
              Require e-mail verification to sign in
            </label>
            <p className="text-sm text-slate-600">
              When on, clients and ambassadors must open the link we e-mail them before they can sign in. When off, they can sign in at once
              and see a reminder until they verify.
            </p>
          </div>
        </div>
        <div className="flex items-start gap-3">
          <input {...phoneCheckbox} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" />
          <div>
            <label htmlFor={fields.requireClientPhone.id} className="font-medium text-slate-800">
              Require a phone number at client registration
            </label>
            <p className="text-sm text-slate-600">When off, the phone number is optional for new clients.</p>
          </div>
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save settings
          </SubmitButton>
          <div aria-live="polite">
            {/* Any refusal reads "❌ Failed to save settings." (docs/product.md#settings); the reasons are next to the fields. */}
            {message ? (
              <Notice tone={message.ok ? "success" : "error"}>{message.ok ? message.message : SETTINGS_MESSAGES.failed}</Notice>
            ) : null}
          </div>
        </div>
      </Form>
      <LogoForm
        logoPath={loaderData.logoPath}
        reply={actionData && "intent" in actionData && LOGO_INTENTS.includes(actionData.intent ?? "") ? actionData : undefined}
      />
      <ReminderSettingsForm
        constraint={loaderData.reminders.form}
        values={loaderData.reminders.values}
        timeZone={loaderData.reminders.timeZone}
        reply={actionData && "intent" in actionData ? actionData : undefined}
      />
    </>
  );
}

const LOGO_INTENTS = ["upload-logo", "remove-logo"];

/** Upload (multipart) or remove the logo; the file's size is checked in the browser first when JavaScript runs. */
function LogoForm({
  logoPath,
  reply,
}: {
  logoPath: string | null;
  reply: { ok: boolean; message: string; intent?: string; fieldErrors?: Record<string, string[]> } | undefined;
}) {
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting" && navigation.formData?.get("intent") === "upload-logo";
  const [localError, setLocalError] = useState<string | null>(null);
  const error = localError ?? (reply && !reply.ok ? (reply.fieldErrors?.logo?.join(" ") ?? reply.message) : null);
  return (
    <section aria-labelledby="logo-title" className="mt-10 flex max-w-xl flex-col gap-4 rounded-lg border border-slate-200 p-4">
      <h2 id="logo-title" className="text-lg font-semibold">
        Logo
      </h2>
      {logoPath ? (
        <div className="flex flex-wrap items-center gap-4">
          <img src={logoPath} alt="Current logo" className="h-12 w-auto max-w-[12rem] object-contain" />
          <Form method="post">
            <input type="hidden" name="intent" value="remove-logo" />
            <input type="hidden" name="confirm" value="yes" />
            <button
              type="submit"
              className="btn btn-danger btn-sm"
              onClick={(event) => {
                if (!window.confirm("Remove the logo? Headers and e-mails will show the company name instead.")) event.preventDefault();
              }}
            >
              Remove logo
            </button>
          </Form>
        </div>
      ) : (
        <p className="text-sm text-slate-700">No logo yet: headers and e-mails show the company name.</p>
      )}
      <Form
        method="post"
        encType="multipart/form-data"
        className="flex flex-col gap-3"
        onSubmit={(event) => {
          const file = (event.currentTarget.elements.namedItem("logo") as HTMLInputElement | null)?.files?.[0];
          const problem = !file ? LOGO_MESSAGES.missing : file.size > MAX_LOGO_BYTES ? LOGO_MESSAGES.tooLarge : null;
          setLocalError(problem);
          if (problem) event.preventDefault();
        }}
      >
        <input type="hidden" name="intent" value="upload-logo" />
        <div className="flex flex-col gap-1">
          <label htmlFor="logo" className="text-sm font-medium text-slate-800">
            Logo file
          </label>
          <input
            id="logo"
            name="logo"
            type="file"
            accept="image/png,image/jpeg,image/svg+xml"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? "logo-error logo-hint" : "logo-hint"}
            className="text-sm"
          />
          <p id="logo-hint" className="text-sm text-slate-600">
            PNG, JPEG or SVG, at most 200 KB. SVGs with scripts or links are refused; an SVG is kept as a PNG.
          </p>
          {error ? (
            <p id="logo-error" role="alert" className="text-sm text-red-700">
              {error}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton pending={uploading} pendingLabel="Uploading…">
            Upload logo
          </SubmitButton>
          {reply?.ok ? <Notice tone="success">{reply.message}</Notice> : null}
        </div>
      </Form>
    </section>
  );
}

/**
 * The last save's message, hidden after {@link SETTINGS_MESSAGE_MS} (docs/product.md#form-messages: 3 s). Without
 * JavaScript the message stays on the page the server sent.
 */
function useFadingMessage(result: { ok: boolean; message: string } | undefined) {
  const [visible, setVisible] = useState<typeof result>(result);
  useEffect(() => {
    setVisible(result);
    if (!result) return;
    const timer = setTimeout(() => setVisible(undefined), SETTINGS_MESSAGE_MS);
    return () => clearTimeout(timer);
  }, [result]);
  return visible;
}
