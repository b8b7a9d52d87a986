import { Link } from "react-router";
import { LocalDateTime } from "#app/components/local-time";
import { CardSection } from "#app/components/ui/card-section";
import type { ClientConversationRow } from "../client-conversations.server";
import { UnreadBadge } from "./unread-badge";

/** The client dashboard's conversations (docs/product.md#conversations-read): each proposal with its unread count. */
export function ClientConversationsCard({ rows }: { rows: ClientConversationRow[] }) {
  return (
    <div id="conversations" className="scroll-mt-20">
      <CardSection id="conversations-title" title="Conversations">
        {rows.length === 0 ? (
          <p className="text-sm text-slate-600">When you request a proposal, you can talk with the agency about it here.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-slate-200">
            {rows.map((row) => (
              <li key={row.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="min-w-0 wrap-anywhere">
                  <Link
                    to={`/proposals/${row.id}#conversation`}
                    className={`text-brand-700 underline ${row.unread ? "font-semibold" : ""}`}
                  >
                    {row.projectName}
                  </Link>
                  <UnreadBadge count={row.unread} testId={`conversation-unread-${row.id}`} />
                </span>
                <span className="text-xs text-slate-600">
                  {row.lastActivityAt ? (
                    <>
                      Last message <LocalDateTime value={row.lastActivityAt} />
                    </>
                  ) : (
                    "No messages yet"
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
      </CardSection>
    </div>
  );
}
