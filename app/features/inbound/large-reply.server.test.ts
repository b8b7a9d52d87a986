/**
 * Issue #36: a 24 MB e-mail reply took 52–98 s and blocked the process (email-reply-parser over
 * the whole text, mailparser's HTML-to-text). Now the work on the text is bounded: a 24 MB reply
 * above a long quoted history, and a long HTML-only reply, are handled while the same process
 * keeps answering a /healthz of its own (every 50 ms; none slower than the budget).
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proposalMessage } from "#app/db/schema";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { receiveInboundMail, type InboundDeps } from "./inbound.server";
import { replyAddress } from "./reply-token.server";
import { extractReply, htmlToText } from "./reply-text.server";
import { createThreadPoster } from "./thread-poster.server";

const SECRET = "test-secret-test-secret-test-secret-0123";
const DOMAIN = "reply.portal.test";
/** The slowest /healthz answer allowed while a reply is handled: a hang budget on a busy machine, not a speed check (it blocked for minutes). */
const STALL_BUDGET_MS = 5_000;

function largeReply(from: string, to: string, kind: "quoted" | "html", mb: number): Buffer {
  const bytes = mb * 1024 * 1024;
  const head = `From: ${from}\r\nTo: ${to}\r\nSubject: Re: Bakery site\r\nMessage-ID: <large-${kind}-${mb}-${Date.now()}@example.com>\r\nMIME-Version: 1.0\r\n`;
  if (kind === "quoted") {
    const line = "> Some words of a long quoted history that goes on and on about the project.\r\n";
    return Buffer.from(
      `${head}Content-Type: text/plain; charset=utf-8\r\n\r\nThanks, the map works for us!\r\n\r\nOn Mon, Jan 1, 2030 at 10:00 Agency wrote:\r\n${line.repeat(Math.floor(bytes / line.length))}`,
    );
  }
  const quoted = "<blockquote><p>Earlier words of the agency, quoted again and again in the thread.</p></blockquote>\r\n";
  return Buffer.from(
    `${head}Content-Type: text/html; charset=utf-8\r\n\r\n<html><head><style>p{color:red}</style></head><body><p>Thanks &amp; see you <b>Monday</b>!</p>\r\n<div>On Mon, Jan 1, 2030 at 10:00 Agency wrote:</div>\r\n${quoted.repeat(Math.floor(bytes / quoted.length))}</body></html>`,
  );
}

/** An HTTP /healthz in this process, polled every 50 ms: the slowest answer seen. */
function healthProbe() {
  let slowest = 0;
  let timer: NodeJS.Timeout | undefined;
  const server = http.createServer((_req, res) => res.end("ok"));
  return {
    async start() {
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/healthz`;
      const poll = async () => {
        const started = performance.now();
        await (await fetch(url)).text();
        slowest = Math.max(slowest, performance.now() - started);
        timer = setTimeout(() => void poll(), 50);
      };
      void poll();
    },
    async stop() {
      clearTimeout(timer);
      await new Promise((resolve) => server.close(resolve));
      return slowest;
    },
  };
}

describe("reading a reply's text is bounded", () => {
  it("keeps the reply of a text with a long quoted history, and reads HTML as text", () => {
    const history = "> quoted line of the history\n".repeat(200_000);
    expect(extractReply(`Thanks!\n\nOn Mon, Jan 1, 2030 at 10:00 Agency wrote:\n${history}`)).toBe("Thanks!");
    expect(htmlToText("<style>x{}</style><p>Thanks &amp; <b>bye</b></p><p>Line&nbsp;two&#33;</p>")).toBe("Thanks & bye\nLine two!\n");
  });
});

describe.each(testDatabases())("a large e-mail reply on %s", (_name, open) => {
  const ctx = useTestServices(open);
  let probe: ReturnType<typeof healthProbe>;
  beforeAll(() => {
    probe = healthProbe();
  });
  afterAll(async () => {
    await probe.stop().catch(() => {});
  });

  it("is posted (24 MB text, 8 MB HTML) while the process keeps answering /healthz", async () => {
    const client = await makeClient(ctx.s, { verified: true });
    const proposalId = await insertProposal(ctx.s.db, { clientId: client.id, projectName: "Bakery site" });
    const deps: InboundDeps = {
      db: ctx.s.db,
      secret: SECRET,
      domain: DOMAIN,
      post: createThreadPoster({ db: ctx.s.db, files: createDatabaseFileStore(ctx.s.db), maxUploadMb: 25 }),
    };
    const address = replyAddress(SECRET, DOMAIN, { userId: client.id, proposalId });
    const text = largeReply(client.email, address, "quoted", 24);
    const html = largeReply(client.email, address, "html", 8);
    await probe.start();
    const first = await receiveInboundMail(deps, text);
    const second = await receiveInboundMail(deps, html);
    const slowest = await probe.stop();
    expect(first).toMatchObject({ status: "posted", proposalId });
    expect(second).toMatchObject({ status: "posted", proposalId });
    const bodies = await ctx.s.db
      .select({ body: proposalMessage.body, via: proposalMessage.via })
      .from(proposalMessage)
      .where(eq(proposalMessage.proposalId, proposalId))
      .orderBy(proposalMessage.id);
    expect(bodies).toEqual([
      { body: "Thanks, the map works for us!", via: "email" },
      { body: "Thanks & see you Monday!", via: "email" },
    ]);
    expect(slowest).toBeLessThan(STALL_BUDGET_MS);
  });
});
