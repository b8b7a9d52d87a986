import type { FormReply } from "#app/lib/form-action.server";
import { IntentForm, ReplyField, ReplyMessage, Section, Submit } from "./account-form";

/** E-mail address: asks for a confirmation link to a new address (the current password first). */
export function EmailSection({ email, reply }: { email: string; reply: FormReply | null }) {
  return (
    <Section
      id="email"
      title="E-mail address"
      lead={`You sign in with ${email}. A new address must be confirmed from a link we send to it.`}
    >
      <IntentForm intent="change-email">
        <ReplyMessage reply={reply} />
        <ReplyField reply={reply} id="email-new" name="newEmail" type="email" label="New e-mail address" autoComplete="email" />
        <ReplyField
          reply={reply}
          id="email-password"
          name="currentPassword"
          type="password"
          label="Current password"
          autoComplete="current-password"
        />
        <Submit intent="change-email" pendingLabel="Sending…">
          Send confirmation link
        </Submit>
      </IntentForm>
    </Section>
  );
}
