import type { Route } from "./+types/edit-proposal";
import { PageHeading } from "#app/components/page-heading";

export const meta: Route.MetaFunction = () => [{ title: "Edit Proposal" }];

export async function loader() {
  return {};
}

// Placeholder until its issue lands; the route and its guard exist (issue #3).
export default function Page() {
  return <PageHeading title="Edit Proposal" lead="This screen is being built." />;
}
