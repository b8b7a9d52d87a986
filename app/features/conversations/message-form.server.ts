/**
 * Reading the composer's multipart form as it streams in (docs/product.md#files): busboy parses
 * the body part by part; each file is streamed straight into the `FileStore` as a pending upload
 * (`storePendingFile`), so a 25 MB file is never held whole in memory. The first refusal (a file
 * too large, empty or of a kind we do not take, an 11th file, a cut or malformed body) is kept,
 * the rest of the body is read and dropped, and every file stored so far is discarded before the
 * refusal is thrown: a refused post leaves nothing behind.
 */
import { Readable } from "node:stream";
import busboy from "busboy";
import { FILE_MESSAGES, MAX_FILES_PER_MESSAGE } from "#app/features/files/file-kinds";
import { discardFiles, storePendingFile, type PendingFile } from "#app/features/files/uploads.server";
import { AppError } from "#app/lib/errors";
import { MAX_MESSAGE_LENGTH } from "./conversations.schema";
import type { ConversationServices } from "./post-message.server";

/** The composer's fields and its stored (pending) files. */
export interface MessageForm {
  fields: Record<string, string>;
  files: PendingFile[];
}

const fileRefusal = (message: string) => new AppError("INVALID_INPUT", message, { fieldErrors: { files: [message] } });

/**
 * @param request - a `multipart/form-data` request (the body guard let it through unread, bounded).
 * @param uploader - who uploads, into which conversation: called before the first file is stored
 *   (it checks that they take part in it, and throws otherwise — that refusal is the form's).
 * @returns the text fields and the pending files.
 * @throws {AppError} INVALID_INPUT on `files` with the first refusal (nothing stays stored), or
 *   "malformed" when the body is not a form.
 */
export async function readMessageForm(
  s: ConversationServices,
  request: Request,
  uploader: () => Promise<{ id: string; name: string; proposalId: number }>,
): Promise<MessageForm> {
  const fields: Record<string, string> = {};
  const files: PendingFile[] = [];
  let refusal: AppError | null = null;
  let work = Promise.resolve();
  let current: Readable | null = null;
  const maxBytes = s.maxUploadMb * 1024 * 1024;
  if (!request.body) throw fileRefusal(FILE_MESSAGES.malformed);

  try {
    await new Promise<void>((resolve, reject) => {
      let parser: busboy.Busboy;
      try {
        parser = busboy({
          headers: { "content-type": request.headers.get("content-type") ?? "" },
          defParamCharset: "utf8",
          limits: {
            fields: 20,
            fieldSize: MAX_MESSAGE_LENGTH * 4 + 1024,
            files: MAX_FILES_PER_MESSAGE + 1,
            fileSize: maxBytes + 1,
            parts: 40,
            headerPairs: 20,
          },
        });
      } catch {
        reject(fileRefusal(FILE_MESSAGES.malformed));
        return;
      }
      parser.on("field", (name, value) => {
        if (!(name in fields)) fields[name] = value;
      });
      parser.on("file", (name, stream, info) => {
        if (name !== "files" || refusal || !info.filename) {
          stream.resume();
          return;
        }
        if (files.length + 1 > MAX_FILES_PER_MESSAGE) {
          refusal = fileRefusal(FILE_MESSAGES.tooMany);
          stream.resume();
          return;
        }
        stream.pause();
        work = work.then(async () => {
          if (refusal) return void stream.resume();
          current = stream;
          try {
            const who = await uploader();
            files.push(await storePendingFile(s, { proposalId: who.proposalId, uploader: who, name: info.filename, content: stream }));
          } catch (error) {
            refusal ??= error instanceof AppError ? error : fileRefusal(FILE_MESSAGES.cut);
          } finally {
            current = null;
            stream.resume();
          }
        });
      });
      parser.on("filesLimit", () => (refusal ??= fileRefusal(FILE_MESSAGES.tooMany)));
      parser.on("error", () => reject(fileRefusal(FILE_MESSAGES.cut)));
      parser.on("close", () => resolve());
      const body = Readable.fromWeb(request.body as import("node:stream/web").ReadableStream<Uint8Array>);
      body.on("error", () => {
        refusal ??= fileRefusal(FILE_MESSAGES.cut);
        current?.destroy(new Error("upload cut"));
        parser.destroy(fileRefusal(FILE_MESSAGES.cut));
        reject(fileRefusal(FILE_MESSAGES.cut));
      });
      body.pipe(parser);
    });
    await work;
  } catch (error) {
    await work.catch(() => undefined);
    await discardFiles(
      s,
      files.map((f) => f.id),
    );
    throw error;
  }
  if (refusal) {
    await discardFiles(
      s,
      files.map((f) => f.id),
    );
    throw refusal;
  }
  return { fields, files };
}
