/**
 * The React Router request handler for express, with the body guard in front of it.
 *
 * It does what `@react-router/express`'s handler does (build a web `Request` from the
 * express request, run the app, write the `Response` back), with one difference: a body is
 * first read and checked by {@link guardBody} (size, content type, form shape), and the app
 * receives the checked bytes instead of the socket stream. A refused request never reaches
 * the app: it gets the guard's short page with 400 or 413.
 *
 * A second difference: every request that may change something (anything but GET and HEAD)
 * whose `Origin` is another site's is refused with 400 ({@link crossSiteRefusal}). React
 * Router makes the same check for the actions of page routes, but not for resource routes such
 * as `/logout`; here it holds for every route (docs/product.md#sign-out).
 */
import { Readable } from "node:stream";
import { writeReadableStreamToWritable } from "@react-router/node";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { createRequestHandler as createRouterHandler, type RouterContextProvider, type ServerBuild } from "react-router";
import { checkQuery, guardBody, refusalPage, type GuardRefusal } from "./body-guard";

export interface RequestHandlerOptions {
  build: ServerBuild | (() => Promise<ServerBuild>);
  mode: "production" | "development";
  getLoadContext(req: ExpressRequest, res: ExpressResponse): RouterContextProvider;
  /** Largest conversation upload (the routes of `UPLOAD_ROUTES`), in bytes; unset → no streamed uploads. */
  uploadMaxBytes?: number;
  /**
   * Whether the request's loader, action or middleware failed because the database could not be
   * reached (app/entry.server.tsx's handleError marks it): its 500 is answered 503 (issue #36).
   */
  databaseUnavailable?(req: ExpressRequest): boolean;
}

/** Seconds in the Retry-After of a 503 that has none (the database is unavailable). */
const RETRY_AFTER_SECONDS = "5";

/**
 * @returns an express handler that answers every request with the React Router app.
 */
export function createRequestHandler({ build, mode, getLoadContext, uploadMaxBytes, databaseUnavailable }: RequestHandlerOptions) {
  const handleRequest = createRouterHandler(build, mode);
  return async (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    try {
      const queryRefusal = checkQuery(req.originalUrl);
      if (queryRefusal) return refuse(res, queryRefusal);
      let body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined;
      let contentType: string | undefined;
      if (req.method !== "GET" && req.method !== "HEAD") {
        const guarded = await guardBody(req, req.path, { uploadMaxBytes });
        if ("status" in guarded) return refuse(res, guarded);
        if ("stream" in guarded) {
          body = boundedStream(req, guarded.maxBytes);
          contentType = guarded.contentType;
        } else ({ body, contentType } = guarded);
      }
      const request = toWebRequest(req, res, body, contentType);
      const crossSite = crossSiteRefusal(request);
      if (crossSite) return refuse(res, crossSite);
      let response = await handleRequest(request, getLoadContext(req, res));
      // Issue #36: while the database is down, 503 with Retry-After (as /healthz), never a 500.
      if (response.status === 500 && databaseUnavailable?.(req)) {
        response = new Response(response.body, { status: 503, statusText: "Service Unavailable", headers: response.headers });
      }
      if (response.status === 503 && !response.headers.has("Retry-After")) {
        response = new Response(response.body, { status: 503, statusText: response.statusText, headers: response.headers });
        response.headers.set("Retry-After", RETRY_AFTER_SECONDS);
        response.headers.set("Cache-Control", "no-store");
      }
      await sendResponse(res, response);
    } catch (error) {
      next(error);
    }
  };
}

/**
 * React Router's origin rule for actions, for every route: a request other than GET/HEAD whose
 * `Origin` header is present and is not the request's own origin (or is `null`, as sent by
 * sandboxed and privacy-redirected pages) comes from another site's form or script.
 *
 * @returns the refusal (400), or null when the request may go on (same origin, or no `Origin`
 *   header — browsers send one with every cross-origin POST).
 */
export function crossSiteRefusal(request: Request): GuardRefusal | null {
  if (request.method === "GET" || request.method === "HEAD") return null;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  let same: boolean;
  try {
    same = origin !== "null" && new URL(origin).origin === new URL(request.url).origin;
  } catch {
    same = false;
  }
  return same ? null : { status: 400, reason: "This form was sent from another site. Nothing was changed." };
}

/** How long the rest of a refused body is read and discarded before the connection is cut. */
const LINGER_MS = 3_000;

/**
 * Answers a refusal. The rest of an unread body (a 413) is read and discarded for up to
 * {@link LINGER_MS}, so that the client reads the answer (closing a socket with unread data —
 * which `Connection: close` would do at once — resets it, and the client may never see the
 * 413); a body still arriving after that is cut off with the connection.
 */
function refuse(res: ExpressResponse, refusal: GuardRefusal) {
  res.status(refusal.status);
  res.set("Content-Type", "text/html; charset=utf-8");
  res.set("Cache-Control", "no-store");
  res.end(refusalPage(refusal));
  const req = res.req;
  if (refusal.status === 413 && !req.readableEnded) {
    req.resume();
    const timer = setTimeout(() => req.socket.destroy(), LINGER_MS).unref();
    // Drained in time: the connection may serve the client's next request (keep-alive).
    req.once("end", () => clearTimeout(timer));
  }
}

/**
 * The request's body as a web stream that errors once more than `maxBytes` arrived (and when the
 * client goes away mid-way), for the upload routes.
 */
function boundedStream(req: ExpressRequest, maxBytes: number): ReadableStream<Uint8Array> {
  let size = 0;
  return (Readable.toWeb(req) as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxBytes) controller.error(new Error("upload over the limit"));
        else controller.enqueue(chunk);
      },
    }),
  );
}

function toWebRequest(
  req: ExpressRequest,
  res: ExpressResponse,
  body: Uint8Array<ArrayBuffer> | ReadableStream<Uint8Array> | undefined,
  contentType: string | undefined,
): Request {
  const [, forwardedPort] = req.app?.enabled("trust proxy") ? (req.get("X-Forwarded-Host")?.split(":") ?? []) : [];
  const [, hostPortText] = req.get("host")?.split(":") ?? [];
  const port = [Number.parseInt(forwardedPort ?? "", 10), Number.parseInt(hostPortText ?? "", 10)].find(Number.isSafeInteger);
  const hostname = req.hostname.split(/[\\/?#@]/)[0] || "localhost";
  const url = new URL(`${req.protocol}://${hostname}${port ? `:${port}` : ""}${req.originalUrl}`);

  const headers = new Headers();
  for (const [key, values] of Object.entries(req.headers)) {
    if (values === undefined) continue;
    if (Array.isArray(values)) for (const value of values) headers.append(key, value);
    else headers.set(key, values);
  }
  let controller: AbortController | null = new AbortController();
  res.on("finish", () => (controller = null));
  res.on("close", () => controller?.abort());
  if (body instanceof ReadableStream) {
    headers.set("content-type", contentType!);
    return new Request(url.href, { method: req.method, headers, signal: controller.signal, body, duplex: "half" } as RequestInit);
  }
  if (body !== undefined) {
    headers.set("content-type", contentType!);
    headers.set("content-length", String(body.length));
  }
  return new Request(url.href, { method: req.method, headers, signal: controller.signal, body });
}

async function sendResponse(res: ExpressResponse, response: Response) {
  if (res.destroyed || res.writableEnded) {
    await response.body?.cancel();
    return;
  }
  res.statusMessage = response.statusText;
  res.status(response.status);
  // The app's own header replaces a default set earlier (e.g. helmet's X-Content-Type-Options or
  // CSP on a file download); only Set-Cookie is a list.
  for (const [key, value] of response.headers.entries()) {
    if (key === "set-cookie") res.append(key, value);
    else res.setHeader(key, value);
  }
  if (!response.body) {
    res.end();
    return;
  }
  try {
    await writeReadableStreamToWritable(response.body, res);
  } catch (error) {
    if (res.destroyed || res.writableEnded) return;
    throw error;
  }
}
