/**
 * Public content pages rendered once and served from memory (issue #7: public pages are
 * prerendered; they hold no per-user data and ship no scripts). They are rendered at start,
 * through the app itself, because their canonical URLs depend on the runtime origin
 * (BETTER_AUTH_URL). Bodies are kept identity, gzip and brotli encoded; conditional requests
 * get 304. Mounted before the per-request security middleware: each entry replays the
 * security headers it was rendered with (HSTS is added per request by `hsts`).
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import type { RequestHandler } from "express";
import { projects } from "../app/content/projects";

/** The pages rendered ahead: every public page without a form (ADR 002). */
export const PRERENDERED_PATHS = ["/", "/about", "/projects", ...projects.map((p) => `/${p.slug}`)];

interface Entry {
  etag: string;
  /** The security headers the page was rendered with (its CSP without the nonce: these pages run no scripts). */
  headers: [string, string][];
  identity: Buffer;
  gzip: Buffer;
  br: Buffer;
}

/** Response headers copied from the rendered page (set by server/security.ts). */
const SECURITY_HEADERS = /^(content-security-policy|cross-origin-|origin-agent-cluster|referrer-policy|x-content-type-options|x-dns-prefetch-control|x-download-options|x-frame-options|x-permitted-cross-domain-policies|x-xss-protection|permissions-policy)/;

export interface PageCache {
  middleware: RequestHandler;
  /** Renders every page by requesting it from `baseUrl`; pages that fail are left to SSR. */
  warm(baseUrl: string): Promise<number>;
}

export function createPageCache(paths: string[] = PRERENDERED_PATHS): PageCache {
  const entries = new Map<string, Entry>();
  return {
    async warm(baseUrl) {
      for (const path of paths) {
        try {
          const response = await fetch(`${baseUrl}${path}`, { headers: { "accept-encoding": "identity" } });
          if (response.status !== 200 || !response.headers.get("content-type")?.startsWith("text/html")) continue;
          const identity = Buffer.from(await response.arrayBuffer());
          const headers: [string, string][] = [];
          response.headers.forEach((value, name) => {
            if (SECURITY_HEADERS.test(name)) headers.push([name, name === "content-security-policy" ? value.replace(/ 'nonce-[^']*'/g, "") : value]);
          });
          entries.set(path, {
            headers,
            etag: `"${createHash("sha256").update(identity).digest("base64url").slice(0, 27)}"`,
            identity,
            gzip: gzipSync(identity, { level: 9 }),
            br: brotliCompressSync(identity, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
          });
        } catch (error) {
          console.warn(`[page-cache] could not prerender ${path}: ${(error as Error).message}`);
        }
      }
      return entries.size;
    },
    middleware(req, res, next) {
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      const entry = entries.get(req.path);
      if (!entry || req.url.includes("?")) return next();
      for (const [name, value] of entry.headers) res.setHeader(name, value);
      res.setHeader("Content-Type", "text/html; charset=utf-8");
      res.setHeader("Cache-Control", "public, max-age=0, must-revalidate");
      res.setHeader("ETag", entry.etag);
      res.setHeader("Vary", "Accept-Encoding");
      if (req.headers["if-none-match"] === entry.etag) {
        res.status(304).end();
        return;
      }
      const accepts = String(req.headers["accept-encoding"] ?? "");
      const [encoding, body] = /\bbr\b/.test(accepts) ? ["br", entry.br] : /\bgzip\b/.test(accepts) ? ["gzip", entry.gzip] : [null, entry.identity];
      if (encoding) res.setHeader("Content-Encoding", encoding);
      res.setHeader("Content-Length", body.length);
      res.status(200).end(req.method === "HEAD" ? undefined : body);
    },
  };
}
