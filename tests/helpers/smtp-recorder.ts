/**
 * An SMTP server (smtp-server, in this process) that counts what it accepts by Message-ID, for the
 * exactly-once checks of the job queue (ADR 019). A message counts as delivered only when the server
 * answers 250 to a client that is still connected: a client that died before the answer never had
 * its message accepted (it will send it again).
 */
import { SMTPServer } from "smtp-server";

export interface SmtpRecorder {
  url: string;
  /** Accepted messages per Message-ID. */
  accepted: Map<string, number>;
  /** Messages received and not answered yet (the server is holding them). */
  holding(): number;
  /** From now on, hold every message that arrives, unanswered, until {@link SmtpRecorder.release}. */
  hold(): void;
  /** Answers the held messages (a message whose client has gone is not accepted) and stops holding. */
  release(): void;
  /** Total accepted (duplicates included). */
  total(): number;
  close(): Promise<void>;
}

/**
 * @param options.delayMs - how long to hold each message before answering, given its arrival index
 *   (0-based) — e.g. stall the first ones 30 s.
 */
export async function startSmtpRecorder(options: { delayMs?: (index: number) => number } = {}): Promise<SmtpRecorder> {
  const accepted = new Map<string, number>();
  let arrived = 0;
  let held = 0;
  let gate: { promise: Promise<void>; open(): void } | null = null;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    closeTimeout: 200,
    size: 1024 * 1024,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(raw)?.[1] ?? "(none)";
        const delay = options.delayMs?.(arrived++) ?? 0;
        held++;
        const waitFor = gate?.promise ?? Promise.resolve();
        void waitFor.then(() =>
          setTimeout(() => {
            held--;
            // The connection is gone: the client never gets the 250, so the message is not accepted.
            if (connections.get(session.id)?.closed) return callback(new Error("connection closed"));
            accepted.set(id, (accepted.get(id) ?? 0) + 1);
            callback();
          }, delay),
        );
      });
    },
    onConnect(session, callback) {
      connections.set(session.id, { closed: false });
      callback();
    },
    onClose(session) {
      const c = connections.get(session.id);
      if (c) c.closed = true;
    },
  });
  const connections = new Map<string, { closed: boolean }>();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    accepted,
    holding: () => held,
    hold() {
      let open!: () => void;
      const promise = new Promise<void>((resolve) => (open = resolve));
      gate = { promise, open };
    },
    release() {
      gate?.open();
      gate = null;
    },
    total: () => [...accepted.values()].reduce((a, b) => a + b, 0),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
