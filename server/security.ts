/**
 * Security headers on every response: a Content-Security-Policy with a fresh
 * nonce per request (no 'unsafe-inline' scripts), frame-ancestors 'none', nosniff,
 * Referrer-Policy, a strict Permissions-Policy, and HSTS when the request came over HTTPS.
 * Headers come from helmet; the nonce is handed to React Router via `res.locals.cspNonce`.
 */
import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { TLSSocket } from "node:tls";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { SPECULATION_RULES } from "../app/lib/speculation";

const speculationHash = `'sha256-${createHash("sha256").update(SPECULATION_RULES).digest("base64")}'`;

/** Features the portal never uses; clipboard-write stays allowed for our own origin (copy buttons). */
const PERMISSIONS_POLICY = [
  "accelerometer=()",
  "autoplay=()",
  "camera=()",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "usb=()",
  "serial=()",
  "xr-spatial-tracking=()",
  "clipboard-read=()",
  "clipboard-write=(self)",
  "browsing-topics=()",
].join(", ");

/**
 * @param options.development - allow Vite's dev server (inline HMR client, websocket).
 * @returns middlewares to mount before static files and the app (after {@link hsts}).
 */
export function securityHeaders({ development }: { development: boolean }): RequestHandler[] {
  const nonce: RequestHandler = (_req, res, next) => {
    res.locals.cspNonce = randomBytes(16).toString("base64");
    next();
  };
  const csp = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: [
          "'self'",
          (_req, res) => `'nonce-${(res as Response).locals.cspNonce}'`,
          speculationHash,
          ...(development ? ["'unsafe-inline'"] : []),
        ],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...(development ? ["ws:", "wss:"] : [])],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        objectSrc: ["'none'"],
        ...(development ? {} : { upgradeInsecureRequests: null }),
      },
    },
    strictTransportSecurity: false,
    referrerPolicy: { policy: "strict-origin-when-cross-origin" },
    xFrameOptions: { action: "deny" },
    crossOriginEmbedderPolicy: false,
  });
  const permissions = (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader("Permissions-Policy", PERMISSIONS_POLICY);
    next();
  };
  return [nonce, csp, permissions];
}

/** The HSTS header (name, value), sent only over HTTPS. */
export const HSTS_HEADER = ["Strict-Transport-Security", "max-age=31536000; includeSubDomains"] as const;

/** HSTS, only when the request came over HTTPS (directly or through a trusted proxy). */
export const hsts: RequestHandler = (req, res, next) => {
  if (req.secure) res.setHeader(...HSTS_HEADER);
  next();
};

/**
 * `req.secure` outside express (for responses written before it, e.g. the page cache): the
 * connection is TLS, or a trusted proxy says `X-Forwarded-Proto: https`.
 *
 * @param trust - express's compiled `trust proxy` function (`app.get("trust proxy fn")`).
 */
export function httpsDetector(trust: (address: string, hop: number) => boolean): (req: IncomingMessage) => boolean {
  return (req) => {
    if ((req.socket as TLSSocket).encrypted) return true;
    // The header first: without it the answer is "no" whoever sent the request, and the trust
    // check (parsing the peer address against the trusted ranges) is the dearer step.
    const header = req.headers["x-forwarded-proto"];
    if (header === undefined || !trust(req.socket.remoteAddress ?? "", 0)) return false;
    return (Array.isArray(header) ? header[0] : header).split(",")[0]?.trim() === "https";
  };
}

/**
 * A check, for every request, that logs one warning (once per process) when a request carries
 * `X-Forwarded-For` from an address that `TRUST_PROXY` does not trust: either the app runs
 * behind a proxy that is not configured (every user then shares the proxy's address for the
 * per-IP limits), or a client is trying to choose its own address. The header is ignored
 * either way. See README "Behind a proxy".
 *
 * @param trust - express's compiled `trust proxy` function (`app.get("trust proxy fn")`).
 * @param write - where the JSON log line goes (stderr in the server).
 * @returns a function to call with each incoming request.
 */
export function forwardedForWarning(
  trust: (address: string, hop: number) => boolean,
  write: (line: string) => void,
): (req: IncomingMessage) => void {
  let warned = false;
  return (req) => {
    if (warned || req.headers["x-forwarded-for"] === undefined) return;
    const address = req.socket.remoteAddress ?? "";
    if (trust(address, 0)) return;
    warned = true;
    write(
      JSON.stringify({
        level: "warn",
        time: new Date().toISOString(),
        msg: "a request carried X-Forwarded-For from an untrusted address; the header is ignored. Behind a proxy, set TRUST_PROXY (see the README); this warning is shown once",
        event: "untrusted-forwarded-for",
        remoteAddress: address,
      }),
    );
  };
}
