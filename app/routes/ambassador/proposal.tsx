import { Link } from "react-router";
import type { Route } from "./+types/proposal";
import { LocalDateTime } from "#app/components/local-time";
import { EventEntry } from "#app/features/conversations/components/timeline";
import { ProposalStatusBadge } from "#app/features/proposals/components/proposal-status-badge";
import { getStatusEventsForAmbassador } from "#app/features/conversations/timeline.server";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.schema";
import { actorAndDb } from "#app/features/users/session.server";
import { paramId } from "#app/lib/ids";
import type { ProposalStatus } from "#app/db/enums";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `${data?.proposal.projectName || "Proposal"} | Ambassador Portal` },
  { name: "robots", content: "noindex" },
];

/**
 * A proposal the ambassador submitted, read-only (docs/product.md#conversations): its status and
 * status events — never the conversation's messages or files.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  return getStatusEventsForAmbassador(db, actor, paramId(params.proposalId, PROPOSAL_MESSAGES.notFound));
}

export default function AmbassadorProposal({ loaderData }: Route.ComponentProps) {
  const { proposal: p, events } = loaderData;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <p className="text-sm">
        <Link to="/ambassador/dashboard" className="text-brand-700 underline">
          ← Dashboard
        </Link>
      </p>
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold tracking-tight wrap-anywhere">{p.projectName || `Proposal #${p.id}`}</h1>
          <p className="mt-1 text-sm text-slate-600">
            For {p.clientName ?? "your client"} · submitted <LocalDateTime value={p.createdAt} style="date" />
          </p>
        </div>
        <ProposalStatusBadge status={p.status as ProposalStatus} />
      </header>
      <section aria-labelledby="status-history-title" className="flex flex-col gap-3">
        <h2 id="status-history-title" className="text-xl font-semibold">
          Status history
        </h2>
        <p className="text-sm text-slate-600">The conversation between your client and the agency stays between them.</p>
        {events.length === 0 ? (
          <p className="text-sm text-slate-600">No status change yet.</p>
        ) : (
          <ol className="flex flex-col gap-2">
            {events.map((e) => (
              <li key={e.id}>
                <EventEntry entry={e} />
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
