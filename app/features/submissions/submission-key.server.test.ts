/**
 * Issue #36: a post repeated with the same form key (a retry after the connection dropped while
 * the first one was being saved) answers the first post and writes nothing — conversation
 * messages (with files) and contact messages; at the same moment too
 * (`form_submission`'s primary key decides). A post without a key, or with another key, is a new post.
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessage, formSubmission, mailOutbox, proposalMessage, storedFile } from "#app/db/schema";
import type { Database } from "#app/db/client.server";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import { submitContactMessage } from "#app/features/contact/contact.server";
import { postMessage, type ConversationServices } from "#app/features/conversations/post-message.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { newSubmissionKey, parseSubmissionKey, purgeSubmissionKeys } from "./submission-key.server";

const services = (db: Database): ConversationServices => ({ db, files: createDatabaseFileStore(db), maxUploadMb: 1 });
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");

describe("parseSubmissionKey", () => {
  it("takes UUIDs and 16–64 URL-safe characters, nothing else", () => {
    expect(parseSubmissionKey(newSubmissionKey())).toMatch(/^[0-9a-f-]{36}$/);
    expect(parseSubmissionKey("a".repeat(16))).toBe("a".repeat(16));
    for (const bad of [undefined, null, 42, "", "short", "a".repeat(65), "has space in it!!", "x'; drop table --"]) {
      expect(parseSubmissionKey(bad)).toBeUndefined();
    }
  });
});

describe.each(testDatabases())("idempotent posts on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("a conversation message posted twice with one key is saved once; the repeat answers the first message and drops its files", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const key = newSubmissionKey();
    const post = () =>
      postMessage(c, {
        author: client,
        proposalId,
        text: "Is the shop included?",
        attachments: [{ name: "logo.png", content: PNG }],
        submissionKey: key,
      });
    const first = await post();
    const again = await post();
    expect(again.id).toBe(first.id);
    expect(again.repeat).toBe(true);
    const messages = await t.db.select({ n: count() }).from(proposalMessage).where(eq(proposalMessage.proposalId, proposalId));
    expect(messages[0]!.n).toBe(1);
    // The repeat's upload is not left behind: one stored file, attached to the message.
    const files = await t.db.select({ messageId: storedFile.messageId }).from(storedFile).where(eq(storedFile.proposalId, proposalId));
    expect(files).toEqual([{ messageId: first.id }]);

    // Another key (the next message) and no key (an old form) are new posts.
    await postMessage(c, { author: client, proposalId, text: "Is the shop included?", submissionKey: newSubmissionKey() });
    await postMessage(c, { author: client, proposalId, text: "Is the shop included?" });
    const after = await t.db.select({ n: count() }).from(proposalMessage).where(eq(proposalMessage.proposalId, proposalId));
    expect(after[0]!.n).toBe(3);
  });

  it("the same message posted with one key at the same moment is saved once", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const client = await makeClient(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const key = newSubmissionKey();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => postMessage(c, { author: client, proposalId, text: "Sent four times at once", submissionKey: key })),
    );
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    const messages = await t.db.select({ n: count() }).from(proposalMessage).where(eq(proposalMessage.proposalId, proposalId));
    expect(messages[0]!.n).toBe(1);
  });

  it("a contact message sent twice with one key is stored and mailed once, and the repeat is not rate-limited", async () => {
    const { t } = ctx;
    const key = newSubmissionKey();
    const input = { user_name: "Ada", user_email: "ada-idem@example.org", user_phone: "", message: "Once, please." };
    const ctxOf = { ownerEmail: "owner@example.com", ip: "203.0.113.77", submissionKey: key };
    const first = await submitContactMessage(t.db, input, ctxOf);
    for (let i = 0; i < 6; i++) expect(await submitContactMessage(t.db, input, ctxOf)).toEqual(first);
    const rows = await t.db.select({ n: count() }).from(contactMessage).where(eq(contactMessage.userEmail, "ada-idem@example.org"));
    expect(rows[0]!.n).toBe(1);
    const mails = await t.db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.replyTo, "ada-idem@example.org"));
    expect(mails[0]!.n).toBe(1);
  });

  it("the table refuses a second row for a key, and old keys are purged", async () => {
    const { t } = ctx;
    await t.db.insert(formSubmission).values({ scope: "user:x", key: "k".repeat(20) });
    await expect(t.db.insert(formSubmission).values({ scope: "user:x", key: "k".repeat(20) })).rejects.toThrow();
    await t.db
      .insert(formSubmission)
      .values({ scope: "user:x", key: "old".repeat(6), createdAt: new Date(Date.now() - 8 * 24 * 3600_000) });
    expect(await purgeSubmissionKeys(t.db)).toBe(1);
    const left = await t.db.select({ key: formSubmission.key }).from(formSubmission);
    expect(left).toEqual([{ key: "k".repeat(20) }]);
  });
});
