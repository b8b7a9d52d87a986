/**
 * Requests no route can answer, refused before anything else looks at them (issue #28): a path
 * whose percent-encoding does not decode (`/%ff`, `/view-invoice/%C0%AE`) or holds a NUL, the
 * TRACE and TRACK methods, and a Host header (or a trusted X-Forwarded-Host) that is not a host
 * name or address with an optional port 1–65535. Each is a client's mistake: 400 (405 with
 * `Allow` for TRACE), a short plain answer that echoes nothing, and the ordinary request log line
 * at info — never a 500 with a stack.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

/** What a refused request gets. */
export interface RequestLineRefusal {
  status: 400 | 405;
  message: string;
  headers?: Record<string, string>;
}

/** The methods the app answers (TRACE and TRACK echo requests back: never). */
export const ALLOWED_METHODS = "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS";

const HOST =
  /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*\.?)(?::(\d{1,5}))?$/;

/** @returns whether `value` is a usable Host header: a name or address, an optional port 1–65535. */
export function isValidHost(value: string | undefined): boolean {
  if (!value) return false;
  const match = HOST.exec(value);
  if (!match) return false;
  if (match[1] !== undefined && (Number(match[1]) < 1 || Number(match[1]) > 65_535)) return false;
  try {
    new URL(`http://${value}/`); // IDNA: "xn--" alone, a bracketed non-address …
    return true;
  } catch {
    return false;
  }
}

/** @returns whether every percent-escape of the path decodes to UTF-8 without a NUL. */
export function isDecodablePath(url: string): boolean {
  const path = url.split(/[?#]/, 1)[0] ?? "";
  try {
    return !decodeURIComponent(path).includes("\0");
  } catch {
    return false;
  }
}

/**
 * @param trustForwardedHost - whether X-Forwarded-Host is read (TRUST_PROXY admits the peer).
 * @returns the refusal, or null when the request may go on.
 */
export function requestLineRefusal(req: IncomingMessage, trustForwardedHost = false): RequestLineRefusal | null {
  const method = (req.method ?? "").toUpperCase();
  if (method === "TRACE" || method === "TRACK") {
    return { status: 405, message: "Method not allowed.", headers: { Allow: ALLOWED_METHODS } };
  }
  if (!isDecodablePath(req.url ?? "/")) return { status: 400, message: "Bad request: the address is not valid." };
  if (!isValidHost(req.headers.host)) return { status: 400, message: "Bad request: the Host header is not valid." };
  const forwarded = req.headers["x-forwarded-host"];
  if (trustForwardedHost && typeof forwarded === "string" && !isValidHost(forwarded.split(",")[0]!.trim())) {
    return { status: 400, message: "Bad request: the X-Forwarded-Host header is not valid." };
  }
  return null;
}

/** The host of `value` as a URL would write it (lower case, default port dropped), or null. */
function hostOf(value: string | undefined, protocol = "http:"): string | null {
  if (!value) return null;
  try {
    return new URL(`${protocol}//${value}/`).host;
  } catch {
    return null;
  }
}

/**
 * An absolute-form request target (`GET http://host/login HTTP/1.1`, RFC 9112 §3.2.2, what a
 * client sends to a proxy) is taken as its origin form (issue #36): `req.url` becomes the path
 * and query, and `Host` the target's host (RFC 9112: the target's host wins). Refused with 400
 * when the target is not an http(s) URL, carries user information, or names a host that is
 * neither the request's `Host` nor one of `ownHosts` (this server is no proxy).
 *
 * @param ownHosts - the site's own hosts (`host[:port]` of BETTER_AUTH_URL).
 * @returns the refusal, or null (the request, rewritten when it was in absolute form, may go on).
 */
export function normaliseTarget(req: IncomingMessage, ownHosts: readonly string[] = []): RequestLineRefusal | null {
  const target = req.url ?? "/";
  if (target.startsWith("/") || target === "*") return null;
  const scheme = /^(https?):\/\/([^/?#]*)/i.exec(target);
  if (!scheme) return { status: 400, message: "Bad request: the address is not valid." };
  const protocol = `${scheme[1]!.toLowerCase()}:`;
  const authority = scheme[2]!;
  const host = authority.includes("@") || !isValidHost(authority) ? null : hostOf(authority, protocol);
  if (!host) return { status: 400, message: "Bad request: the address is not valid." };
  const known = [hostOf(req.headers.host, protocol), ...ownHosts.map((own) => hostOf(own, protocol))];
  if (!known.includes(host)) return { status: 400, message: "Bad request: this server answers for its own site only." };
  const rest = target.slice(scheme[0].length).replace(/#.*$/, "");
  req.url = rest.startsWith("/") ? rest : `/${rest}`;
  req.headers.host = authority;
  return null;
}

/** Writes a {@link RequestLineRefusal} in full (plain text, not cached). */
export function writeRefusal(res: ServerResponse, refusal: RequestLineRefusal): void {
  res.writeHead(refusal.status, {
    "Content-Type": "text/plain; charset=utf-8",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    ...refusal.headers,
  });
  res.end(`${refusal.message}\n`);
}
