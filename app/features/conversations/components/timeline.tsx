import { Form, useNavigation } from "react-router";
import { LocalDateTime } from "#app/components/local-time";
import { Badge } from "#app/components/ui/badge";
import { buttonClass } from "#app/components/ui/button";
import type { FormReply } from "#app/lib/form-action.server";
import { MAX_MESSAGE_LENGTH } from "../conversations.messages";
import type { TimelineEntry } from "../thread-types";
import { FileChip, FileThumbnail } from "./file-chip";
import { MessageText } from "./message-text";

/**
 * The conversation's timeline, oldest first (docs/product.md#conversations-timeline): messages with
 * their author, role badge, local time and files; internal notes drawn apart; system events in a
 * lighter line; a "New" divider before the first unread message.
 */
export function Timeline({
  entries,
  firstUnreadId,
  reply,
  empty,
}: {
  entries: TimelineEntry[];
  firstUnreadId: number | null;
  reply?: FormReply | null;
  empty: string;
}) {
  if (entries.length === 0) return <p className="rounded-md border border-dashed border-slate-300 p-4 text-sm text-slate-600">{empty}</p>;
  return (
    <ol className="flex flex-col gap-3" aria-label="Timeline">
      {entries.map((entry) => (
        <li key={entry.key} id={entry.kind === "message" ? `message-${entry.id}` : undefined} className="scroll-mt-24">
          {entry.kind === "message" && entry.id === firstUnreadId ? (
            <div
              className="mb-3 flex items-center gap-2 text-xs font-semibold tracking-wide text-red-700 uppercase"
              data-testid="new-divider"
            >
              <span className="h-px flex-1 bg-red-300" />
              New
              <span className="h-px flex-1 bg-red-300" />
            </div>
          ) : null}
          {entry.kind === "message" ? <MessageEntry entry={entry} reply={reply} /> : <EventEntry entry={entry} />}
        </li>
      ))}
    </ol>
  );
}

type MessageEntryData = Extract<TimelineEntry, { kind: "message" }>;

function MessageEntry({ entry, reply }: { entry: MessageEntryData; reply?: FormReply | null }) {
  const tone = entry.internal
    ? "border-amber-300 bg-amber-50"
    : entry.role === "Agency"
      ? "border-slate-200 bg-white"
      : "border-brand-200 bg-brand-50/40";
  return (
    <article
      className={`rounded-lg border p-3 shadow-sm sm:p-4 ${tone}`}
      aria-label={`${entry.internal ? "Internal note" : "Message"} from ${entry.authorName}`}
      data-testid={entry.internal ? "internal-note" : "message"}
    >
      <header className="mb-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
        <span className="font-semibold text-slate-900">{entry.authorName}</span>
        <Badge tone={entry.role === "Agency" ? "violet" : "blue"}>{entry.role}</Badge>
        {entry.internal ? <Badge tone="amber">Internal note</Badge> : null}
        <span className="text-slate-600">
          <LocalDateTime value={entry.createdAt} />
        </span>
        {entry.edited && !entry.deleted ? <span className="text-xs text-slate-600">(edited)</span> : null}
        {entry.via === "email" ? <span className="text-xs text-slate-600">via e-mail</span> : null}
      </header>
      {entry.deleted ? (
        <p className="text-sm text-slate-600 italic">Message deleted</p>
      ) : (
        <>
          <MessageText text={entry.body} />
          {entry.files.length ? (
            <ul className="mt-2 flex flex-wrap gap-2" aria-label="Attachments">
              {entry.files.map((file) => (
                <li key={file.id} className="flex max-w-full flex-col gap-1">
                  <FileThumbnail file={file} />
                  <FileChip file={file} />
                </li>
              ))}
            </ul>
          ) : null}
          {entry.editableUntil ? <OwnMessageActions entry={entry} reply={reply} /> : null}
        </>
      )}
    </article>
  );
}

/** Edit (a disclosure with the text) and Delete (with a confirmation) for the author, within 15 minutes. */
function OwnMessageActions({ entry, reply }: { entry: MessageEntryData; reply?: FormReply | null }) {
  const navigation = useNavigation();
  const mine = reply?.target === String(entry.id) && (reply.intent === "edit-message" || reply.intent === "delete-message");
  const busy = navigation.state === "submitting" && navigation.formData?.get("messageId") === String(entry.id);
  return (
    <div className="mt-2 flex flex-wrap items-start gap-2 text-sm">
      <details className="group" open={mine && !reply?.ok ? true : undefined}>
        <summary className={`${buttonClass("secondary")} cursor-pointer list-none`}>Edit</summary>
        <Form method="post" className="mt-2 flex w-full min-w-64 flex-col gap-2" preventScrollReset>
          <input type="hidden" name="intent" value="edit-message" />
          <input type="hidden" name="messageId" value={entry.id} />
          <label className="text-sm font-medium text-slate-800" htmlFor={`edit-${entry.id}`}>
            Edit your message
          </label>
          <textarea
            id={`edit-${entry.id}`}
            name="text"
            rows={4}
            maxLength={MAX_MESSAGE_LENGTH}
            defaultValue={entry.body}
            required
            className="rounded-md border border-slate-300 px-3 py-2"
          />
          {mine && !reply?.ok && reply?.intent === "edit-message" ? (
            <p role="alert" className="text-sm text-red-700">
              {reply.message}
            </p>
          ) : null}
          <button type="submit" className={buttonClass("primary")} disabled={busy}>
            {busy ? "Saving…" : "Save changes"}
          </button>
        </Form>
      </details>
      <details>
        <summary className={`${buttonClass("secondary")} cursor-pointer list-none`}>Delete</summary>
        <Form method="post" className="mt-2 flex flex-col gap-2" preventScrollReset>
          <input type="hidden" name="intent" value="delete-message" />
          <input type="hidden" name="messageId" value={entry.id} />
          <p className="text-sm text-slate-700">Delete this message and its files for everyone?</p>
          <button type="submit" className={buttonClass("danger")} disabled={busy}>
            Yes, delete message
          </button>
        </Form>
      </details>
      {mine && reply?.intent === "delete-message" && !reply.ok ? (
        <p role="alert" className="text-sm text-red-700">
          {reply.message}
        </p>
      ) : null}
    </div>
  );
}

/** A system event: the System badge, who did what, when, and the quoted detail (a comment, a reason). */
export function EventEntry({
  entry,
}: {
  entry: Pick<Extract<TimelineEntry, { kind: "event" }>, "authorName" | "text" | "detail" | "createdAt">;
}) {
  return (
    <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1 px-1 text-sm text-slate-700" data-testid="system-event">
      <Badge tone="gray">System</Badge>
      <span>
        <span className="font-medium text-slate-900">{entry.authorName}</span> {entry.text}
      </span>
      <span className="text-xs text-slate-600">
        <LocalDateTime value={entry.createdAt} />
      </span>
      {entry.detail ? (
        <q className="basis-full border-l-2 border-slate-300 pl-3 whitespace-pre-wrap wrap-anywhere text-slate-800">{entry.detail}</q>
      ) : null}
    </div>
  );
}
