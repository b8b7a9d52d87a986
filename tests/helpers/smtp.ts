/**
 * A real in-process SMTP server (smtp-server) that keeps what it receives, for tests.
 */
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";

export interface CapturedMail {
  raw: string;
  parsed: ParsedMail;
}

export interface SmtpCapture {
  port: number;
  url: string;
  messages: CapturedMail[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<CapturedMail[]>;
  close(): Promise<void>;
}

/**
 * Starts an SMTP server on 127.0.0.1.
 *
 * @param options.port - fixed port (default: a free one).
 * @param options.onMessage - called with each parsed message (e.g. to write it to disk).
 */
export async function startSmtpCapture(options: { port?: number; onMessage?: (mail: CapturedMail) => void } = {}): Promise<SmtpCapture> {
  const messages: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    // Closing waits for clients to quit, by default up to 30 s; a test's pooled client that was
    // not closed would stall the test that long.
    closeTimeout: 200,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", async () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        const mail = { raw, parsed: await simpleParser(raw) };
        messages.push(mail);
        options.onMessage?.(mail);
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === "object" && address ? address.port : options.port!;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} mail(s), got ${messages.length}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      return messages;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
