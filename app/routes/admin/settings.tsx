import { getFormProps, getInputProps } from "@conform-to/react";
import { useEffect, useState } from "react";
import { Form } from "react-router";
import type { Route } from "./+types/settings";
import { PageHeading } from "#app/components/page-heading";
import { SubmitButton } from "#app/components/ui/field";
import { TextInput, useAppForm, useIsSubmitting } from "#app/components/ui/form";
import { Notice } from "#app/components/ui/notice";
import { servicesContext } from "#app/context";
import { bpsToPercent, SETTINGS_MESSAGE_MS, SETTINGS_MESSAGES, settingsSchema } from "#app/features/settings/settings.schema";
import { getSettingsForAdmin, saveSettings } from "#app/features/settings/settings.server";
import { formAction } from "#app/lib/form-action.server";
import { requireUser } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Settings | Admin Console" }, { name: "robots", content: "noindex" }];

/** The global settings (spec §2 /admin/settings, §3 settings). */
export async function loader({ context }: Route.LoaderArgs) {
  const actor = requireUser(context);
  const { db } = context.get(servicesContext);
  const settings = await getSettingsForAdmin(db, actor);
  return {
    settings: {
      companyName: settings.companyName,
      supportEmail: settings.supportEmail,
      defaultTimeline: settings.defaultTimeline,
      allowNewClients: settings.allowNewClients,
      requireEmailVerification: settings.requireEmailVerification,
      commissionRatePercent: bpsToPercent(settings.commissionRateBps),
    },
  };
}

/** Saves the settings (spec §8: "✅ Settings saved." or "❌ Failed to save settings."). */
export async function action(args: Route.ActionArgs) {
  const actor = requireUser(args.context);
  const { db } = args.context.get(servicesContext);
  return formAction(
    args,
    settingsSchema,
    async ({ commissionRatePercent, ...rest }) => {
      await saveSettings(db, actor, { ...rest, commissionRateBps: commissionRatePercent });
      return SETTINGS_MESSAGES.saved;
    },
    { failureMessage: SETTINGS_MESSAGES.failed },
  );
}

/** /admin/settings: the settings form; the commission rate is typed in percent. */
export default function AdminSettings({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({
    id: "settings",
    schema: settingsSchema,
    lastResult: actionData?.result,
    defaultValue: loaderData.settings,
  });
  const pending = useIsSubmitting();
  const message = useFadingMessage(actionData);
  const { key: _key, ...checkbox } = getInputProps(fields.allowNewClients, { type: "checkbox" });
  const { key: _verifyKey, ...verifyCheckbox } = getInputProps(fields.requireEmailVerification, { type: "checkbox" });
  return (
    <>
      <PageHeading title="Settings" lead="Global settings of the portal." />
      <Form method="post" {...getFormProps(form)} className="flex max-w-xl flex-col gap-4">
        <TextInput field={fields.companyName} label="Company name" autoComplete="organization" />
        <TextInput field={fields.supportEmail} label="Support email" type="email" autoComplete="email" />
        <TextInput field={fields.defaultTimeline} label="Default timeline" placeholder="e.g. 4–6 weeks" />
        <TextInput
          field={fields.commissionRatePercent}
          label="Ambassador commission (%)"
          inputMode="decimal"
          hint="Of the invoice total, or of the budget when there is no invoice."
        />
        <div className="flex items-start gap-3">
          <input {...checkbox} className="mt-1 h-5 w-5 rounded border-slate-400" />
          <div>
            <label htmlFor={fields.allowNewClients.id} className="font-medium text-slate-800">
              Allow new clients
            </label>
            <p className="text-sm text-slate-600">When off, the client registration page refuses new accounts.</p>
          </div>
        </div>
        <div className="flex items-start gap-3">
          <input {...verifyCheckbox} className="mt-1 h-5 w-5 rounded border-slate-400" />
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
        <div className="flex flex-wrap items-center gap-4">
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save settings
          </SubmitButton>
          <div aria-live="polite">
            {/* Any refusal reads "❌ Failed to save settings." (spec §8); the reasons are next to the fields. */}
            {message ? (
              <Notice tone={message.ok ? "success" : "error"}>{message.ok ? message.message : SETTINGS_MESSAGES.failed}</Notice>
            ) : null}
          </div>
        </div>
      </Form>
    </>
  );
}

/**
 * The last save's message, hidden after {@link SETTINGS_MESSAGE_MS} (spec §9: 3 s). Without
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
