import type { Route } from "./+types/project-status";
import { PageHeading } from "#app/components/page-heading";

export const meta: Route.MetaFunction = () => [{ title: "Project Status" }];

export async function loader() {
  return {};
}

// Placeholder until its issue lands; the route and its guard exist (issue #3).
export default function Page() {
  return <PageHeading title="Project Status" lead="This screen is being built." />;
}
