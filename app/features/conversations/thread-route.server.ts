/**
 * What the conversation's routes share (docs/product.md#conversations): the services, the
 * composer's post (multipart, streamed; answered as a form reply, a redirect without JavaScript,
 * or JSON for the upload-progress request), the edit/delete intents, and file downloads with
 * Range support.
 */
import { data, redirect, type RouterContextProvider } from "react-router";
import { servicesContext } from "#app/context";
import { AppError } from "#app/lib/errors";
import { formId, runIntent, type FormReply, type RequestRef } from "#app/lib/form-action.server";
import { logger } from "#app/lib/logger.server";
import { requireUser } from "#app/features/users/session.server";
import { INLINE_TYPES, THUMBNAIL_TYPES } from "#app/features/files/file-kinds";
import { imageThumbnail } from "#app/features/files/thumbnail.server";
import { filesContext } from "#app/features/files/files-context";
import { CONVERSATION_MESSAGES, MAX_MESSAGE_LENGTH, visibilitySchema } from "./conversations.schema";
import { deleteMessage, editMessage } from "./edit-message.server";
import { setBillingInConversation } from "./participants.server";
import { setConversationMuted } from "./mute.server";
import { readMessageForm } from "./message-form.server";
import { postMessage, type ConversationServices } from "./post-message.server";
import { sideOf, threadAccess, type ThreadAccess } from "./thread-access.server";
import { threadPath } from "./thread-paths";
import { getFileForDownload } from "./timeline.server";
import { parseSubmissionKey, SUBMISSION_KEY_FIELD } from "#app/features/submissions/submission-key.server";

/** The composer's reply: a form reply, with the text kept on refusal and the new message's id on success. */
export interface ComposerReply extends FormReply {
  /** The text as posted (refusals only), so the field keeps it. */
  text?: string;
  messageId?: number;
}

/** @returns the services posting needs, from the router context. */
export function conversationServices(context: Readonly<RouterContextProvider>): ConversationServices {
  const services = context.get(servicesContext);
  return { db: services.db, files: context.get(filesContext), maxUploadMb: services.env.MAX_UPLOAD_MB };
}

/** True for a browser prefetch (the reader has not seen the page: nothing is marked read). */
export function isPrefetch(request: Request): boolean {
  return /prefetch/i.test(request.headers.get("sec-purpose") ?? request.headers.get("purpose") ?? "");
}

/**
 * True when the body declares a length that only text fits in (a message's 10,000 characters as
 * UTF-8, with the form's boundaries): no file worth checking access for before reading it.
 */
function smallBody(request: Request): boolean {
  const length = Number(request.headers.get("content-length") ?? NaN);
  return Number.isSafeInteger(length) && length <= MAX_MESSAGE_LENGTH * 4 + 4096;
}

function isMultipart(request: Request): boolean {
  return /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "");
}

/**
 * Reads the composer's multipart post and posts the message.
 *
 * @returns the reply and its HTTP status.
 */
export async function postFromRequest(ref: RequestRef, proposalId: number): Promise<{ reply: ComposerReply; status: number }> {
  const actor = requireUser(ref.context);
  const s = conversationServices(ref.context);
  // Who may post is checked before a byte of an upload is stored (404 for anyone else): before
  // the body is read when it may hold a file, else at its first file; a text-only post is checked
  // by the posting statement itself.
  let access: Promise<ThreadAccess> | undefined;
  const checkAccess = () => (access ??= threadAccess(s.db, actor, proposalId));
  if (!smallBody(ref.request)) await checkAccess();
  let text = "";
  try {
    const form = await readMessageForm(s, ref.request, async () => {
      const { actorName, proposalId: id } = await checkAccess();
      return { id: actor.id, name: actorName, proposalId: id };
    });
    text = form.fields.text ?? "";
    const visibility = visibilitySchema.parse(form.fields.visibility);
    const posted = await postMessage(s, {
      author: actor,
      proposalId,
      text,
      attachments: form.files,
      visibility,
      submissionKey: parseSubmissionKey(form.fields[SUBMISSION_KEY_FIELD]),
    });
    return {
      reply: {
        ok: true,
        intent: "post-message",
        message: visibility === "internal" ? CONVERSATION_MESSAGES.notePosted : CONVERSATION_MESSAGES.posted,
        messageId: posted.id,
      },
      status: 200,
    };
  } catch (error) {
    if (error instanceof AppError) {
      return {
        reply: { ok: false, intent: "post-message", message: error.message, fieldErrors: error.fieldErrors, text: text.slice(0, 20_000) },
        status: error.status,
      };
    }
    if (!ref.request.signal.aborted) logger.error({ err: error, proposalId }, "posting a message failed");
    return {
      reply: { ok: false, intent: "post-message", message: CONVERSATION_MESSAGES.failed, text: text.slice(0, 20_000) },
      status: 500,
    };
  }
}

/** The form intents {@link conversationAction} answers (other intents fall through to the page's own). */
const CONVERSATION_INTENTS = new Set([
  "edit-message",
  "delete-message",
  "mute-conversation",
  "unmute-conversation",
  "add-billing",
  "remove-billing",
]);

/**
 * The conversation's part of a proposal page's action: a multipart post is a new message (a
 * redirect to it on success, the reply with the text kept on refusal); `edit-message` and
 * `delete-message` are the author's changes; `add-billing` / `remove-billing` an owner's choice of
 * billing colleagues in it (participants.server.ts).
 *
 * @returns the answer, or null when the request is not for the conversation (the page's other intents).
 */
export async function conversationAction(ref: RequestRef, proposalId: number) {
  if (isMultipart(ref.request)) {
    const { reply, status } = await postFromRequest(ref, proposalId);
    if (reply.ok) {
      return redirect(`${threadPath(sideOf(requireUser(ref.context)), proposalId)}#message-${reply.messageId}`, 303);
    }
    return data<ComposerReply>(reply, status);
  }
  const intent = (await ref.request.clone().formData()).get("intent");
  if (!CONVERSATION_INTENTS.has(String(intent))) return null;
  const actor = requireUser(ref.context);
  const s = conversationServices(ref.context);
  return runIntent(
    ref,
    {
      "edit-message": async (form) => {
        const text = form.get("text");
        await editMessage(s, actor, { proposalId, messageId: formId(form, "messageId"), text: typeof text === "string" ? text : "" });
        return CONVERSATION_MESSAGES.edited;
      },
      "delete-message": async (form) => {
        await deleteMessage(s, actor, { proposalId, messageId: formId(form, "messageId") });
        return CONVERSATION_MESSAGES.deleted;
      },
      // docs/product.md#organisation-notifications: each person mutes a conversation's mails for themselves.
      "mute-conversation": async () => {
        await setConversationMuted(s.db, actor, proposalId, true);
        return CONVERSATION_MESSAGES.muted;
      },
      "unmute-conversation": async () => {
        await setConversationMuted(s.db, actor, proposalId, false);
        return CONVERSATION_MESSAGES.unmuted;
      },
      // ADR 022: an owner adds a billing colleague to this one conversation, or removes them.
      "add-billing": async (form) => {
        await setBillingInConversation(s.db, actor, { proposalId, userId: String(form.get("userId") ?? ""), added: true });
        return CONVERSATION_MESSAGES.billingAdded;
      },
      "remove-billing": async (form) => {
        await setBillingInConversation(s.db, actor, { proposalId, userId: String(form.get("userId") ?? ""), added: false });
        return CONVERSATION_MESSAGES.billingRemoved;
      },
    },
    { target: "messageId" },
  );
}

/**
 * A small JSON answer with its length declared: the server's compression leaves a body under 1 KB
 * as it is only when it knows the length (a streamed body of unknown length is always gzipped,
 * which for a reply of a hundred bytes costs more than it saves).
 */
function jsonAnswer(body: unknown, status: number): Response {
  const text = JSON.stringify(body);
  return new Response(text, {
    status,
    headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(text)), "Cache-Control": "no-store" },
  });
}

/** The upload-progress request's answer (JSON): the same post as the page's, for `XMLHttpRequest`. */
export async function messagesEndpoint(ref: RequestRef, proposalId: number): Promise<Response> {
  if (!isMultipart(ref.request)) return jsonAnswer({ ok: false, message: "Send the message as a form with files." }, 400);
  const { reply, status } = await postFromRequest(ref, proposalId);
  return jsonAnswer(reply, status);
}

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` against a size; null when absent or unsatisfiable/multiple (then the whole file or 416). */
export function parseRange(header: string | null, size: number): { start: number; end: number } | "unsatisfiable" | null {
  if (!header) return null;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return null;
  let start: number;
  let end: number;
  if (match[1] === "") {
    const suffix = Number(match[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(size - suffix, 0);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start > end || start >= size) return "unsatisfiable";
  return { start, end };
}

/** RFC 6266/5987 `Content-Disposition` with an ASCII fallback and the UTF-8 name. */
export function contentDisposition(kind: "attachment" | "inline", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)}`;
}

/**
 * A file download (docs/product.md#files): the conversation's access rule (404 for anyone else),
 * `Content-Disposition: attachment` (images and PDFs inline with `?inline=1`, sandboxed), the
 * stored length, `Accept-Ranges` and single `Range` requests (206 / 416).
 */
export async function downloadFile(ref: RequestRef, proposalId: number, fileId: number): Promise<Response> {
  const actor = requireUser(ref.context);
  const { db, files } = conversationServices(ref.context);
  const file = await getFileForDownload(db, actor, proposalId, fileId);
  const url = new URL(ref.request.url);
  if (url.searchParams.get("thumb") === "1") return thumbnailResponse(files, file);
  const inline = url.searchParams.get("inline") === "1" && INLINE_TYPES.has(file.contentType);
  const headers = new Headers({
    "Content-Type": file.contentType,
    "Content-Disposition": contentDisposition(inline ? "inline" : "attachment", file.name),
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'",
    "Cache-Control": "private, no-store, no-transform",
    "Accept-Ranges": "bytes",
  });
  const range = parseRange(ref.request.headers.get("range"), file.size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${file.size}`);
    return new Response(null, { status: 416, headers });
  }
  const body = await files.get(file.storageKey, range ?? undefined);
  if (!body) throw new AppError("NOT_FOUND", "File not found");
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${file.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(ref.request.method === "HEAD" ? null : body, { status: 206, headers });
  }
  headers.set("Content-Length", String(file.size));
  return new Response(ref.request.method === "HEAD" ? null : body, { status: 200, headers });
}

/**
 * `?thumb=1` (issue #41): an image's thumbnail (WebP), after the same access check as the download.
 *
 * @throws {AppError} 404 "File not found" for a file that is not an image, or whose bytes are gone.
 */
async function thumbnailResponse(
  files: ReturnType<typeof conversationServices>["files"],
  file: { storageKey: string; contentType: string; name: string },
): Promise<Response> {
  if (!THUMBNAIL_TYPES.has(file.contentType)) throw new AppError("NOT_FOUND", "File not found");
  const body = await files.get(file.storageKey);
  if (!body) throw new AppError("NOT_FOUND", "File not found");
  const thumbnail = await imageThumbnail(new Uint8Array(await new Response(body).arrayBuffer()));
  return new Response(Uint8Array.from(thumbnail), {
    status: 200,
    headers: {
      "Content-Type": "image/webp",
      "Content-Disposition": contentDisposition("inline", `${file.name}.webp`),
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "sandbox; default-src 'none'",
      // Private to this browser: a file's bytes never change, its access may (checked again after a day).
      "Cache-Control": "private, max-age=86400",
      "Content-Length": String(thumbnail.length),
    },
  });
}
