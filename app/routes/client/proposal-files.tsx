import type { Route } from "./+types/proposal-files";
import { FilesPage } from "#app/features/conversations/components/files-page";
import { filesTabLoader } from "#app/features/conversations/files-route.server";

export const meta: Route.MetaFunction = ({ data }) => [
  { title: `Files: ${data?.label ?? "Proposal"} | Client Portal` },
  { name: "robots", content: "noindex" },
];

/** The conversation's Files tab (docs/product.md#files): every file shared in it, newest first. */
export const loader = (args: Route.LoaderArgs) => filesTabLoader(args);

export default function ProposalFiles({ loaderData }: Route.ComponentProps) {
  return <FilesPage data={loaderData} />;
}
