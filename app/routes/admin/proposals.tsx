import type { Route } from "./+types/proposals";
import { PageHeading } from "#app/components/page-heading";

export const meta: Route.MetaFunction = () => [{ title: "Proposals" }];

export async function loader() {
  return {};
}

// Placeholder until its issue lands; the route and its guard exist (issue #3).
export default function Page() {
  return <PageHeading title="Proposals" lead="This screen is being built." />;
}
