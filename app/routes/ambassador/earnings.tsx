import type { Route } from "./+types/earnings";
import { PageHeading } from "#app/components/page-heading";

export const meta: Route.MetaFunction = () => [{ title: "Earnings" }];

export async function loader() {
  return {};
}

// Placeholder until its issue lands; the route and its guard exist (issue #3).
export default function Page() {
  return <PageHeading title="Earnings" lead="This screen is being built." />;
}
