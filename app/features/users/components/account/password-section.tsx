import { FormMessage } from "#app/components/ui/form";
import type { FormReply } from "#app/lib/form-action.server";
import { IntentForm, ReplyField, ReplyMessage, Section, Submit } from "./account-form";

/** Password: the current one and the new one twice; `done` is the message after the redirect. */
export function PasswordSection({ minPassword, reply, done }: { minPassword: number; reply: FormReply | null; done: string | null }) {
  return (
    <Section id="password" title="Password" lead="Changing it signs you out on every other device.">
      <IntentForm intent="change-password">
        <ReplyMessage reply={reply} />
        {done ? <FormMessage success={done} /> : null}
        <ReplyField
          reply={reply}
          id="password-current"
          name="currentPassword"
          type="password"
          label="Current password"
          autoComplete="current-password"
        />
        <ReplyField
          reply={reply}
          id="password-new"
          name="newPassword"
          type="password"
          label="New password"
          autoComplete="new-password"
          hint={`At least ${minPassword} characters.`}
        />
        <ReplyField
          reply={reply}
          id="password-confirm"
          name="confirmPassword"
          type="password"
          label="Repeat the new password"
          autoComplete="new-password"
        />
        <Submit intent="change-password" pendingLabel="Changing…">
          Change password
        </Submit>
      </IntentForm>
    </Section>
  );
}
