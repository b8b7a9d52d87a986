/**
 * Public content pages rendered once and served from memory (public pages are
 * prerendered; they hold no per-user data and ship no scripts). They are rendered at start,
 * through the app itself, because their canonical URLs depend on the runtime origin
 * (BETTER_AUTH_URL). Bodies are kept identity, gzip and brotli encoded; conditional requests
 * get 304. Served straight from the HTTP server's request event, before express (a third of
 * the CPU per cached request went to express's routing): each entry replays the security
 * headers it was rendered with; HSTS is added when the request came over HTTPS.
 *
 * Case studies live in the database (issue #40): the list of pages comes from a function (the
 * published case studies' paths are read again at each warm), and `invalidate()` — called when a
 * live event says a case study or testimonial changed, in every server process — drops every
 * entry and renders the pages again. Until a page is rendered again it is answered by the app
 * (current data, just slower); a render started before the change is never stored (generation).
 *
 * Each page is kept in up to three variants, one per colour theme (docs/product.md#dark-mode):
 * the `theme` cookie's light or dark choice is rendered as a class on `<html>` (no flash of the
 * other theme, no script), and without the cookie the page follows the system preference. Only
 * the cookie-less variant is rendered at start; a light or dark one is rendered in the background
 * on its first request (which is answered by the app meanwhile), so start-up costs no more.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { IncomingMessage, ServerResponse } from "node:http";
import { themeFromCookie, type Theme } from "../app/lib/theme";
import { HSTS_HEADER } from "./security";

/** The pages rendered ahead besides the published case studies: every public page without a form (ADR 002). */
export const PRERENDERED_PATHS = ["/", "/about", "/projects"];

interface Entry {
  etag: string;
  /** The security headers the page was rendered with (its CSP without the nonce: these pages run no scripts), plus caching headers. */
  headers: string[];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Response headers copied from the rendered page (set by server/security.ts). */
const SECURITY_HEADERS =
  /^(content-security-policy|cross-origin-|origin-agent-cluster|referrer-policy|x-content-type-options|x-dns-prefetch-control|x-download-options|x-frame-options|x-permitted-cross-domain-policies|x-xss-protection|permissions-policy)/;

export interface PageCache {
  /**
   * Answers a GET or HEAD of a prerendered page (200, or 304 for a matching If-None-Match), in
   * full and synchronously, with one `writeHead` (headers set one by one cost a fifth of the answer).
   *
   * @param https - whether the request came over HTTPS (adds HSTS).
   * @param requestId - sent as `X-Request-Id`.
   * @returns the status written, or 0, having written nothing, when the request is not for a cached page.
   */
  serve(req: IncomingMessage, res: ServerResponse, https: (req: IncomingMessage) => boolean, requestId: string): number;
  /** Renders every page by requesting it from `baseUrl`; pages that fail are left to SSR. */
  warm(baseUrl: string): Promise<number>;
  /** Drops every page and renders them again (their content or their list changed). */
  invalidate(): void;
}

/**
 * @param paths - the pages to prerender (read at each warm).
 * @param warn - reports a page that could not be prerendered (it is then left to SSR).
 */
export function createPageCache(
  paths: () => string[] | Promise<string[]> = () => PRERENDERED_PATHS,
  warn: (path: string, error: Error) => void = () => {},
): PageCache {
  const entries = new Map<string, Entry>();
  const key = (path: string, theme: Theme) => `${theme} ${path}`;
  let origin: string | undefined;
  /** Variants being rendered, or that failed to render (never retried). */
  const started = new Set<string>();
  /** Bumped by each invalidation: a render that started before it is not stored. */
  let generation = 0;
  /** Whether a warm runs, and whether another must follow it (an invalidation arrived meanwhile). */
  let warming: Promise<number> | null = null;
  let again = false;
  const warmAll = async (baseUrl: string): Promise<number> => {
    const at = generation;
    let list: string[];
    try {
      list = await paths();
    } catch (error) {
      warn("(page list)", error as Error);
      return entries.size;
    }
    for (const path of list) {
      if (at !== generation) break;
      started.add(key(path, "system"));
      await warmOne(baseUrl, path, "system", at);
    }
    return entries.size;
  };
  const runWarm = (baseUrl: string): Promise<number> => {
    if (warming) {
      again = true;
      return warming;
    }
    warming = warmAll(baseUrl).finally(() => {
      warming = null;
      if (again) {
        again = false;
        void runWarm(baseUrl);
      }
    });
    return warming;
  };
  return {
    async warm(baseUrl) {
      origin = baseUrl;
      return runWarm(baseUrl);
    },
    invalidate() {
      generation++;
      entries.clear();
      started.clear();
      if (origin) void runWarm(origin);
    },
    serve(req, res, https, requestId) {
      if (req.method !== "GET" && req.method !== "HEAD") return 0;
      const path = req.url ?? "";
      const theme = themeFromCookie(req.headers.cookie);
      const entry = entries.get(key(path, theme));
      if (!entry) {
        if (origin && theme !== "system" && !started.has(key(path, theme)) && entries.has(key(path, "system"))) {
          started.add(key(path, theme));
          void warmOne(origin, path, theme, generation);
        }
        return 0;
      }
      const headers = [...entry.headers, "X-Request-Id", requestId];
      if (https(req)) headers.push(...HSTS_HEADER);
      if (req.headers["if-none-match"] === entry.etag) {
        res.writeHead(304, headers).end();
        return 304;
      }
      const accepts = req.headers["accept-encoding"] ?? "";
      const [encoding, body] = /\bbr\b/.test(accepts)
        ? ["br", entry.br]
        : /\bgzip\b/.test(accepts)
          ? ["gzip", entry.gzip]
          : [null, entry.identity];
      if (encoding) headers.push("Content-Encoding", encoding);
      headers.push("Content-Length", String(body.length));
      res.writeHead(200, headers).end(req.method === "HEAD" ? undefined : body);
      return 200;
    },
  };

  async function warmOne(baseUrl: string, path: string, theme: Theme, at: number): Promise<void> {
    try {
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { "accept-encoding": "identity", ...(theme === "system" ? {} : { cookie: `theme=${theme}` }) },
      });
      if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/html")) return;
      const identity = Buffer.from(await response.arrayBuffer());
      const etag = `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`;
      const headers: string[] = [];
      response.headers.forEach((value, name) => {
        if (SECURITY_HEADERS.test(name))
          headers.push(name, name === "content-security-policy" ? value.replace(/ 'nonce-[^']*'/g, "") : value);
      });
      headers.push(
        "Content-Type",
        "text/html; charset=utf-8",
        "Cache-Control",
        "public, max-age=0, must-revalidate",
        "ETag",
        etag,
        "Vary",
        "Accept-Encoding, Cookie",
      );
      if (at !== generation) return;
      entries.set(key(path, theme), {
        headers,
        etag,
        identity,
        gzip: gzipSync(identity, { level: 9 }),
        br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
      });
    } catch (error) {
      warn(path, error as Error);
    }
  }
}
