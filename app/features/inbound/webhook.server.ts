/**
 * `POST /webhooks/inbound-mail` (docs/product.md#email-replies): the other way mail reaches the
 * app — an inbound-mail service (or the operator's own MTA) posts the raw RFC 822 message as the
 * request body, authenticated by `Authorization: Bearer <INBOUND_WEBHOOK_TOKEN>`.
 *
 * Answers: 404 while INBOUND_WEBHOOK_TOKEN or INBOUND_DOMAIN is unset; 401 for a wrong token
 * (checked before the body is read); 413 above 25 MB; 400 for an empty body; 201 `posted`;
 * 200 `duplicate`, `refused` (with the reason) or `ignored` (the service must not send it again);
 * 503 when handling failed for a passing reason (the service retries).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { bearerMatches } from "#app/lib/bearer.server";
import { logger } from "#app/lib/logger.server";
import { INBOUND_MAX_BYTES, type InboundOutcome } from "./inbound.server";

/** The webhook's path. */
export const INBOUND_WEBHOOK_PATH = "/webhooks/inbound-mail";

function answer(res: ServerResponse, status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) {
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers });
  res.end(JSON.stringify(body));
}

/** Reads the body up to `maxBytes`. @returns null when it is longer (the rest is not read). */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners("data");
        req.pause();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * @param options.token - INBOUND_WEBHOOK_TOKEN (undefined: the webhook is off).
 * @param options.receive - handles one message (see `receiveInboundMail`); undefined: off.
 * @returns the handler of `POST /webhooks/inbound-mail`.
 */
export function inboundWebhook(options: { token?: string; receive?: (raw: Buffer) => Promise<InboundOutcome>; maxBytes?: number }) {
  const maxBytes = options.maxBytes ?? INBOUND_MAX_BYTES;
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (!options.token || !options.receive) return answer(res, 404, { error: "Not found" });
    if (!bearerMatches(req.headers.authorization, options.token)) {
      return answer(res, 401, { error: "Unauthorized" }, { "WWW-Authenticate": 'Bearer realm="inbound-mail"' });
    }
    const tooLarge = () => {
      answer(res, 413, { error: `The message is too large (at most ${Math.round(maxBytes / 1024 / 1024)} MB).` }, { Connection: "close" });
      req.socket.destroySoon?.();
    };
    if (Number(req.headers["content-length"] ?? 0) > maxBytes) return tooLarge();
    const raw = await readBody(req, maxBytes);
    if (raw === null) return tooLarge();
    if (raw.length === 0) return answer(res, 400, { error: "The body must be the raw RFC 822 message." });
    try {
      const outcome = await options.receive(raw);
      return answer(res, outcome.status === "posted" ? 201 : 200, outcome);
    } catch (error) {
      logger.error({ err: error }, "inbound mail (webhook): could not handle a message; the service should retry");
      return answer(res, 503, { error: "Temporary failure, please retry." }, { "Retry-After": "60" });
    }
  };
}
