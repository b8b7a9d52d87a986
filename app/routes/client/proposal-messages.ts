import type { Route } from "./+types/proposal-messages";
import { messagesAction, messagesLoader } from "#app/features/conversations/files-route.server";

/** GET: 404 (the conversation is on the proposal page). */
export const loader = () => messagesLoader();

/** The composer's upload request with JavaScript (docs/product.md#conversations): JSON reply, progress shown by the browser. */
export const action = (args: Route.ActionArgs) => messagesAction(args);
