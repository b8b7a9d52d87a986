/**
 * E-mail replies (docs/product.md#email-replies) on PGlite and PostgreSQL: a reply sent by SMTP
 * (nodemailer to the app's listener) and one posted to the webhook, each with an attachment and a
 * quoted history, reach the conversation's poster with exactly the new text and the file; a forged
 * token, an expired token, a wrong From, a deactivated user, a duplicate Message-ID and automatic
 * mail post nothing; the sender of refused replies is told once per hour; conversation mails carry
 * the recipient's reply address.
 *
 * The poster is the app's (`createThreadPoster` → the conversation's `postMessage`, with the database
 * file store); the tests also record what reached it, and can make it refuse once.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import net from "node:net";
import { and, eq, like } from "drizzle-orm";
import nodemailer from "nodemailer";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { inboundMail, mailOutbox, proposalMessage, rateWindow, storedFile } from "#app/db/schema";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import { deliverDueMails, type OutboxMessage } from "#app/features/mail/outbox.server";
import { setProposalStatus } from "#app/features/proposals/proposals.admin.server";
import { setUserActive } from "#app/features/users/users.server";
import { AppError } from "#app/lib/errors";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeAdmin, makeClient, useTestServices } from "../../../tests/helpers/services";
import { INBOUND_MESSAGES } from "./inbound.messages";
import { receiveInboundMail, REFUSAL_NOTICE_GLOBAL_LIMIT, type InboundDeps, type ThreadPostInput } from "./inbound.server";
import { createReplyToken, replyAddress, REPLY_TOKEN_TTL_MS, verifyReplyToken } from "./reply-token.server";
import { startInboundSmtp, type InboundSmtp } from "./smtp-listener.server";
import { createThreadPoster } from "./thread-poster.server";
import { inboundWebhook } from "./webhook.server";

const SECRET = "test-secret-test-secret-test-secret-0123";
const DOMAIN = "reply.portal.test";
const WEBHOOK_TOKEN = "webhook-token-webhook-token-0123";
const PDF = Buffer.from("%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n");

const QUOTED = [
  "",
  "On Tue, Nov 24, 2026 at 10:00 AM Agency <reply+x@reply.portal.test> wrote:",
  "> Can the contact page have a map?",
  "> -- ",
  "> The agency",
].join("\n");

/** A raw RFC 822 message, as a mail program would send it. */
async function rawMail(options: {
  from: string;
  to: string;
  text: string;
  messageId?: string;
  attach?: boolean;
  headers?: Record<string, string>;
}) {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await composer.sendMail({
    from: options.from,
    to: options.to,
    subject: "Re: New message about Bakery site",
    text: options.text,
    messageId: options.messageId,
    headers: options.headers,
    attachments: options.attach ? [{ filename: "brief.pdf", content: PDF, contentType: "application/pdf" }] : [],
  });
  return (info as unknown as { message: Buffer }).message;
}

describe("reply tokens", () => {
  it("name the user and the proposal, expire after 60 days, and cannot be altered", () => {
    const now = new Date("2026-11-25T12:00:00Z");
    const token = createReplyToken(SECRET, { userId: "user_AbC123", proposalId: 42 }, now);
    expect(token).toMatch(/^[a-z2-7]+$/);
    expect(verifyReplyToken(SECRET, token, now)).toMatchObject({ userId: "user_AbC123", proposalId: 42 });
    // Case-insensitive (mail systems may change the case of addresses).
    expect(verifyReplyToken(SECRET, token.toUpperCase(), now)).toMatchObject({ proposalId: 42 });
    expect(verifyReplyToken(SECRET, token, new Date(now.getTime() + REPLY_TOKEN_TTL_MS + 1000))).toEqual({ problem: "expired" });
    expect(verifyReplyToken("another-secret-another-secret-0123", token, now)).toEqual({ problem: "forged" });
    const flipped = token.slice(0, 10) + (token[10] === "a" ? "b" : "a") + token.slice(11);
    expect(verifyReplyToken(SECRET, flipped, now)).toEqual({ problem: "forged" });
    expect(verifyReplyToken(SECRET, "not-a-token", now)).toEqual({ problem: "forged" });
    expect(replyAddress(SECRET, DOMAIN, { userId: "u", proposalId: 1 }, now)).toMatch(/^reply\+[a-z2-7]+@reply\.portal\.test$/);
  });
});

describe.each(testDatabases())("e-mail replies on %s", (_name, open) => {
  const ctx = useTestServices(open);
  let posted: ThreadPostInput[];
  let deps: InboundDeps;
  let smtp: InboundSmtp;
  let webhookServer: http.Server;
  let webhookUrl: string;
  let refuseNextPost: AppError | null;

  beforeEach(async () => {
    posted = [];
    refuseNextPost = null;
    deps = {
      db: ctx.s.db,
      secret: SECRET,
      domain: DOMAIN,
      async post(input) {
        if (refuseNextPost) throw refuseNextPost;
        const result = await createThreadPoster({ db: ctx.s.db, files: createDatabaseFileStore(ctx.s.db), maxUploadMb: 25 })(input);
        posted.push(input);
        return result;
      },
    };
    smtp = await startInboundSmtp({
      port: 0,
      host: "127.0.0.1",
      domain: DOMAIN,
      receive: (raw, to) => receiveInboundMail(deps, raw, { to }),
      maxConnectionsPerIp: 3,
    });
    const handler = inboundWebhook({ token: WEBHOOK_TOKEN, receive: (raw) => receiveInboundMail(deps, raw) });
    webhookServer = http.createServer((req, res) => void handler(req, res));
    await new Promise<void>((resolve) => webhookServer.listen(0, "127.0.0.1", resolve));
    webhookUrl = `http://127.0.0.1:${(webhookServer.address() as AddressInfo).port}/webhooks/inbound-mail`;
  });
  afterEach(async () => {
    await smtp.close();
    await new Promise((resolve) => webhookServer.close(resolve));
  });

  async function scene() {
    const admin = await makeAdmin(ctx.s);
    const client = await makeClient(ctx.s, { verified: true });
    const proposalId = await insertProposal(ctx.s.db, { clientId: client.id, projectName: "Bakery site" });
    const address = replyAddress(SECRET, DOMAIN, { userId: client.id, proposalId });
    return { admin, client, proposalId, address };
  }

  const smtpSender = () =>
    nodemailer.createTransport({ host: "127.0.0.1", port: smtp.port, secure: false, ignoreTLS: true, tls: { rejectUnauthorized: false } });

  const postWebhook = (raw: Buffer, token = WEBHOOK_TOKEN) =>
    fetch(webhookUrl, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "message/rfc822" },
      body: new Uint8Array(raw),
    });

  const noticesTo = async (email: string) =>
    ctx.s.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, `${INBOUND_MESSAGES.subject}%`)));

  it("posts a reply sent by SMTP: the new text only, the attachment, as the token's user via e-mail", async () => {
    const { client, proposalId, address } = await scene();
    const info = await smtpSender().sendMail({
      from: client.email,
      to: address,
      subject: "Re: New message about Bakery site",
      text: `Yes, a map would be great.\nNear the bakery, please.\n\n-- \nJane\nAcme Bakery${QUOTED}`,
      attachments: [{ filename: "brief.pdf", content: PDF, contentType: "application/pdf" }],
    });
    expect(info.accepted).toEqual([address]);
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({
      author: { id: client.id, role: "client" },
      proposalId,
      text: "Yes, a map would be great.\nNear the bakery, please.",
      via: "email",
      inboundMessageId: info.messageId,
    });
    expect(posted[0]!.attachments.map((a) => a.name)).toEqual(["brief.pdf"]);
    expect(Buffer.from(posted[0]!.attachments[0]!.content).equals(PDF)).toBe(true);
    // The thread holds exactly the new text and the file, as the client, via e-mail.
    const thread = await ctx.s.db.select().from(proposalMessage).where(eq(proposalMessage.proposalId, proposalId));
    expect(thread).toEqual([
      expect.objectContaining({
        authorId: client.id,
        authorRole: "client",
        body: "Yes, a map would be great.\nNear the bakery, please.",
        visibility: "shared",
        via: "email",
      }),
    ]);
    const files = await ctx.s.db.select().from(storedFile).where(eq(storedFile.messageId, thread[0]!.id));
    expect(files.map((f) => [f.name, f.contentType, f.size])).toEqual([["brief.pdf", "application/pdf", PDF.length]]);
    const stored = await createDatabaseFileStore(ctx.s.db).get(files[0]!.storageKey);
    expect(Buffer.from(await new Response(stored).arrayBuffer()).equals(PDF)).toBe(true);
    const [claimRow] = await ctx.s.db.select().from(inboundMail).where(eq(inboundMail.messageId, info.messageId));
    expect(claimRow).toMatchObject({ userId: client.id, proposalId, postedMessageId: thread[0]!.id });

    // The same message delivered again (same Message-ID), by SMTP or the webhook: posted once.
    const again = await rawMail({ from: client.email, to: address, text: "Yes, a map would be great.", messageId: info.messageId });
    const response = await postWebhook(again);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "duplicate" });
    await smtpSender().sendMail({ envelope: { from: client.email, to: [address] }, raw: again });
    expect(posted).toHaveLength(1);
  });

  it("posts a reply delivered to the webhook (raw RFC 822, bearer token) and refuses a wrong token", async () => {
    const { admin, proposalId } = await scene();
    const address = replyAddress(SECRET, DOMAIN, { userId: admin.id, proposalId });
    const raw = await rawMail({ from: admin.email.toUpperCase(), to: address, text: `We will add it.${QUOTED}`, attach: true });
    expect((await postWebhook(raw, "wrong-token-wrong-token-wrong-01")).status).toBe(401);
    expect((await fetch(webhookUrl, { method: "POST", body: new Uint8Array(raw) })).status).toBe(401);
    expect(posted).toHaveLength(0);
    const response = await postWebhook(raw);
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ status: "posted", proposalId });
    expect(posted).toHaveLength(1);
    expect(posted[0]).toMatchObject({ author: { id: admin.id, role: "admin" }, text: "We will add it.", via: "email" });
    expect(posted[0]!.attachments.map((a) => a.name)).toEqual(["brief.pdf"]);
    const thread = await ctx.s.db.select().from(proposalMessage).where(eq(proposalMessage.proposalId, proposalId));
    expect(thread.map((m) => [m.authorId, m.authorRole, m.body, m.via])).toEqual([[admin.id, "agency", "We will add it.", "email"]]);
  });

  it("refuses forged and expired tokens, a wrong From, a deactivated user and someone no longer in the conversation: nothing is posted, the sender is told once per hour", async () => {
    const { admin, client, proposalId, address } = await scene();
    const send = (raw: Buffer) => postWebhook(raw).then((r) => r.json() as Promise<Record<string, unknown>>);

    const forged = address.replace(/reply\+(\w{12})/, (_m, head: string) => `reply+${head.split("").reverse().join("")}`);
    expect(await send(await rawMail({ from: client.email, to: forged, text: "Forged" }))).toEqual({
      status: "refused",
      reason: "forged",
      told: true,
    });

    const expired = replyAddress(SECRET, DOMAIN, { userId: client.id, proposalId }, new Date(Date.now() - REPLY_TOKEN_TTL_MS - 60_000));
    // Told already within the hour: not told again.
    expect(await send(await rawMail({ from: client.email, to: expired, text: "Late" }))).toEqual({
      status: "refused",
      reason: "expired",
      told: false,
    });
    const notices = await noticesTo(client.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.text).toContain(INBOUND_MESSAGES.forged);
    expect(notices[0]!.headers).toEqual({ "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All" });

    // A From that is no user's is never answered (it may be forged: no backscatter, issue #36).
    const stranger = "someone.else@example.com";
    expect(await send(await rawMail({ from: stranger, to: address, text: "Not me" }))).toEqual({
      status: "refused",
      reason: "wrong-sender",
      told: false,
    });
    expect(await noticesTo(stranger)).toEqual([]);
    // Another user of the portal writing to this client's reply address is told why.
    const colleague = await makeClient(ctx.s, { verified: true });
    expect(await send(await rawMail({ from: colleague.email, to: address, text: "Not mine" }))).toEqual({
      status: "refused",
      reason: "wrong-sender",
      told: true,
    });
    expect((await noticesTo(colleague.email))[0]!.text).toContain(INBOUND_MESSAGES.wrongSender);

    // Another client's proposal: the token's user is not in that conversation.
    const other = await makeClient(ctx.s, { verified: true });
    const othersProposal = await insertProposal(ctx.s.db, { clientId: other.id });
    const notTheirs = replyAddress(SECRET, DOMAIN, { userId: client.id, proposalId: othersProposal });
    expect(await send(await rawMail({ from: client.email, to: notTheirs, text: "Peek" }))).toMatchObject({
      status: "refused",
      reason: "not-allowed",
    });

    await setUserActive(ctx.s.db, admin, client.id, false);
    expect(await send(await rawMail({ from: client.email, to: address, text: "Deactivated" }))).toMatchObject({
      status: "refused",
      reason: "not-allowed",
    });

    // The conversation's own refusal (a file type, the text's length) is told too; nothing stays claimed.
    await setUserActive(ctx.s.db, admin, client.id, true);
    refuseNextPost = new AppError("INVALID_INPUT", "This kind of file is not allowed.");
    const refusedRaw = await rawMail({ from: client.email, to: address, text: "With a bad file", attach: true });
    expect(await send(refusedRaw)).toMatchObject({ status: "refused", reason: "refused-content" });
    expect(posted).toHaveLength(0);
    expect(await ctx.s.db.select().from(inboundMail)).toEqual([]);
    // Delivered again once the conversation accepts it: posted (a refused message is not "seen").
    refuseNextPost = null;
    expect(await send(refusedRaw)).toMatchObject({ status: "posted" });
    expect(posted).toHaveLength(1);
  });

  it("backscatter: a fake reply token with third parties' From addresses mails none of them; known users are told, at most 100 an hour in all (issue #36)", async () => {
    const { admin, client, address } = await scene();
    const send = (raw: Buffer) => postWebhook(raw).then((r) => r.json() as Promise<Record<string, unknown>>);
    const fake = `reply+${"x".repeat(40)}@${DOMAIN}`;
    const outboxBefore = (await ctx.s.db.select().from(mailOutbox)).length;
    for (let i = 0; i < 19; i++) {
      const victim = `victim-${i}@third-party.example`;
      expect(await send(await rawMail({ from: victim, to: i % 2 ? fake : address, text: "Spam" }))).toMatchObject({
        status: "refused",
        told: false,
      });
    }
    expect((await ctx.s.db.select().from(mailOutbox)).length).toBe(outboxBefore);
    // A deactivated user is not answered either (no mail to deactivated users).
    await setUserActive(ctx.s.db, admin, client.id, false);
    expect(await send(await rawMail({ from: client.email, to: fake, text: "Gone" }))).toMatchObject({ told: false });
    expect(await noticesTo(client.email)).toEqual([]);
    // The global cap: once 100 notices went out this hour, a known user is not told either.
    const known = await makeClient(ctx.s, { verified: true });
    await ctx.s.db.insert(rateWindow).values({ key: "inbound-refusal:*", count: REFUSAL_NOTICE_GLOBAL_LIMIT, windowStart: new Date() });
    expect(await send(await rawMail({ from: known.email, to: fake, text: "Capped" }))).toMatchObject({ told: false });
    expect(await noticesTo(known.email)).toEqual([]);
    await ctx.s.db.delete(rateWindow).where(eq(rateWindow.key, "inbound-refusal:*"));
    expect(await send(await rawMail({ from: known.email, to: fake, text: "Told" }))).toMatchObject({ reason: "forged", told: true });
    expect(await noticesTo(known.email)).toHaveLength(1);
  });

  it("ignores automatic mail (out-of-office, bounces) and refuses an empty reply", async () => {
    const { client, address } = await scene();
    const ooo = await rawMail({
      from: client.email,
      to: address,
      text: "I am away until Monday.",
      headers: { "Auto-Submitted": "auto-replied" },
    });
    expect(await (await postWebhook(ooo)).json()).toEqual({ status: "ignored", reason: "automatic" });
    const empty = await rawMail({ from: client.email, to: address, text: `${QUOTED}` });
    expect(await (await postWebhook(empty)).json()).toMatchObject({ status: "refused", reason: "empty" });
    expect(posted).toHaveLength(0);
    expect(await noticesTo(client.email)).toHaveLength(1);
  });

  it("the SMTP listener is no relay: only reply addresses, one per message, a size limit, a per-address connection limit", async () => {
    const { client, address } = await scene();
    await expect(smtpSender().sendMail({ from: client.email, to: "someone@example.com", text: "relay?" })).rejects.toThrow(/550/);
    await expect(smtpSender().sendMail({ from: client.email, to: `info@${DOMAIN}`, text: "hello" })).rejects.toThrow(/550/);
    const second = replyAddress(SECRET, DOMAIN, { userId: client.id, proposalId: 999_999 });
    const both = await smtpSender().sendMail({ from: client.email, to: [address, second], text: "Two threads" });
    expect(both.accepted).toEqual([address]);
    expect(both.rejected).toEqual([second]);
    expect(posted).toHaveLength(1);

    const small = await startInboundSmtp({
      port: 0,
      host: "127.0.0.1",
      domain: DOMAIN,
      receive: (raw, to) => receiveInboundMail(deps, raw, { to }),
      maxBytes: 64 * 1024,
    });
    try {
      const big = nodemailer.createTransport({ host: "127.0.0.1", port: small.port, ignoreTLS: true });
      await expect(big.sendMail({ from: client.email, to: address, text: "x".repeat(100 * 1024) })).rejects.toThrow(/552/);
    } finally {
      await small.close();
    }
    expect(posted).toHaveLength(1);

    // A fourth connection from one address while three are open: 421.
    const sockets = await Promise.all([1, 2, 3].map(() => connectSmtp(smtp.port)));
    const fourth = await connectSmtp(smtp.port);
    expect(fourth.greeting).toMatch(/^421/);
    for (const s of [...sockets, fourth]) s.socket.destroy();
    expect(sockets.every((s) => s.greeting.startsWith("220"))).toBe(true);
  });

  it("conversation mails carry the recipient's reply address, or say to reply in the portal without INBOUND_DOMAIN", async () => {
    const { admin, client, proposalId } = await scene();
    await setProposalStatus(ctx.s.db, admin, proposalId, "planning");
    const sent: OutboxMessage[] = [];
    const options = {
      db: ctx.s.db,
      from: "Portal <no-reply@portal.test>",
      origin: "https://portal.test",
      adminEmail: "owner@portal.test",
      send: async (message: OutboxMessage) => void sent.push(message),
    };
    await deliverDueMails({ ...options, replyAddress: (t) => replyAddress(SECRET, DOMAIN, t) });
    const mail = sent.find((m) => m.to === client.email && m.subject.includes("status is now"))!;
    const token = /^reply\+([a-z2-7]+)@reply\.portal\.test$/.exec(mail.replyTo ?? "")![1]!;
    expect(verifyReplyToken(SECRET, token)).toMatchObject({ userId: client.id, proposalId });
    expect(mail.text).toContain("You can answer by replying to this e-mail");

    await setProposalStatus(ctx.s.db, admin, proposalId, "review");
    sent.length = 0;
    await deliverDueMails(options);
    const plain = sent.find((m) => m.to === client.email && m.subject.includes("status is now"))!;
    expect(plain.replyTo).toBeNull();
    expect(plain.text).toContain("Please reply in the portal");
  });
});

/** Opens an SMTP connection and reads its greeting line. */
function connectSmtp(port: number): Promise<{ socket: net.Socket; greeting: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("error", reject);
    socket.once("data", (chunk) => resolve({ socket, greeting: chunk.toString() }));
  });
}
