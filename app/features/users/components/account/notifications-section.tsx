import type { FormReply } from "#app/lib/form-action.server";
import type { AccountPageData } from "../../account/page.server";
import { IntentForm, ReplyMessage, Section, Submit } from "./account-form";

/**
 * Notifications: which non-essential mails the user gets. Each preference is a column on
 * `user` read by `getPreferences` and one checkbox here, all saved by the one `preferences` form.
 */
export function NotificationsSection({
  preferences,
  reply,
  role,
}: {
  preferences: NonNullable<AccountPageData["preferences"]>;
  reply: FormReply | null;
  /** Ambassadors take part in no conversation: no message-mail choice for them. */
  role: string;
}) {
  return (
    <Section id="notifications" title="Notifications">
      <IntentForm intent="preferences">
        <ReplyMessage reply={reply} />
        <label className="flex items-start gap-3">
          <input type="checkbox" name="notifyUpdates" defaultChecked={preferences.notifyUpdates} className="mt-1 h-4 w-4" />
          <span>
            <span className="font-medium">E-mail me about updates</span>
            <span className="block text-sm text-slate-700">
              Project status changes, accepted meetings, proposals made for you and commission payments. Invoices and password resets are
              always sent.
            </span>
          </span>
        </label>
        {role === "ambassador" ? null : (
          <label className="flex items-start gap-3">
            <input type="hidden" name="messagesShown" value="1" />
            <input type="checkbox" name="notifyMessages" defaultChecked={preferences.notifyMessages} className="mt-1 h-4 w-4" />
            <span>
              <span className="font-medium">E-mail me about new messages</span>
              <span className="block text-sm text-slate-700">
                New messages in your proposals&apos; conversations, at most one e-mail per conversation every 10 minutes.
              </span>
            </span>
          </label>
        )}
        {role === "client" || role === "ambassador" ? (
          <label className="flex items-start gap-3">
            <input type="hidden" name="remindersShown" value="1" />
            <input type="checkbox" name="notifyReminders" defaultChecked={preferences.notifyReminders} className="mt-1 h-4 w-4" />
            <span>
              <span className="font-medium">E-mail me reminders</span>
              <span className="block text-sm text-slate-700">
                Automatic reminders before and after an invoice&apos;s due date, about proposals waiting for your answer and the day before
                a meeting.
              </span>
            </span>
          </label>
        ) : null}
        <Submit intent="preferences" pendingLabel="Saving…">
          Save preferences
        </Submit>
      </IntentForm>
    </Section>
  );
}
