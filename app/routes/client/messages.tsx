import type { Route } from "./+types/messages";
import { PageHeading } from "#app/components/page-heading";
import { ClientConversationsCard } from "#app/features/conversations/components/client-conversations-card";
import { listClientConversations } from "#app/features/conversations/client-conversations.server";
import { actorAndDb } from "#app/features/users/session.server";
import { ANY_ROLE } from "#app/features/organisations/access.server";
import { requireOrganisationRoles } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Messages | Client Portal" }, { name: "robots", content: "noindex" }];

/**
 * Anyone in the organisation (docs/product.md#organisations): owners and members see every
 * conversation, a billing person those an owner added them to.
 */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(ANY_ROLE)];

/** The client's conversations, latest activity first, with their unread counts (docs/product.md#conversations-read). */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  return { rows: await listClientConversations(db, actor, 100) };
}

export default function ClientMessages({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <PageHeading title="Messages" lead="Your conversations with the agency, one per proposal. Open one to read and reply." />
      <ClientConversationsCard rows={loaderData.rows} />
    </>
  );
}
