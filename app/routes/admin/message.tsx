import { Link } from "react-router";
import type { Route } from "./+types/message";
import { PageHeading } from "#app/components/page-heading";
import { LocalTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { buttonClass } from "#app/components/ui/button";
import { useIsConfirming } from "#app/components/ui/confirm";
import { ActionNotice } from "#app/components/ui/notice";
import { owner } from "#app/content/site";
import { DeleteMessagePanel, MessageActions } from "#app/features/contact/components/message-actions";
import { inboxIntents, openContactMessage, replyHref } from "#app/features/contact/inbox.server";
import { runIntent } from "#app/lib/form-action.server";
import { paramId } from "#app/lib/ids";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.message.userName ? `Message from ${data.message.userName}` : "Message"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

const NOT_FOUND = "Message not found";

/** A browser prefetch (speculation rules, `<link rel=prefetch>`): the owner has not seen the page. */
function isPrefetch(request: Request): boolean {
  return /prefetch/i.test(request.headers.get("sec-purpose") ?? request.headers.get("purpose") ?? "");
}

/** One message whole; opening it marks it read (not when the browser only prefetches it). docs/product.md#admin-messages */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const message = await openContactMessage(db, actor, paramId(params.messageId, NOT_FOUND), { markRead: !isPrefetch(request) });
  return { message: { ...message, createdAt: message.createdAt.toISOString() }, reply: replyHref(message, owner.name) };
}

/** `handled` / `unhandled` (delete posts to the list, which shows its notice). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  paramId(args.params.messageId, NOT_FOUND);
  const { handled, unhandled } = inboxIntents(db, actor);
  return runIntent(args, { handled, unhandled }, { target: "messageId" });
}

/** /admin/messages/{messageId}: sender, date, the whole text, reply by e-mail, handled toggle, delete. */
export default function AdminMessage({ loaderData, actionData }: Route.ComponentProps) {
  const { message, reply } = loaderData;
  const isConfirming = useIsConfirming();
  return (
    <>
      <PageHeading title={`Message from ${message.userName}`}>
        <Link to="/admin/messages" className="text-brand-700 underline">
          ← Back to messages
        </Link>
      </PageHeading>
      <ActionNotice result={actionData} className="mb-4" />
      <article className="rounded-lg border border-slate-200 bg-white">
        <dl className="grid gap-x-6 gap-y-2 border-b border-slate-200 p-4 text-sm sm:grid-cols-[auto_1fr]">
          <dt className="font-medium text-slate-600">From</dt>
          <dd>{message.userName}</dd>
          <dt className="font-medium text-slate-600">E-mail</dt>
          <dd className="break-all">
            <a href={`mailto:${message.userEmail}`} className="text-brand-700 underline">
              {message.userEmail}
            </a>
          </dd>
          <dt className="font-medium text-slate-600">Phone</dt>
          <dd>
            {message.userPhone ? (
              <a href={`tel:${message.userPhone.replace(/[^0-9+]/g, "")}`} className="text-brand-700 underline">
                {message.userPhone}
              </a>
            ) : (
              "—"
            )}
          </dd>
          <dt className="font-medium text-slate-600">Received</dt>
          <dd>
            <LocalTime value={message.createdAt} />
          </dd>
          <dt className="font-medium text-slate-600">Status</dt>
          <dd className="flex gap-2" data-testid="message-status">
            {message.handledAt ? <Badge tone="green">Handled</Badge> : <Badge tone="gray">Not handled</Badge>}
          </dd>
        </dl>
        <div className="p-4 leading-relaxed break-words whitespace-pre-wrap text-slate-900">{message.message}</div>
      </article>
      <div className="mt-4 flex flex-wrap gap-2">
        <a href={reply} className={buttonClass("primary", "md")}>
          Reply by e-mail
        </a>
        <MessageActions message={{ id: message.id, userName: message.userName, handled: message.handledAt !== null }} size="md" />
      </div>
      {isConfirming("delete-message", message.id) ? (
        <div className="mt-4 rounded-lg border border-red-200 bg-red-50/40 p-4">
          <DeleteMessagePanel message={message} action="/admin/messages" />
        </div>
      ) : null}
    </>
  );
}
