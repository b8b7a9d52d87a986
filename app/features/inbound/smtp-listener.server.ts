/**
 * The in-app SMTP listener for e-mail replies (docs/product.md#email-replies), on
 * `INBOUND_SMTP_PORT` (unset: off), built on `smtp-server`. The domain's MX record points here
 * (or a relay forwards to it). It is no open relay: it accepts mail only for
 * `reply+<token>@INBOUND_DOMAIN` (anything else: 550 at RCPT TO), one reply address per message
 * (a second one: 452, the sending server delivers it in a transaction of its own), at most 25 MB
 * (announced with SIZE; larger: 552), and at most a few connections at once per client address
 * (421 above). A message is answered 250 once it was handled — posted, or refused and its sender
 * told — and 451 ("try again later") when handling failed for a passing reason. With
 * WEB_CONCURRENCY above 1 every server process listens on the port (node:cluster shares it).
 * smtp-server is loaded only when the listener starts, not at each start of a server (issue #42).
 */
import type { SMTPServerOptions } from "smtp-server";
import { logger } from "#app/lib/logger.server";
import { INBOUND_MAX_BYTES, type InboundOutcome } from "./inbound.server";
import { tokenOfAddress } from "./reply-token.server";

export interface InboundSmtpOptions {
  port: number;
  host?: string;
  /** INBOUND_DOMAIN: the only domain accepted. */
  domain: string;
  /** Handles one message (see `receiveInboundMail`). */
  receive(raw: Buffer, envelopeTo: string[]): Promise<InboundOutcome>;
  /** Connections at once per client address (default 5). */
  maxConnectionsPerIp?: number;
  /** Largest message in bytes (default 25 MB). */
  maxBytes?: number;
}

export interface InboundSmtp {
  /** The port it listens on (a free one when 0 was asked). */
  port: number;
  close(): Promise<void>;
}

/** An SMTP refusal with its reply code. */
function smtpError(code: number, message: string): Error {
  return Object.assign(new Error(message), { responseCode: code });
}

/**
 * Starts the listener.
 *
 * @throws when the port cannot be opened.
 */
export async function startInboundSmtp(options: InboundSmtpOptions): Promise<InboundSmtp> {
  const perIp = options.maxConnectionsPerIp ?? 5;
  const maxBytes = options.maxBytes ?? INBOUND_MAX_BYTES;
  const connections = new Map<string, number>();
  const settings: SMTPServerOptions = {
    name: options.domain,
    banner: "Replies to conversation notifications only",
    authOptional: true,
    // No certificate of its own: TLS, when wanted, is ended in front of it (README).
    disabledCommands: ["AUTH", "STARTTLS"],
    size: maxBytes,
    maxClients: 200,
    socketTimeout: 60_000,
    closeTimeout: 1_000,
    logger: false,
    onConnect(session, callback) {
      const ip = session.remoteAddress;
      const open = (connections.get(ip) ?? 0) + 1;
      if (open > perIp) return callback(smtpError(421, "Too many connections from your address, try again later"));
      connections.set(ip, open);
      (session as { counted?: boolean }).counted = true;
      callback();
    },
    onClose(session) {
      if (!(session as { counted?: boolean }).counted) return;
      const ip = session.remoteAddress;
      const open = (connections.get(ip) ?? 1) - 1;
      if (open <= 0) connections.delete(ip);
      else connections.set(ip, open);
    },
    onRcptTo(address, session, callback) {
      if (!tokenOfAddress(address.address, options.domain)) return callback(smtpError(550, "5.1.1 No such recipient here"));
      if (session.envelope.rcptTo.length >= 1) return callback(smtpError(452, "4.5.3 One reply address per message, please"));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size <= maxBytes) chunks.push(chunk);
      });
      stream.on("end", () => {
        if ((stream as { sizeExceeded?: boolean }).sizeExceeded || size > maxBytes) {
          return callback(smtpError(552, `5.3.4 Message too large (at most ${Math.round(maxBytes / 1024 / 1024)} MB)`));
        }
        const envelopeTo = session.envelope.rcptTo.map((r) => r.address);
        options
          .receive(Buffer.concat(chunks), envelopeTo)
          .then(() => callback(null, "Message accepted"))
          .catch((error: unknown) => {
            logger.error({ err: error }, "inbound mail (SMTP): could not handle a message; the sender will retry");
            callback(smtpError(451, "4.3.0 Temporary failure, please try again later"));
          });
      });
    },
  };
  const { SMTPServer } = await import("smtp-server");
  const server = new SMTPServer(settings);
  server.on("error", (error) => logger.warn({ err: error }, "inbound mail (SMTP): connection error"));
  await new Promise<void>((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.server.once("error", onError);
    server.listen(options.port, options.host ?? "0.0.0.0", () => {
      server.server.off("error", onError);
      resolve();
    });
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : options.port;
  logger.info({ port, domain: options.domain }, "inbound mail: SMTP listener ready");
  return {
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
