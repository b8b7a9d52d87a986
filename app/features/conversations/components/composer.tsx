import { useEffect, useRef, useState, type DragEvent, type FormEvent, type KeyboardEvent } from "react";
import { useRevalidator } from "react-router";
import { buttonClass } from "#app/components/ui/button";
import { ACCEPT_ATTRIBUTE, formatBytes, MAX_FILES_PER_MESSAGE } from "#app/features/files/file-kinds";
import { CONVERSATION_MESSAGES, MAX_MESSAGE_LENGTH } from "../conversations.messages";
import { SUBMISSION_KEY_FIELD } from "#app/features/submissions/submission-key";

/** A new idempotency key in the browser (a UUID where available, else 128 random bits in hex). */
function freshKey(): string {
  if (typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** What the composer shows after a post: the server's reply (a form reply, or the JSON of the upload request). */
export interface ComposerResult {
  ok: boolean;
  message: string;
  fieldErrors?: Record<string, string[]>;
  text?: string;
  intent?: string;
}

/**
 * The composer (docs/product.md#conversations): a textarea (1–10,000 characters; Ctrl/Cmd+Enter
 * sends), files by picker or drag and drop (up to 10, `MAX_UPLOAD_MB` each), and for admins the
 * choice of a message or an internal note. Without JavaScript it is a plain multipart form posted
 * to the page; with it, the form goes through `XMLHttpRequest` to `endpoint` so that an upload
 * progress bar shows, and the page's data is revalidated (no full reload) once it is posted.
 */
export function Composer({
  endpoint,
  canWriteNotes,
  maxUploadMb,
  reply,
  submissionKey,
}: {
  /** The JSON endpoint of the conversation (`…/messages`). */
  endpoint: string;
  canWriteNotes: boolean;
  maxUploadMb: number;
  /** The page action's reply (no JavaScript). */
  reply?: ComposerResult | null;
  /**
   * The form's idempotency key from the loader (issue #36): sent with the post, so that a retry
   * after a lost connection is not saved twice; a new one after each message sent.
   */
  submissionKey: string;
}) {
  const formRef = useRef<HTMLFormElement>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const revalidator = useRevalidator();
  const [result, setResult] = useState<ComposerResult | null>(reply?.intent === "post-message" ? reply : null);
  const [progress, setProgress] = useState<number | null>(null);
  const [length, setLength] = useState((reply?.text ?? "").length);
  const [files, setFiles] = useState<File[]>([]);
  const [note, setNote] = useState(false);
  const [dragging, setDragging] = useState(false);
  const sending = progress !== null;
  const [key, setKey] = useState(submissionKey);
  useEffect(() => setKey(submissionKey), [submissionKey]);

  useEffect(() => {
    if (reply?.intent === "post-message") setResult(reply);
  }, [reply]);

  // An old refusal goes as soon as the user changes what it was about (issue #41): it no longer applies.
  const clearRefusal = () => setResult((current) => (current && !current.ok ? null : current));
  const syncFiles = () => {
    setFiles(Array.from(fileRef.current?.files ?? []));
    clearRefusal();
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const input = fileRef.current;
    if (!input || !event.dataTransfer.files.length) return;
    const merged = new DataTransfer();
    for (const file of [...Array.from(input.files ?? []), ...Array.from(event.dataTransfer.files)]) merged.items.add(file);
    input.files = merged.files;
    syncFiles();
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (typeof XMLHttpRequest === "undefined") return;
    event.preventDefault();
    if (sending) return;
    const form = event.currentTarget;
    const request = new XMLHttpRequest();
    request.open("POST", endpoint);
    request.responseType = "json";
    request.setRequestHeader("Accept", "application/json");
    request.upload.onprogress = (e) => setProgress(e.lengthComputable ? Math.round((e.loaded / e.total) * 100) : 0);
    request.onload = () => {
      setProgress(null);
      const body = (request.response ?? { ok: false, message: CONVERSATION_MESSAGES.failed }) as ComposerResult;
      setResult(body);
      if (body.ok) {
        // The next message is another post (the loader's new key arrives with the revalidation).
        setKey(freshKey());
        form.reset();
        setFiles([]);
        setLength(0);
        setNote(false);
        void revalidator.revalidate();
      }
    };
    request.onerror = request.onabort = () => {
      setProgress(null);
      setResult({ ok: false, message: CONVERSATION_MESSAGES.failed });
    };
    setProgress(0);
    setResult(null);
    request.send(new FormData(form));
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      formRef.current?.requestSubmit();
    }
  };

  const textError = result && !result.ok ? result.fieldErrors?.text?.[0] : undefined;
  const filesError = result && !result.ok ? result.fieldErrors?.files?.[0] : undefined;
  const formError = result && !result.ok && !textError && !filesError ? result.message : undefined;

  return (
    <form
      ref={formRef}
      method="post"
      encType="multipart/form-data"
      onSubmit={onSubmit}
      className={`flex flex-col gap-3 rounded-lg border p-3 sm:p-4 ${note ? "border-amber-300 bg-amber-50" : "border-slate-200 bg-white"}`}
      aria-label="New message"
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
    >
      <input type="hidden" name={SUBMISSION_KEY_FIELD} value={key} />
      <div className="flex flex-col gap-1">
        <label htmlFor="composer-text" className="text-sm font-medium text-slate-800">
          {note ? "Internal note (only the agency sees it)" : "Message"}
        </label>
        <textarea
          id="composer-text"
          name="text"
          rows={4}
          defaultValue={reply?.intent === "post-message" && !reply.ok ? (reply.text ?? "") : ""}
          onChange={(e) => {
            setLength(e.currentTarget.value.length);
            clearRefusal();
          }}
          onKeyDown={onKeyDown}
          aria-invalid={textError ? true : undefined}
          aria-describedby="composer-hint composer-text-error"
          className="rounded-md border border-slate-300 bg-white px-3 py-2"
        />
        <p id="composer-hint" className="text-xs text-slate-600">
          Plain text; links starting with https:// become clickable. Ctrl+Enter (⌘+Enter on a Mac) sends.{" "}
          <span className={length > MAX_MESSAGE_LENGTH ? "font-semibold text-red-700" : undefined}>
            {length.toLocaleString("en-US")} / {MAX_MESSAGE_LENGTH.toLocaleString("en-US")} characters
          </span>
        </p>
        {textError ? (
          <p id="composer-text-error" role="alert" className="text-sm font-medium text-red-700">
            {textError}
          </p>
        ) : null}
      </div>

      <div
        className={`flex flex-col gap-1 rounded-md border border-dashed p-3 ${dragging ? "border-brand-600 bg-brand-50" : "border-slate-300"}`}
        data-testid="drop-zone"
      >
        <label htmlFor="composer-files" className="text-sm font-medium text-slate-800">
          Attach files
        </label>
        <input
          ref={fileRef}
          id="composer-files"
          type="file"
          name="files"
          multiple
          accept={ACCEPT_ATTRIBUTE}
          onChange={syncFiles}
          aria-describedby="composer-files-hint composer-files-error"
          className="text-sm"
        />
        <p id="composer-files-hint" className="text-xs text-slate-600">
          Or drop files here. Up to {MAX_FILES_PER_MESSAGE} files of {maxUploadMb} MB each: PDF, images (PNG, JPEG, WebP, GIF), text, CSV,
          ZIP, Word, Excel, PowerPoint.
        </p>
        {files.length ? (
          <ul className="text-xs text-slate-700" aria-label="Chosen files">
            {files.map((file, i) => (
              <li key={`${file.name}-${i}`}>
                {file.name} ({formatBytes(file.size)})
              </li>
            ))}
          </ul>
        ) : null}
        {filesError ? (
          <p id="composer-files-error" role="alert" className="text-sm font-medium text-red-700">
            {filesError}
          </p>
        ) : null}
      </div>

      {canWriteNotes ? (
        <fieldset className="flex flex-wrap gap-4 text-sm">
          <legend className="sr-only">Who sees it</legend>
          <label className="flex items-center gap-2">
            <input type="radio" name="visibility" value="shared" defaultChecked onChange={() => setNote(false)} />
            Message to the client
          </label>
          <label className="flex items-center gap-2">
            <input type="radio" name="visibility" value="internal" onChange={() => setNote(true)} />
            Internal note (agency only)
          </label>
        </fieldset>
      ) : null}

      {progress !== null ? (
        <div className="flex items-center gap-2 text-sm text-slate-700">
          <progress max={100} value={progress} aria-label="Upload progress" className="h-2 flex-1" />
          <span>{progress}%</span>
        </div>
      ) : null}
      {formError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {formError}
        </p>
      ) : null}
      {result?.ok ? (
        <p role="status" className="text-sm font-medium text-green-800">
          {result.message}
        </p>
      ) : null}
      <div>
        <button type="submit" className={buttonClass("primary", "md")} disabled={sending}>
          {sending ? "Sending…" : note ? "Save internal note" : "Send message"}
        </button>
      </div>
    </form>
  );
}
