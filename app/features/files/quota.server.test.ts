/**
 * Issue #36 (hostile input): a client organisation's storage quota (Settings) and the hourly upload
 * and message budgets per account — 413 and 429 with a sentence, nothing stored past them.
 */
import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { fileObject, rateWindow, settings, storedFile } from "#app/db/schema";
import type { Database } from "#app/db/client.server";
import { postMessage, MESSAGE_RATE, type ConversationServices } from "#app/features/conversations/post-message.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeClient, useTestServices } from "../../../tests/helpers/services";
import { createDatabaseFileStore } from "./database-store.server";
import { STORAGE_MESSAGES, storageOfProposal, storePendingFile, UPLOAD_RATE } from "./uploads.server";

const services = (db: Database): ConversationServices => ({ db, files: createDatabaseFileStore(db), maxUploadMb: 5 });
/** A PNG header followed by `size` bytes in all. */
const png = (size: number) => {
  const bytes = Buffer.alloc(size);
  Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex").copy(bytes);
  return bytes;
};

describe.each(testDatabases())("storage quota and hourly budgets on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("refuses with 413 the file that would pass the organisation's quota and stores nothing of it; other clients are not affected", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    await t.db
      .insert(settings)
      .values({ id: 1, storageQuotaMb: 1 })
      .onConflictDoUpdate({ target: settings.id, set: { storageQuotaMb: 1 } });
    const client = await makeClient(s);
    const first = await insertProposal(t.db, { clientId: client.id });
    const second = await insertProposal(t.db, { clientId: client.id });
    await postMessage(c, { author: client, proposalId: first, text: "Brief", attachments: [{ name: "a.png", content: png(700_000) }] });
    expect(await storageOfProposal(t.db, second)).toEqual({ usedBytes: 700_000, quotaBytes: 1024 * 1024 });
    const filesBefore = (await t.db.select({ n: count() }).from(storedFile))[0]!.n;
    const objectsBefore = (await t.db.select({ n: count() }).from(fileObject))[0]!.n;
    // The quota counts the organisation's files across its proposals.
    const refused = await refusalOf(
      postMessage(c, { author: client, proposalId: second, text: "More", attachments: [{ name: "b.png", content: png(400_000) }] }),
    );
    expect(refused).toMatchObject({ status: 413, message: STORAGE_MESSAGES.full("684 KB", "1.0 MB") });
    expect(refused.fieldErrors?.files?.[0]).toContain("of the 1.0 MB of storage");
    expect((await t.db.select({ n: count() }).from(storedFile))[0]!.n).toBe(filesBefore);
    expect((await t.db.select({ n: count() }).from(fileObject))[0]!.n).toBe(objectsBefore);
    // What fits still goes in; another client has its own room.
    await postMessage(c, { author: client, proposalId: second, text: "Small", attachments: [{ name: "c.png", content: png(200_000) }] });
    const other = await makeClient(s);
    const theirs = await insertProposal(t.db, { clientId: other.id });
    await postMessage(c, { author: other, proposalId: theirs, text: "Mine", attachments: [{ name: "d.png", content: png(900_000) }] });
  });

  it("counts uploads and messages per account per hour: 429 with the wait, admins not limited", async () => {
    const { t, s } = ctx;
    const c = services(t.db);
    const client = await makeClient(s);
    const admin = await makeAdmin(s);
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    // The budgets are nearly used up (as after a burst), then the next ones are refused.
    const now = new Date();
    await t.db.insert(rateWindow).values([
      { key: `message:${client.id}`, count: MESSAGE_RATE.limit, windowStart: now },
      { key: `upload:${client.id}`, count: UPLOAD_RATE.limit, windowStart: now },
    ]);
    const message = await refusalOf(postMessage(c, { author: client, proposalId, text: "One more" }));
    expect(message).toMatchObject({ status: 429, message: "You have sent many messages in the last hour. Try again in 60 minutes." });
    const upload = await refusalOf(
      storePendingFile(c, {
        proposalId,
        uploader: { id: client.id, name: "C" },
        name: "x.png",
        content: (async function* () {
          yield png(100);
        })(),
      }),
    );
    expect(upload).toMatchObject({ status: 429 });
    expect(upload.message).toMatch(/^You have uploaded many files in the last hour\. Try again in \d+ minutes?\.$/);
    // The admin answers whatever the client's budget.
    await postMessage(c, { author: admin, proposalId, text: "We read you" });
    expect(
      (
        await t.db
          .select()
          .from(rateWindow)
          .where(eq(rateWindow.key, `message:${admin.id}`))
      ).length,
    ).toBe(0);
  });
});
