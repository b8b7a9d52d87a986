/** The loaders of the conversation's Files tab and downloads, shared by the client's and the admin's routes. */
import type { RouterContextProvider } from "react-router";
import { servicesContext } from "#app/context";
import { requireUser } from "#app/features/users/session.server";
import { paramId } from "#app/lib/ids";
import { CONVERSATION_MESSAGES } from "./conversations.schema";
import { downloadFile, messagesEndpoint } from "./thread-route.server";
import { listThreadFiles } from "./timeline.server";
import { notFound } from "#app/lib/errors";
import { formatBytes } from "#app/features/files/file-kinds";
import { storageOfProposal } from "#app/features/files/uploads.server";

type Args = { request: Request; params: Record<string, string | undefined>; context: Readonly<RouterContextProvider> };

/**
 * The Files tab's data, with the storage the client organisation uses of its quota (#36), in words.
 *
 * @throws {AppError} 404 unless the reader takes part (checked before the storage is read).
 */
export async function filesTabLoader({ params, context }: Args) {
  const proposalId = paramId(params.proposalId, CONVERSATION_MESSAGES.notFound);
  const { db } = context.get(servicesContext);
  const files = await listThreadFiles(db, requireUser(context), proposalId);
  const { usedBytes, quotaBytes } = await storageOfProposal(db, proposalId);
  return { proposalId, ...files, storage: `${formatBytes(usedBytes)} of ${formatBytes(quotaBytes)} of storage used` };
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
