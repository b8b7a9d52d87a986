import type { Route } from "./+types/proposal-messages";
import { messagesAction, messagesLoader } from "#app/features/conversations/files-route.server";

/** GET: back to the conversation. */
export const loader = (args: Route.LoaderArgs) => messagesLoader(args);

/** The composer's upload request with JavaScript (docs/product.md#conversations): JSON reply, progress shown by the browser. */
export const action = (args: Route.ActionArgs) => messagesAction(args);
