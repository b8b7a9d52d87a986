import { and, count, eq, sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { auditEvent, fileObject, mailOutbox, storedFile, user } from "#app/db/schema";
import { setProposalStatus } from "#app/features/proposals/proposals.admin.server";
import { deleteProposal, submitRevision, updateProposal } from "#app/features/proposals/proposals.server";
import { deleteUser } from "#app/features/users/users.server";
import { storageUsed, sweepFiles } from "#app/features/files/uploads.server";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import type { Database } from "#app/db/client.server";
import { deleteMessage, editMessage } from "./edit-message.server";
import { listConversations } from "./inbox.server";
import { flushDueMessageMails } from "./message-mail.server";
import { postMessage, type ConversationServices } from "./post-message.server";
import { getStatusEventsForAmbassador, getThread, listThreadFiles } from "./timeline.server";
import { countUnread, rowsOf, UNREAD_CAP, unreadByProposal } from "./unread.server";
import { decodeCursor } from "#app/lib/pagination";
import type { Actor } from "#app/features/users/actor";
import { withRequestMemo } from "#app/db/request-memo.server";
import { readProposalFor } from "#app/features/proposals/proposal-detail.server";

const services = (db: Database): ConversationServices => ({ db, files: createDatabaseFileStore(db), maxUploadMb: 1 });
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const page = { size: 25 };

async function mailsTo(db: Database, email: string) {
  const rows = await db
    .select({ subject: mailOutbox.subject, text: mailOutbox.text, html: mailOutbox.html })
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email))
    .orderBy(mailOutbox.id);
  return rows.filter((m) => /messages? about /.test(m.subject));
}

describe.each(testDatabases())("conversations on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("shows one timeline, oldest first: events and messages; a client never gets an internal note (messages, files, events, mails)", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const admin = await makeAdmin(s);
    const client = await makeClient(s, { businessName: "Bakery Co" });
    const id = await insertProposal(t.db, { clientId: client.id, projectName: "Bakery site", status: "pending" });
    const t0 = new Date("2031-01-01T10:00:00Z");
    await updateProposal(t.db, client, id, {
      projectName: "Bakery site",
      projectDetails: "More pages",
      timeline: null,
      budget: 100_00,
      targetAudience: null,
      designInspiration: null,
      numberOfPages: 3,
      websiteGoal: null,
    } as never);
    const first = await postMessage(c, {
      author: client,
      proposalId: id,
      text: "Can the contact page have a map?",
      attachments: [{ name: "logo.png", content: PNG }],
      now: t0,
    });
    await setProposalStatus(t.db, admin, id, "review");
    await postMessage(c, {
      author: admin,
      proposalId: id,
      text: "Yes, see https://maps.example.com",
      now: new Date(t0.getTime() + 60_000),
    });
    await postMessage(c, {
      author: admin,
      proposalId: id,
      text: "SECRET internal pricing note",
      visibility: "internal",
      attachments: [{ name: "costs.png", content: PNG }],
      now: new Date(t0.getTime() + 120_000),
    });
    await submitRevision(t.db, client, id, "Bigger logo please");

    const forClient = await getThread(t.db, client, id);
    const serialized = JSON.stringify(forClient);
    expect(serialized).not.toContain("SECRET");
    expect(serialized).not.toContain("costs.png");
    expect(forClient.entries.filter((e) => e.kind === "message").map((e) => (e.kind === "message" ? e.body : ""))).toEqual([
      "Can the contact page have a map?",
      "Yes, see https://maps.example.com",
    ]);
    const texts = forClient.entries.filter((e) => e.kind === "event").map((e) => (e.kind === "event" ? e.text : ""));
    expect(texts).toEqual(
      expect.arrayContaining([
        "edited the request: project details, budget, number of pages",
        "changed the status from Pending to Review",
        "requested a revision",
      ]),
    );
    expect(forClient.fileCount).toBe(1);
    expect(JSON.stringify(await listThreadFiles(t.db, client, id))).not.toContain("costs.png");

    const forAdmin = await getThread(t.db, admin, id);
    expect(forAdmin.entries.some((e) => e.kind === "message" && e.internal && e.body.includes("SECRET"))).toBe(true);
    expect((await listThreadFiles(t.db, admin, id)).files.map((f) => f.name)).toEqual(["costs.png", "logo.png"]);
    // Oldest first.
    const times = forAdmin.entries.map((e) => e.createdAt);
    expect([...times].sort()).toEqual(times);
    expect(first.files[0]!.contentType).toBe("image/png");

    // Mails: the client's got the reply, never the note.
    const clientMails = await mailsTo(t.db, client.email);
    expect(clientMails.some((m) => m.text.includes("Yes, see https://maps.example.com"))).toBe(true);
    expect(JSON.stringify(clientMails)).not.toContain("SECRET");
    // Audit trail: every post recorded, with the proposal id.
    const [{ n }] = await t.db
      .select({ n: count() })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "message"), eq(auditEvent.proposalId, id)));
    expect(n).toBe(3);

    // Another client and an ambassador: 404.
    const other = await makeClient(s);
    expect((await refusalOf(getThread(t.db, other, id))).status).toBe(404);
    expect((await refusalOf(postMessage(c, { author: other, proposalId: id, text: "hi" }))).status).toBe(404);
    const ambassador = await makeAmbassador(s);
    expect((await refusalOf(getThread(t.db, ambassador, id))).status).toBe(404);
    // A client cannot write a note.
    expect((await refusalOf(postMessage(c, { author: client, proposalId: id, text: "x", visibility: "internal" }))).status).toBe(403);
  });

  it("on a proposal page's request, reads the conversation without a third read of the proposal the page read (issue #42), and still refuses anyone else", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    // What the session middleware sets: the address's verification read this request.
    const client = { ...(await makeClient(s, { businessName: "Bakery Co" })), emailVerified: false };
    const other = { ...(await makeClient(s)), emailVerified: false };
    const id = await insertProposal(t.db, { clientId: client.id, projectName: "Bakery site", status: "pending" });
    await postMessage(services(t.db), { author: client, proposalId: id, text: "Hello", now: new Date("2031-01-01T10:00:00Z") });
    for (const actor of [client, admin]) {
      const expected = await getThread(t.db, actor, id, { markAsRead: false });
      // The page read the proposal first: the conversation sends one statement fewer, same answer.
      const page = withRequestMemo(t.db);
      expect(await readProposalFor(page, actor, id)).not.toBeNull();
      const pageSelects = vi.spyOn(page, "select");
      expect(await getThread(page, actor, id, { markAsRead: false })).toEqual(expected);
      const alone = withRequestMemo(t.db);
      const aloneSelects = vi.spyOn(alone, "select");
      expect(await getThread(alone, actor, id, { markAsRead: false })).toEqual(expected);
      expect(pageSelects.mock.calls.length, actor.role).toBe(aloneSelects.mock.calls.length - 1);
    }
    // Another client's request that read (and was refused) the proposal: still 404.
    const theirs = withRequestMemo(t.db);
    expect(await readProposalFor(theirs, other, id)).toBeNull();
    expect((await refusalOf(getThread(theirs, other, id, { markAsRead: false }))).status).toBe(404);
  });

  it("keeps read positions and unread counts per participant; opening the thread marks it read", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const admin = await makeAdmin(s);
    const admin2 = await makeAdmin(s);
    const client = await makeClient(s, { businessName: "Findable Bakery" });
    const a = await insertProposal(t.db, { clientId: client.id, projectName: "Site A" });
    const b = await insertProposal(t.db, { clientId: client.id, projectName: "Site B" });
    await postMessage(c, { author: client, proposalId: a, text: "one" });
    await postMessage(c, { author: client, proposalId: a, text: "two" });
    await postMessage(c, { author: client, proposalId: b, text: "three" });
    expect(await countUnread(t.db, admin)).toBe(3);
    expect(await unreadByProposal(t.db, admin, [a, b])).toEqual({ [a]: 2, [b]: 1 });
    expect(await countUnread(t.db, client)).toBe(0); // own messages are never unread

    const inbox = await listConversations(t.db, admin, {}, page);
    expect(inbox.items.map((r) => [r.id, r.unread])).toEqual([
      [b, 1],
      [a, 2],
    ]);
    expect((await listConversations(t.db, admin, { q: "findable" }, page)).items).toHaveLength(2);
    expect((await listConversations(t.db, admin, { q: "no such thing" }, page)).items).toHaveLength(0);

    const opened = await getThread(t.db, admin, a);
    expect(opened.firstUnreadId).not.toBeNull();
    expect(await countUnread(t.db, admin)).toBe(1);
    expect(await countUnread(t.db, admin2)).toBe(3); // read positions are per admin
    expect((await getThread(t.db, admin, a)).firstUnreadId).toBeNull();
    // Read conversations come after unread ones.
    expect((await listConversations(t.db, admin, {}, page)).items.map((r) => r.id)).toEqual([b, a]);
    await postMessage(c, { author: client, proposalId: a, text: "four" });
    expect((await listConversations(t.db, admin, {}, page)).items.map((r) => [r.id, r.unread])).toEqual([
      [a, 1],
      [b, 1],
    ]);

    // The client: the agency's shared messages only; notes never count.
    await postMessage(c, { author: admin, proposalId: a, text: "reply" });
    await postMessage(c, { author: admin, proposalId: a, text: "note", visibility: "internal" });
    expect(await countUnread(t.db, client)).toBe(1);
    await getThread(t.db, client, a, { markAsRead: false });
    expect(await countUnread(t.db, client)).toBe(1);
    await getThread(t.db, client, a);
    expect(await countUnread(t.db, client)).toBe(0);
  });

  it("keeps the inbox's sort key per admin (issue #30): new client message first for every admin, read drops back, new admin sees all", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    /** Every (admin, conversation) has one row whose key is what the inbox rule computes from scratch. */
    const expectKeptKeys = async () => {
      const rows = await t.db.execute(sql`
        select
          (select count(*)::int from inbox_entry) as kept,
          (select count(*)::int from proposal_thread t cross join "user" a where a.role = 'admin') as expected,
          (select count(*)::int from inbox_entry i
             join proposal_thread t on t.proposal_id = i.proposal_id
             join "user" a on a.id = i.user_id and a.role = 'admin'
             left join proposal_read r on r.user_id = i.user_id and r.proposal_id = i.proposal_id
             where i.inbox_sort = case when t.last_client_message_id > coalesce(r.last_read_message_id, 0)
               then t.last_activity_at + interval '1000 years' else t.last_activity_at end) as right_keys`);
      const [row] = rowsOf<{ kept: number; expected: number; right_keys: number }>(rows);
      expect(row).toEqual({ kept: row!.expected, expected: row!.expected, right_keys: row!.expected });
    };
    const order = async (actor: Actor) => (await listConversations(t.db, actor, {}, page)).items.map((r) => [r.id, r.unread]);
    const admin = await makeAdmin(s);
    const client = await makeClient(s, { businessName: "Sorted Co" });
    const [a, b, quiet] = [
      await insertProposal(t.db, { clientId: client.id, projectName: "Sort A" }),
      await insertProposal(t.db, { clientId: client.id, projectName: "Sort B" }),
      await insertProposal(t.db, { clientId: client.id, projectName: "No messages" }),
    ];
    const t0 = new Date("2031-03-01T10:00:00Z");
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    await postMessage(c, { author: client, proposalId: a, text: "a1", now: at(0) });
    await postMessage(c, { author: admin, proposalId: b, text: "b1", now: at(1) });
    // b has no client message: unread a first although b is newer; no row for a conversation without messages.
    expect(await order(admin)).toEqual([
      [a, 1],
      [b, 0],
    ]);
    expect((await listConversations(t.db, admin, {}, page)).total).toBe(2);
    expect((await listConversations(t.db, admin, {}, page)).items.map((r) => r.id)).not.toContain(quiet);

    // A new admin sees every conversation, unread by them.
    const admin2 = await makeAdmin(s);
    expect(await order(admin2)).toEqual([
      [a, 1],
      [b, 0],
    ]);
    await expectKeptKeys();

    // Reading drops a conversation back among the read ones (newest activity first), for that admin only.
    await getThread(t.db, admin, a);
    expect(await order(admin)).toEqual([
      [b, 0],
      [a, 0],
    ]);
    expect(await order(admin2)).toEqual([
      [a, 1],
      [b, 0],
    ]);
    expect(await countUnread(t.db, admin)).toBe(0);
    await expectKeptKeys();

    // A new client message puts its conversation first for every admin.
    await postMessage(c, { author: client, proposalId: b, text: "b2", now: at(2) });
    expect(await order(admin)).toEqual([
      [b, 1],
      [a, 0],
    ]);
    expect(await order(admin2)).toEqual([
      [b, 1],
      [a, 1],
    ]);
    // An admin's reply marks it read for that admin only and moves its activity.
    await postMessage(c, { author: admin2, proposalId: a, text: "a2", now: at(3) });
    expect(await order(admin2)).toEqual([
      [b, 1],
      [a, 0],
    ]);
    expect(await order(admin)).toEqual([
      [b, 1],
      [a, 0],
    ]);
    await expectKeptKeys();

    // Pages follow the kept key: one row per page, both directions.
    const first = await listConversations(t.db, admin2, {}, { size: 1 });
    const second = await listConversations(t.db, admin2, {}, { size: 1, after: decodeCursor(first.next)! });
    expect([first.items[0]!.id, second.items[0]!.id]).toEqual([b, a]);
    expect((await listConversations(t.db, admin2, {}, { size: 1, before: decodeCursor(second.prev)! })).items[0]!.id).toBe(b);

    // No longer an admin: their rows go; an admin again: they come back. Deleting a proposal removes its row.
    await t.db.update(user).set({ role: "client" }).where(eq(user.id, admin2.id));
    await expectKeptKeys();
    await t.db.update(user).set({ role: "admin" }).where(eq(user.id, admin2.id));
    await expectKeptKeys();
    await deleteProposal(t.db, client, a);
    await expectKeptKeys();
    expect((await listConversations(t.db, admin, {}, page)).total).toBe(1);

    // Threads written in bulk (one statement, as the demo seed does) get their rows set-based.
    const bulk = [
      await insertProposal(t.db, { clientId: client.id, projectName: "Bulk 1" }),
      await insertProposal(t.db, { clientId: client.id, projectName: "Bulk 2" }),
    ];
    await t.db.execute(sql`
      insert into proposal_message (proposal_id, author_id, author_name, author_role, body)
      select p, ${client.id}, 'Sorted Co', 'client', 'bulk' from unnest(${sql.param(bulk)}::integer[]) p`);
    await t.db.execute(sql`
      insert into proposal_thread (proposal_id, last_activity_at, last_message_id, last_client_message_id)
      select proposal_id, now(), max(id), max(id) from proposal_message where proposal_id = any(${sql.param(bulk)}::integer[]) group by proposal_id`);
    await expectKeptKeys();
    expect((await listConversations(t.db, admin, {}, page)).total).toBe(3);
    expect(await order(admin)).toEqual([
      [b, 1], // its client message (2031) is newer than the bulk's (now)
      [bulk[1], 1],
      [bulk[0], 1],
    ]);
  });

  it("counts a badge up to UNREAD_CAP (the header shows 99+), so an admin's pages never sum every conversation", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s, { businessName: "Chatty Co" });
    for (const n of [1, 2]) {
      const id = await insertProposal(t.db, { clientId: client.id, projectName: `Chatty ${n}`, status: "pending" });
      await t.db.execute(sql`
        insert into proposal_message (proposal_id, author_id, author_name, author_role, body)
        select ${id}, ${client.id}, 'Chatty Co', 'client', 'message ' || g from generate_series(1, 70) g`);
      await t.db.execute(sql`
        insert into proposal_thread (proposal_id, last_activity_at, last_message_id, last_client_message_id)
        select ${id}, now(), max(id), max(id) from proposal_message where proposal_id = ${id}`);
    }
    expect(await countUnread(t.db, admin)).toBe(UNREAD_CAP);
    expect(await unreadByProposal(t.db, admin, [])).toEqual({});
  });

  it("mails one message at once, then at most one mail per 10 minutes with the messages of the window", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectName: "Window" });
    const t0 = new Date("2031-02-01T09:00:00Z");
    const at = (min: number) => new Date(t0.getTime() + min * 60_000);
    await postMessage(c, { author: admin, proposalId: id, text: "first", now: t0 });
    expect((await mailsTo(t.db, client.email)).length).toBe(1);
    await postMessage(c, { author: admin, proposalId: id, text: "second", now: at(2) });
    await postMessage(c, { author: admin, proposalId: id, text: "third", now: at(5) });
    expect((await mailsTo(t.db, client.email)).length).toBe(1);
    expect(await flushDueMessageMails(t.db, at(9))).toBe(0);
    expect(await flushDueMessageMails(t.db, at(10))).toBe(1);
    const mails = await mailsTo(t.db, client.email);
    expect(mails).toHaveLength(2);
    expect(mails[1]!.subject).toMatch(/^2 new messages about Window/);
    expect(mails[1]!.text).toContain("second");
    expect(mails[1]!.text).toContain("third");
    expect(mails[1]!.text).not.toContain("first");
    expect(mails[1]!.text).toContain(`/proposals/${id}#conversation`);
    // The next message inside the new window waits too; a deleted one is not mailed.
    const fourth = await postMessage(c, { author: admin, proposalId: id, text: "fourth (deleted)", now: at(11) });
    await deleteMessage(c, admin, { proposalId: id, messageId: fourth.id, now: at(12) });
    expect(await flushDueMessageMails(t.db, at(21))).toBe(0);
    expect((await mailsTo(t.db, client.email)).length).toBe(2);
    // Message mails switched off: none.
    await t.db.update(user).set({ notifyMessages: false }).where(eq(user.id, client.id));
    await postMessage(c, { author: admin, proposalId: id, text: "fifth", now: at(40) });
    expect((await mailsTo(t.db, client.email)).length).toBe(2);
    // The admins got the client's message; notes never mail anyone.
    await postMessage(c, { author: client, proposalId: id, text: "from client", now: at(41) });
    await postMessage(c, { author: admin, proposalId: id, text: "note", visibility: "internal", now: at(42) });
    expect((await mailsTo(t.db, admin.email)).map((m) => m.text).join()).toContain("from client");
    expect(JSON.stringify(await mailsTo(t.db, admin.email))).not.toContain("note");
  });

  it("lets authors edit or delete within 15 minutes, refuses others, deletes files with the message", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id });
    const t0 = new Date();
    const m = await postMessage(c, {
      author: client,
      proposalId: id,
      text: "typo",
      attachments: [{ name: "a.png", content: PNG }],
      now: t0,
    });
    await editMessage(c, client, { proposalId: id, messageId: m.id, text: "fixed" });
    expect((await refusalOf(editMessage(c, admin, { proposalId: id, messageId: m.id, text: "x" }))).status).toBe(403);
    expect((await refusalOf(editMessage(c, client, { proposalId: id, messageId: m.id, text: "x".repeat(10_001) }))).status).toBe(400);
    expect(
      (
        await refusalOf(
          editMessage(c, client, { proposalId: id, messageId: m.id, text: "late", now: new Date(t0.getTime() + 16 * 60_000) }),
        )
      ).status,
    ).toBe(409);
    const thread = await getThread(t.db, admin, id);
    expect(thread.entries.find((e) => e.kind === "message")).toMatchObject({ body: "fixed", edited: true });
    expect(await t.db.$count(fileObject)).toBe(1);
    await deleteMessage(c, client, { proposalId: id, messageId: m.id });
    expect(await t.db.$count(storedFile)).toBe(0);
    expect(await t.db.$count(fileObject)).toBe(0);
    expect((await getThread(t.db, admin, id)).entries.find((e) => e.kind === "message")).toMatchObject({ deleted: true, body: "" });
  });

  it("refuses an empty or too long text and stores nothing of its files", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id });
    const tooLong = await refusalOf(
      postMessage(c, { author: client, proposalId: id, text: "x".repeat(10_001), attachments: [{ name: "a.png", content: PNG }] }),
    );
    expect(tooLong.status).toBe(400);
    expect(tooLong.message).toContain("10,000");
    expect((await refusalOf(postMessage(c, { author: client, proposalId: id, text: "   " }))).status).toBe(400);
    const bad = await refusalOf(
      postMessage(c, {
        author: client,
        proposalId: id,
        text: "exe",
        attachments: [{ name: "x.pdf", content: Buffer.from("MZ\u0090\u0000binary\u0000") }],
      }),
    );
    expect(bad.message).toContain("Allowed: PDF");
    const big = await refusalOf(
      postMessage(c, {
        author: client,
        proposalId: id,
        text: "big",
        attachments: [{ name: "big.txt", content: Buffer.alloc(1024 * 1024 + 1, 97) }],
      }),
    );
    expect(big.message).toContain("larger than 1 MB");
    expect(await t.db.$count(storedFile)).toBe(0);
    expect(await t.db.$count(fileObject)).toBe(0);
  });

  it("shows an ambassador the status events of the proposals they submitted, nothing else", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const admin = await makeAdmin(s);
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s, { verified: true });
    const id = await insertProposal(t.db, { clientId: client.id, ambassadorId: ambassador.id, source: "ambassador", status: "submitted" });
    await setProposalStatus(t.db, admin, id, "planning");
    await postMessage(c, { author: client, proposalId: id, text: "PRIVATE question" });
    await submitRevision(t.db, client, id, "x").catch(() => undefined);
    const view = await getStatusEventsForAmbassador(t.db, ambassador, id);
    expect(view.events.map((e) => e.text)).toEqual(["changed the status from Submitted to Planning"]);
    expect(JSON.stringify(view)).not.toContain("PRIVATE");
    const stranger = await makeAmbassador(s);
    expect((await refusalOf(getStatusEventsForAmbassador(t.db, stranger, id))).status).toBe(404);
  });

  it("deleting a proposal or a user deletes their conversations' files from the store too", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const keep = await insertProposal(t.db, { clientId: client.id, status: "pending" });
    const gone = await insertProposal(t.db, { clientId: client.id, status: "pending" });
    await postMessage(c, { author: client, proposalId: keep, text: "a", attachments: [{ name: "a.png", content: PNG }] });
    await postMessage(c, {
      author: admin,
      proposalId: gone,
      text: "b",
      attachments: [
        { name: "b.png", content: PNG },
        { name: "c.png", content: PNG },
      ],
    });
    expect(await storageUsed(t.db, admin)).toEqual({ files: 3, bytes: 3 * PNG.length });
    expect(await c.files.count()).toBe(3);
    await deleteProposal(t.db, client, gone);
    await sweepFiles(c);
    expect(await c.files.count()).toBe(1);
    await deleteUser(t.db, admin, client.id);
    await sweepFiles(c);
    expect(await c.files.count()).toBe(0);
    expect(await t.db.$count(storedFile)).toBe(0);
    expect((await refusalOf(storageUsed(t.db, client))).status).toBe(403);
  });
});
