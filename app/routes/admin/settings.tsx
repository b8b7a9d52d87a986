import { TermsSettingsField } from "#app/features/agreements/components/terms-settings-field";
import { useEffect, useState, type ReactNode } from "react";
import { Form, useNavigation } from "react-router";
import type { z } from "zod";
import type { Route } from "./+types/settings";
import { SubmitButton } from "#app/components/ui/field";
import { getFormProps, getInputProps, TextArea, TextInput, useAppForm, type FieldMetadata } from "#app/components/ui/form";
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
import { SettingsFrame, settingsTitle, type AdminSettingsSectionId } from "#app/features/settings/components/settings-sections";
import { DepositSettingsField } from "#app/features/payments/components/deposit-settings-field";
import { cardPaymentsEnabled } from "#app/features/payments/stripe.server";
import { AccentColorField } from "#app/features/settings/components/accent-color-field";
import { CommissionHoldField } from "#app/features/settings/components/commission-hold-field";
import { ReminderSettingsForm, SAVE_REMINDERS_INTENT } from "#app/features/reminders/components/reminder-settings-form";
import { getReminderSettings, saveReminderSettings } from "#app/features/reminders/reminder-settings.server";
import { formatDays, reminderSettingsSchema, REMINDER_MESSAGES } from "#app/features/reminders/reminders.schema";

type SettingsField = keyof typeof settingsSchema.shape;

/**
 * The settings fields each section's form saves (issue #41: one page per section). Brand also
 * takes the logo's forms, Reminders its own form; Availability is a page of its own.
 */
const SECTION_FIELDS = {
  company: ["companyName", "supportEmail", "defaultTimeline", "companyAddress", "taxId"],
  brand: ["accentColor"],
  reminders: [],
  payments: ["paymentInstructions", "paymentLinkTemplate", "defaultDepositPercent", "dunningRetryDays", "storageQuotaGb"],
  commissions: ["commissionRatePercent", "commissionHoldDays", "recurringCommissionMonths"],
  terms: ["termsAndConditions"],
  "sign-in": ["allowNewClients", "requireAdminTwoFactor", "requireEmailVerification", "requireClientPhone"],
} as const satisfies Record<Exclude<AdminSettingsSectionId, "availability">, readonly SettingsField[]>;

type FormSection = keyof typeof SECTION_FIELDS;

/**
 * The section of the URL (`/admin/settings/<section>`, each a route of app/routes.ts), or null for
 * `/admin/settings` (the old single page), which shows the first one.
 */
function sectionOfPath(pathname: string): FormSection | null {
  const section = /^\/admin\/settings\/([\w-]+)/.exec(pathname)?.[1];
  return section && Object.hasOwn(SECTION_FIELDS, section) ? (section as FormSection) : null;
}

/** The schema of one section's form: the settings schema's fields of that section. */
function sectionSchema(section: FormSection) {
  return settingsSchema.pick(
    Object.fromEntries(SECTION_FIELDS[section].map((field) => [field, true])) as Partial<Record<SettingsField, true>>,
  );
}

export const meta: Route.MetaFunction = ({ location }) => [
  { title: settingsTitle(sectionOfPath(location.pathname) ?? "company") },
  { name: "robots", content: "noindex" },
];

/** One section of the global settings (docs/product.md#settings). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const section = sectionOfPath(new URL(request.url).pathname) ?? "company";
  const actor = requireUser(context);
  const { db, env } = context.get(servicesContext);
  const settings = await getSettingsForAdmin(db, actor);
  const brand = section === "brand" ? await getBrand(db) : null;
  const reminders = section === "reminders" ? await getReminderSettings(db) : null;
  return {
    section,
    form: formConstraints(sectionSchema(section)),
    logoPath: brand?.logoPath ?? null,
    /** Card payments through Stripe are configured by the server's environment (README), not here. */
    cardPayments: cardPaymentsEnabled(env),
    // docs/product.md#reminders: a form of its own.
    reminders: reminders && {
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
 * Saves one section's fields (docs/product.md#settings: "✅ Settings saved." or "❌ Failed to save
 * settings."; the other sections' settings are left as they are), or, on Brand, `intent=upload-logo`
 * (a multipart form, the only upload these pages take: server/body-guard.ts) and `intent=remove-logo`,
 * or, on Reminders, `intent=save-reminders`. A post to `/admin/settings` (the old single page's form)
 * still saves every field of that form, and takes the logo's and the reminders' forms.
 */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db, env } = args.context.get(servicesContext);
  const section = sectionOfPath(new URL(args.request.url).pathname);
  // The settings forms post no intent; peek at a copy of the body to route the logo and reminder forms.
  const intent = (await readForm(args.request.clone())).get("intent");
  if ((section === null || section === "brand") && (intent === "upload-logo" || intent === "remove-logo")) {
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
  if (section === "reminders" || (section === null && intent === SAVE_REMINDERS_INTENT)) {
    return runIntent(args, {
      [SAVE_REMINDERS_INTENT]: conformIntent(reminderSettingsSchema, async (value) => {
        await saveReminderSettings(db, actor, value);
        return REMINDER_MESSAGES.saved;
      }),
    });
  }
  const schema = section === null ? settingsSchema : sectionSchema(section);
  return formAction(
    args,
    schema,
    async (value) => {
      const { commissionRatePercent, storageQuotaGb, termsAndConditions, ...rest } = value as Partial<z.output<typeof settingsSchema>>;
      const holdsTerms = section === null || section === "terms";
      await saveSettings(
        db,
        actor,
        {
          ...rest,
          storageQuotaMb: storageQuotaGb,
          // An emptied terms field clears the terms; a section without it leaves them.
          termsAndConditions: holdsTerms ? (termsAndConditions ?? "") : undefined,
          commissionRateBps: commissionRatePercent,
        },
        { cardPayments: cardPaymentsEnabled(env) },
      );
      return SETTINGS_MESSAGES.saved;
    },
    { failureMessage: SETTINGS_MESSAGES.failed },
  );
}

/** /admin/settings/<section>: one section's form; `/admin/settings` shows the first. */
export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const { section } = loaderData;
  const replyIntent = actionData && "intent" in actionData ? actionData.intent : undefined;
  return (
    // The reminders' form has its own heading ("Automatic reminders").
    <SettingsFrame current={section} sectionHeading={section !== "reminders"}>
      {section === "reminders" && loaderData.reminders ? (
        <ReminderSettingsForm
          constraint={loaderData.reminders.form}
          values={loaderData.reminders.values}
          timeZone={loaderData.reminders.timeZone}
          reply={actionData && replyIntent ? actionData : undefined}
        />
      ) : (
        <SectionForm key={section} loaderData={loaderData} reply={actionData && !replyIntent ? actionData : undefined} />
      )}
      {section === "brand" ? (
        <LogoForm logoPath={loaderData.logoPath} reply={actionData && LOGO_INTENTS.includes(replyIntent ?? "") ? actionData : undefined} />
      ) : null}
    </SettingsFrame>
  );
}

type LoaderData = Route.ComponentProps["loaderData"];

/** A section's form of settings fields, posting to the section's own page. */
function SectionForm({ loaderData, reply }: { loaderData: LoaderData; reply: Route.ComponentProps["actionData"] }) {
  const { section } = loaderData;
  const [form, fields] = useAppForm({
    id: `settings-${section}`,
    constraint: loaderData.form,
    lastResult: reply?.result,
    defaultValue: loaderData.settings,
  });
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && !navigation.formData?.has("intent");
  const message = useFadingMessage(reply);
  return (
    <Form method="post" action={`/admin/settings/${section}`} {...getFormProps(form)} className="flex max-w-xl flex-col gap-4">
      <SectionFields section={section} fields={fields} cardPayments={loaderData.cardPayments} />
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
  );
}

/** The fields of one section, as the single page had them. */
function SectionFields({
  section,
  fields,
  cardPayments,
}: {
  section: FormSection;
  fields: Record<string, FieldMetadata>;
  cardPayments: boolean;
}): ReactNode {
  switch (section) {
    case "company":
      return (
        <>
          <TextInput field={fields.companyName!} label="Company name" autoComplete="organization" />
          <TextInput field={fields.supportEmail!} label="Support email" type="email" autoComplete="email" />
          <TextInput field={fields.defaultTimeline!} label="Default timeline" placeholder="e.g. 4–6 weeks" />
          <fieldset id="billing-details" className="flex scroll-mt-20 flex-col gap-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 font-semibold">Billing details on invoices</legend>
            <TextArea field={fields.companyAddress!} label="Company address" rows={3} autoComplete="street-address" />
            <TextInput field={fields.taxId!} label="Tax ID (optional)" />
          </fieldset>
        </>
      );
    case "brand":
      return <AccentColorField field={fields.accentColor!} />;
    case "payments":
      return (
        <>
          <fieldset id="payment-instructions" className="flex scroll-mt-20 flex-col gap-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 font-semibold">How clients pay</legend>
            <TextArea
              field={fields.paymentInstructions!}
              label="Payment instructions (optional)"
              rows={4}
              hint="Printed on every invoice, e.g. your bank details."
            />
            <TextInput
              field={fields.paymentLinkTemplate!}
              label="Payment link (optional)"
              inputMode="url"
              placeholder="https://pay.example.com/{number}?amount={amount}"
              hint="An https:// address. {number} becomes the invoice number, {amount} the total (e.g. 1234.50), {currency} the currency. When set, invoices show a Pay now button."
            />
            <p className="text-sm text-slate-700" data-testid="stripe-status">
              Card payments (Stripe): <strong>{cardPayments ? "on" : "off"}</strong>.{" "}
              {cardPayments
                ? "Clients can pay invoices by card."
                : "Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET in the server's environment to take cards (see the README)."}
            </p>
          </fieldset>
          <DepositSettingsField field={fields.defaultDepositPercent!} />
          <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-200 p-4">
            <legend className="px-1 font-semibold">Recurring billing</legend>
            <TextInput
              field={fields.dunningRetryDays!}
              label="Retry a failed automatic payment after (days)"
              hint="Days after the first failure, separated by commas, e.g. 1, 3, 7. The client gets a reminder with each retry; after the last one you are told."
            />
          </fieldset>
          <TextInput
            field={fields.storageQuotaGb!}
            label="Storage per client (GB)"
            inputMode="decimal"
            hint="The files each client organisation may store in its conversations, e.g. 2. Uploads beyond it are refused."
          />
        </>
      );
    case "commissions":
      return (
        <>
          <TextInput
            field={fields.commissionRatePercent!}
            label="Ambassador commission (%)"
            inputMode="decimal"
            hint="Of each payment on the invoice of a proposal the client approved; frozen when the client approves."
          />
          <CommissionHoldField field={fields.commissionHoldDays!} />
          <TextInput
            field={fields.recurringCommissionMonths!}
            label="Commission on a billing plan's invoices for (months)"
            inputMode="numeric"
            hint="From the plan's start; frozen on each plan when it is created. 0: none."
          />
        </>
      );
    case "terms":
      return <TermsSettingsField field={fields.termsAndConditions!} />;
    case "sign-in":
      return (
        <>
          <Checkbox field={fields.allowNewClients!} label="Allow new clients">
            When off, the client registration page refuses new accounts.
          </Checkbox>
          <Checkbox field={fields.requireAdminTwoFactor!} label="Require two-factor for admins">
            An admin without two-factor authentication is sent to set it up before reaching the admin pages.
          </Checkbox>
          <Checkbox field={fields.requireEmailVerification!} label="Require e-mail verification to sign in">
            When on, clients and ambassadors must open the link we e-mail them before they can sign in. When off, they can sign in at once
            and see a reminder until they verify.
          </Checkbox>
          <Checkbox field={fields.requireClientPhone!} label="Require a phone number at client registration">
            When off, the phone number is optional for new clients.
          </Checkbox>
        </>
      );
    case "reminders":
      return null;
  }
}

/** A switch of the Sign-in section: the checkbox, its label and what it does. */
function Checkbox({ field, label, children }: { field: FieldMetadata; label: string; children: ReactNode }) {
  return (
    <div className="flex items-start gap-3">
      <input {...getInputProps(field, { type: "checkbox" })} className="mt-1 h-5 w-5 shrink-0 rounded border-slate-400" />
      <div>
        <label htmlFor={field.id} className="font-medium text-slate-800">
          {label}
        </label>
        <p className="text-sm text-slate-600">{children}</p>
      </div>
    </div>
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
    <section aria-labelledby="logo-title" className="mt-8 flex max-w-xl flex-col gap-4 rounded-lg border border-slate-200 p-4">
      <h3 id="logo-title" className="text-lg font-semibold">
        Logo
      </h3>
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
