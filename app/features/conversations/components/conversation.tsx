import { useState } from "react";
import { Form, Link } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import type { FormReply } from "#app/lib/form-action.server";
import { filesPath, threadPath } from "../thread-paths";
import type { ThreadView } from "../thread-types";
import { Composer, type ComposerResult } from "./composer";
import { Timeline } from "./timeline";

/**
 * A proposal's conversation on its page (docs/product.md#conversations): the tabs (Conversation,
 * Files), the timeline and the composer. The page passes what its loader read (`getThread`) and
 * its action's reply.
 */
export function Conversation({
  thread,
  reply,
  maxUploadMb,
  muted,
  submissionKey,
}: {
  thread: ThreadView;
  reply?: (FormReply & ComposerResult) | null;
  maxUploadMb: number;
  /** The composer's idempotency key from the loader (issue #36). */
  submissionKey: string;
  /** For a client: whether they muted this conversation's mails (absent: no mute control). */
  muted?: boolean;
}) {
  const agency = thread.side === "agency";
  const firstUnreadId = useStickyDivider(thread);
  return (
    <section id="conversation" aria-labelledby="conversation-title" className="flex scroll-mt-20 flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-2 border-b border-slate-200">
        <h2 id="conversation-title" className="pb-2 text-xl font-semibold">
          Conversation
        </h2>
        <ThreadTabs side={thread.side} proposalId={thread.proposalId} fileCount={thread.fileCount} current="conversation" />
      </div>
      {muted !== undefined ? (
        <Form method="post" className="flex flex-wrap items-center gap-2 text-sm text-slate-700" preventScrollReset>
          <input type="hidden" name="intent" value={muted ? "unmute-conversation" : "mute-conversation"} />
          <span>{muted ? "You get no e-mails about this conversation." : "You get an e-mail about new messages."}</span>
          <button type="submit" className={buttonClass("secondary")}>
            {muted ? "Unmute e-mails" : "Mute e-mails"}
          </button>
          {reply?.intent === "mute-conversation" || reply?.intent === "unmute-conversation" ? (
            <span role="status" className="font-medium text-green-800">
              {reply.message}
            </span>
          ) : null}
        </Form>
      ) : null}
      <Timeline
        entries={thread.entries}
        firstUnreadId={firstUnreadId}
        reply={reply}
        empty={
          agency ? "No messages yet. Write to the client below." : "No messages yet. Ask the agency anything about this project below."
        }
      />
      <Composer
        endpoint={`${threadPath(thread.side, thread.proposalId)}/messages`}
        canWriteNotes={agency}
        maxUploadMb={maxUploadMb}
        reply={reply}
        submissionKey={submissionKey}
      />
    </section>
  );
}

/** The conversation's two tabs: links, so they work without JavaScript and can be bookmarked. */
export function ThreadTabs({
  side,
  proposalId,
  fileCount,
  current,
}: {
  side: "client" | "agency";
  proposalId: number;
  fileCount: number;
  current: "conversation" | "files";
}) {
  const tab = (active: boolean) =>
    `-mb-px border-b-2 px-3 py-2 text-sm font-medium ${active ? "border-brand-700 text-brand-800" : "border-transparent text-slate-700 hover:text-brand-700"}`;
  return (
    <nav aria-label="Conversation tabs" className="flex gap-1">
      <Link
        to={`${threadPath(side, proposalId)}#conversation`}
        className={tab(current === "conversation")}
        aria-current={current === "conversation" ? "page" : undefined}
      >
        Conversation
      </Link>
      <Link to={filesPath(side, proposalId)} className={tab(current === "files")} aria-current={current === "files" ? "page" : undefined}>
        Files ({fileCount})
      </Link>
    </nav>
  );
}

/**
 * Where the "New" divider stays while the page is open: opening the thread marks it read, so the
 * next reload of the page's data (a live update, a message sent) reports nothing unread — the
 * divider keeps the place it had when the reader arrived (or the first unread message seen since),
 * and starts again with another thread.
 */
function useStickyDivider(thread: ThreadView): number | null {
  const [kept, setKept] = useState({ proposalId: thread.proposalId, id: thread.firstUnreadId });
  const same = kept.proposalId === thread.proposalId;
  if (!same || (kept.id === null && thread.firstUnreadId !== null)) setKept({ proposalId: thread.proposalId, id: thread.firstUnreadId });
  return same ? (kept.id ?? thread.firstUnreadId) : thread.firstUnreadId;
}
