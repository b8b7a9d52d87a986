import type { Route } from "./+types/proposal-file";
import { fileDownloadLoader } from "#app/features/conversations/files-route.server";

/** One shared file (docs/product.md#files): the conversation's access rule, attachment, Range requests. */
export const loader = (args: Route.LoaderArgs) => fileDownloadLoader(args);
