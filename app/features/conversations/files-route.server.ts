/** The loaders of the conversation's Files tab and downloads, shared by the client's and the admin's routes. */
import type { RouterContextProvider } from "react-router";
import { servicesContext } from "#app/context";
import { requireUser } from "#app/features/users/session.server";
import { paramId } from "#app/lib/ids";
import { CONVERSATION_MESSAGES } from "./conversations.schema";
import { downloadFile, messagesEndpoint } from "./thread-route.server";
import { listThreadFiles } from "./timeline.server";
import { notFound } from "#app/lib/errors";

type Args = { request: Request; params: Record<string, string | undefined>; context: Readonly<RouterContextProvider> };

/** The Files tab's data. @throws {AppError} 404 unless the reader takes part. */
export async function filesTabLoader({ params, context }: Args) {
  const proposalId = paramId(params.proposalId, CONVERSATION_MESSAGES.notFound);
  const { db } = context.get(servicesContext);
  return { proposalId, ...(await listThreadFiles(db, requireUser(context), proposalId)) };
}

/** One file's bytes. @throws {AppError} 404 "File not found" for anyone else. */
export function fileDownloadLoader(args: Args) {
  return downloadFile(args, paramId(args.params.proposalId, "File not found"), paramId(args.params.fileId, "File not found"));
}

/** POST: the composer's upload request (JSON). */
export function messagesAction(args: Args) {
  return messagesEndpoint(args, paramId(args.params.proposalId, CONVERSATION_MESSAGES.notFound));
}

/** GET on the upload endpoint: there is nothing to read there (404); the conversation is on the proposal page. */
export function messagesLoader(): never {
  throw notFound("Not found");
}
