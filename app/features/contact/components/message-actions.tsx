/**
 * The owner's actions on one contact message (docs/product.md#admin-messages), the same in the
 * inbox list and on the message's own page: "Mark handled" / "Mark not handled", and Delete
 * behind a confirmation step.
 */
import { Form, useNavigation } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import { ConfirmLink, ConfirmPanel } from "#app/components/ui/confirm";
import { useActionHref } from "#app/components/ui/action-href";

/** What the actions need to know about the message. */
export interface MessageActionTarget {
  id: number;
  userName: string;
  handled: boolean;
}

/**
 * The handled toggle and the Delete link (which opens {@link DeleteMessagePanel}).
 *
 * @param size - "sm" in the list, "md" on the message's page.
 */
export function MessageActions({ message, size = "sm" }: { message: MessageActionTarget; size?: "sm" | "md" }) {
  const navigation = useNavigation();
  const actionHref = useActionHref();
  const intent = message.handled ? "unhandled" : "handled";
  const label = message.handled ? "Mark not handled" : "Mark handled";
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("messageId") === String(message.id) &&
    navigation.formData?.get("intent") === intent;
  return (
    <div className="flex flex-wrap gap-2">
      <Form method="post" action={actionHref} preventScrollReset>
        <input type="hidden" name="intent" value={intent} />
        <input type="hidden" name="messageId" value={message.id} />
        <button
          type="submit"
          className={buttonClass("secondary", size)}
          disabled={pending}
          aria-label={`${label}: message from ${message.userName}`}
        >
          {pending ? "Saving…" : label}
        </button>
      </Form>
      <ConfirmLink kind="delete-message" target={message.id} label={`Delete the message from ${message.userName}`}>
        Delete
      </ConfirmLink>
    </div>
  );
}

/**
 * The confirmation of Delete.
 *
 * @param action - where the deletion posts (default: this page's action); the message's own
 *   page posts to the inbox, which shows the notice.
 */
export function DeleteMessagePanel({ message, action }: { message: Pick<MessageActionTarget, "id" | "userName">; action?: string }) {
  return (
    <ConfirmPanel
      title={`Delete the message from ${message.userName}?`}
      intent="delete-message"
      fields={{ messageId: message.id }}
      confirmLabel="Yes, delete message"
      action={action}
    >
      This cannot be undone.
    </ConfirmPanel>
  );
}
