/**
 * Server rendering entry: renders the whole page, then answers it as one body (a
 * friendly 500 page, and the error in the log).
 *
 * The app has no Suspense boundaries (loaders finish before rendering), so streaming the
 * shell would send the same bytes, only later: React's chunks went through a Node stream, a
 * web stream and the compression stream one by one, which cost more than the render itself
 * under load (p95 of the client dashboard at 50 users 101 → 43 ms when not
 * compressed chunk by chunk). Buffering also lets compression run once per page.
 */
import { Writable } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { ServerRouter, type EntryContext, type HandleErrorFunction, type RouterContextProvider } from "react-router";
import { requestInfoContext, type RequestInfo } from "#app/lib/request-info";
import { isDatabaseUnavailable } from "#app/lib/database-unavailable.server";
import { logger } from "./lib/logger.server";
import { redactPath } from "./lib/redact-path";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  const { nonce: nonceValue, requestId } = loadContext.get(requestInfoContext);
  const nonce = nonceValue || undefined;
  return new Promise<Response>((resolve, reject) => {
    let rendered = false;
    const chunks: Buffer[] = [];
    const body = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        chunks.push(chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        responseHeaders.set("Content-Type", "text/html; charset=utf-8");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status: responseStatusCode }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} nonce={nonce} />, {
      nonce,
      onAllReady() {
        rendered = true;
        pipe(body);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        if (rendered)
          logger.error({ err: error, requestId, method: request.method, path: redactPath(new URL(request.url).pathname) }, "render failed");
      },
    });
    const timeout = setTimeout(abort, streamTimeout + 1_000);
  });
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  if (request.signal.aborted) return;
  let info: RequestInfo | undefined;
  try {
    info = (context as RouterContextProvider).get(requestInfoContext);
  } catch {
    /* not served by server/app.ts */
  }
  const fields = { err: error, requestId: info?.requestId, method: request.method, path: redactPath(new URL(request.url).pathname) };
  if (isDatabaseUnavailable(error)) {
    // Issue #36: not a bug — the server answers 503 with Retry-After (server/request-handler.ts).
    if (info) info.log.databaseUnavailable = true;
    logger.warn(fields, "request failed: database unavailable");
    return;
  }
  logger.error(fields, "request failed");
};
