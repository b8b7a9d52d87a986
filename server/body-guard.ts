/**
 * The request-level guard in front of every action (docs/product.md#limits-hostile-input): a
 * request body is read, bounded and checked here, before React Router or any form parser sees
 * it, so that one anonymous request can neither exhaust memory nor block the event loop.
 *
 * - Body size: {@link BODY_LIMITS} per route kind — 64 KB for ordinary forms, an explicit
 *   larger limit only where a route accepts an upload. Over the limit → 413 (declared length:
 *   refused before reading; streamed body: reading stops at the limit, the connection closes).
 * - Content type: URL-encoded forms everywhere; multipart (with a boundary) only on upload
 *   routes; JSON only on the routes listed. An empty body counts as an empty form. Anything
 *   else → 400.
 * - Form shape: at most {@link MAX_FIELDS} fields, names of at most {@link MAX_NAME_LENGTH}
 *   characters made of plain segments (`name`, `items[3].amount`) with array indices below
 *   {@link MAX_INDEX} and at most {@link MAX_DEPTH} levels, and no NUL byte in any name or
 *   value → 400. (Checked with `URLSearchParams`, which is linear in the body size.)
 * - Conversation uploads ({@link UPLOAD_ROUTES}): multipart passed on as a bounded stream.
 * - Query strings: a NUL byte in the URL's query → 400, on every method.
 *
 * Refusals are a short HTML page (well under 1 KB) that never echoes the input.
 */
import type { IncomingMessage } from "node:http";

/** One kind of route's body rules. */
export interface BodyRule {
  /** Largest body in bytes. */
  maxBytes: number;
  /** Accepts `multipart/form-data` (an upload form). */
  multipart?: boolean;
  /** Accepts `application/json`. */
  json?: boolean;
}

/** Ordinary forms: 64 KB is ~13 times the longest text field a form defines (5,000 characters). */
export const FORM_BODY_LIMIT = 64 * 1024;

/**
 * Body rules by path prefix; the longest matching prefix wins, {@link FORM_BODY_LIMIT} with
 * URL-encoded forms only applies everywhere else.
 */
export const BODY_LIMITS: Record<string, BodyRule> = {
  // WebAuthn answers from the browser (docs/product.md#account-page): small JSON documents.
  "/passkey/": { maxBytes: 32 * 1024, json: true },
  // The logo upload of the settings (docs/product.md#settings; /admin/settings and its Brand
  // section /admin/settings/brand): a file of at most 200 KB plus the form's few fields.
  "/admin/settings": { maxBytes: 256 * 1024, multipart: true },
  // The same action posted by React Router's client-side navigation.
  "/admin/settings.data": { maxBytes: 256 * 1024, multipart: true },
  // Issue #40: the case-study editor (five Markdown sections) and its screenshot upload (15 MB).
  "/admin/case-studies": { maxBytes: 16 * 1024 * 1024, multipart: true },
};

/**
 * Routes that take a conversation message with files (docs/product.md#files): there a
 * `multipart/form-data` body is NOT read here but handed to the route as a stream, bounded by the
 * server's upload limit (10 files of MAX_UPLOAD_MB), and parsed as it arrives (busboy in
 * `features/conversations/message-form.server.ts`, which limits fields, files and sizes itself).
 * Any other body on these routes gets the ordinary rules.
 */
export const UPLOAD_ROUTES: readonly RegExp[] = [/^\/(?:admin\/)?proposals\/\d{1,10}(?:\/messages)?(?:\.data)?$/];

/** A multipart upload the guard passes on unread: the route reads at most `maxBytes` of it. */
export interface StreamedBody {
  stream: true;
  contentType: string;
  maxBytes: number;
}

/** Most fields one form may post (the largest form, an invoice of 50 items, posts ~105). */
export const MAX_FIELDS = 200;
/** Longest field name. */
export const MAX_NAME_LENGTH = 64;
/** Array indices in field names stay below this (`items[99]` at most). */
export const MAX_INDEX = 100;
/** Most levels in a field name (`a.b[1].c` has 4). */
export const MAX_DEPTH = 4;

const NAME_HEAD = /^[A-Za-z_$][\w$-]*/;
const NAME_PART = /^(?:\[(\d{1,2})\]|\.([A-Za-z_$][\w$-]*))/;

/** A refusal: status and a one-sentence reason for the short error page. */
export interface GuardRefusal {
  status: 400 | 413;
  reason: string;
}

/** What the guard lets through: the whole body and the content type to hand to the app. */
export interface GuardedBody {
  body: Uint8Array<ArrayBuffer>;
  contentType: string;
}

/**
 * @param path - the request path (no query).
 * @returns the body rule of the longest matching prefix of {@link BODY_LIMITS}, else the
 *   ordinary form rule.
 */
export function bodyRuleFor(path: string): BodyRule {
  let best: BodyRule | undefined;
  let bestLength = -1;
  for (const [prefix, rule] of Object.entries(BODY_LIMITS)) {
    if ((path === prefix || path.startsWith(prefix.endsWith("/") ? prefix : `${prefix}/`)) && prefix.length > bestLength) {
      best = rule;
      bestLength = prefix.length;
    }
  }
  return best ?? { maxBytes: FORM_BODY_LIMIT };
}

/**
 * Checks a form field name against the shapes our forms use.
 *
 * @returns a reason when the name is refused, else null.
 */
export function checkFieldName(name: string): string | null {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) return "A form field name is empty or too long.";
  const head = NAME_HEAD.exec(name);
  if (!head) return "A form field name is not valid.";
  let rest = name.slice(head[0].length);
  let depth = 1;
  while (rest.length > 0) {
    const part = NAME_PART.exec(rest);
    if (!part) return "A form field name is not valid.";
    if (part[1] !== undefined && Number(part[1]) >= MAX_INDEX) return "A form field index is too large.";
    if (++depth > MAX_DEPTH) return "A form field name is nested too deeply.";
    rest = rest.slice(part[0].length);
  }
  return null;
}

/**
 * Checks decoded form fields (names and values) against the limits.
 *
 * @param fields - name/value pairs (file values as their file name).
 * @returns a refusal, or null when the form is acceptable.
 */
export function checkFormFields(fields: Iterable<[string, string]>): GuardRefusal | null {
  let count = 0;
  for (const [name, value] of fields) {
    if (++count > MAX_FIELDS) return { status: 400, reason: `A form may send at most ${MAX_FIELDS} fields.` };
    const nameProblem = checkFieldName(name);
    if (nameProblem) return { status: 400, reason: nameProblem };
    if (value.includes("\u0000")) return { status: 400, reason: "The form contains a character that is not allowed." };
  }
  return null;
}

/**
 * @param url - the request URL (path and query).
 * @returns a refusal when the query string holds a NUL byte (or does not decode), else null.
 */
export function checkQuery(url: string): GuardRefusal | null {
  const q = url.indexOf("?");
  if (q < 0) return null;
  const query = url.slice(q + 1);
  if (!query.includes("%") && !query.includes("\u0000")) return null;
  for (const [name, value] of new URLSearchParams(query)) {
    if (name.includes("\u0000") || value.includes("\u0000"))
      return { status: 400, reason: "The address contains a character that is not allowed." };
  }
  return null;
}

/** Reads the body up to `maxBytes`; resolves null when it is longer (reading stops there). */
function readBounded(req: IncomingMessage, maxBytes: number): Promise<Uint8Array<ArrayBuffer> | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      const body = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        body.set(chunk, offset);
        offset += chunk.length;
      }
      resolve(body);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * Reads and checks the body of a request that may carry one (not GET/HEAD).
 *
 * @param req - the incoming request; its body stream is consumed (or left unread when the
 *   declared length is over the limit).
 * @returns the body and its content type, or a refusal.
 * @throws when the connection fails while reading.
 */
export async function guardBody(
  req: IncomingMessage,
  path: string,
  options: { uploadMaxBytes?: number } = {},
): Promise<GuardedBody | GuardRefusal | StreamedBody> {
  const declared = req.headers["content-length"];
  const streamedType = req.headers["content-type"] ?? "";
  if (options.uploadMaxBytes && /^multipart\/form-data\s*;/i.test(streamedType) && UPLOAD_ROUTES.some((r) => r.test(path))) {
    if (!/;\s*boundary=("?)[^";]{1,70}\1/i.test(streamedType)) return { status: 400, reason: "The upload is malformed (no boundary)." };
    if (declared !== undefined && Number(declared) > options.uploadMaxBytes) return tooLarge({ maxBytes: options.uploadMaxBytes });
    return { stream: true, contentType: streamedType, maxBytes: options.uploadMaxBytes };
  }
  const rule = bodyRuleFor(path);
  if (declared !== undefined && Number(declared) > rule.maxBytes) return tooLarge(rule);

  const rawType = req.headers["content-type"] ?? "";
  const type = rawType.split(";")[0]!.trim().toLowerCase();
  if (type === "multipart/form-data") {
    if (!rule.multipart) return { status: 400, reason: "This address does not accept file uploads." };
    if (!/;\s*boundary=("?)[^";]{1,70}\1/i.test(rawType)) return { status: 400, reason: "The upload is malformed (no boundary)." };
  } else if (type === "application/json") {
    if (!rule.json) return { status: 400, reason: "This address accepts forms only." };
  } else if (type !== "application/x-www-form-urlencoded" && type !== "") {
    return { status: 400, reason: "This address accepts forms only." };
  }

  const body = await readBounded(req, rule.maxBytes);
  if (!body) return tooLarge(rule);

  if (type === "" || type === "application/x-www-form-urlencoded") {
    if (type === "" && body.length > 0) return { status: 400, reason: "This address accepts forms only." };
    const refusal = checkFormFields(new URLSearchParams(new TextDecoder().decode(body)));
    return refusal ?? { body, contentType: "application/x-www-form-urlencoded;charset=UTF-8" };
  }
  if (type === "multipart/form-data") {
    let form: FormData;
    try {
      form = await new Response(body, { headers: { "content-type": rawType } }).formData();
    } catch {
      return { status: 400, reason: "The upload is malformed." };
    }
    const fields: Array<[string, string]> = [];
    for (const [name, value] of form) fields.push([name, typeof value === "string" ? value : value.name]);
    return checkFormFields(fields) ?? { body, contentType: rawType };
  }
  // JSON: the route parses it; it must at least be valid JSON without NUL.
  try {
    JSON.parse(new TextDecoder().decode(body));
  } catch {
    return { status: 400, reason: "The request body is not valid JSON." };
  }
  return { body, contentType: rawType };
}

function tooLarge(rule: Pick<BodyRule, "maxBytes">): GuardRefusal {
  const size = rule.maxBytes >= 1024 * 1024 ? `${Math.round(rule.maxBytes / 1024 / 1024)} MB` : `${Math.round(rule.maxBytes / 1024)} KB`;
  return { status: 413, reason: `The request is too large (at most ${size}).` };
}

const TITLES: Record<GuardRefusal["status"], string> = {
  400: "Bad request",
  413: "Request too large",
};

/** The short HTML page of a refusal (never echoes the request). */
export function refusalPage(refusal: GuardRefusal): string {
  const title = TITLES[refusal.status];
  return `<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${title}</title><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem"><h1>${title}</h1><p>${refusal.reason}</p><p>Go back to the form and try again, or <a href="/">go to the home page</a>.</p></body></html>`;
}
