import type { Route } from "./+types/generate-invoice";
import { PageHeading } from "#app/components/page-heading";

export const meta: Route.MetaFunction = () => [{ title: "Generate Invoice" }];

export async function loader() {
  return {};
}

// Placeholder until its issue lands; the route and its guard exist (issue #3).
export default function Page() {
  return <PageHeading title="Generate Invoice" lead="This screen is being built." />;
}
