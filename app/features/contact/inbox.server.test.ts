import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, contactMessage } from "#app/db/schema";
import { pageRequestFrom } from "#app/lib/pagination";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import {
  countUnreadMessages,
  deleteContactMessage,
  listContactMessages,
  openContactMessage,
  replyHref,
  setMessageHandled,
} from "./inbox.server";

describe.each(testDatabases())("contact inbox on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  async function insert(values: Partial<typeof contactMessage.$inferInsert> = {}): Promise<number> {
    const [row] = await ctx.t.db
      .insert(contactMessage)
      .values({ userName: "Ada Lovelace", userEmail: "ada@example.org", message: "Hello", ...values })
      .returning({ id: contactMessage.id });
    return row!.id;
  }

  it("lists newest first, unread marked, searchable by name, e-mail and text, paginated", async () => {
    const { t, admin } = ctx;
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push(
        await insert({
          userName: `Sender ${i}`,
          userEmail: `s${i}@example.org`,
          message: i === 3 ? "Need a bakery website\nsoon" : `text ${i}`,
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        }),
      );
    }
    const page1 = await listContactMessages(t.db, admin, {}, { size: 3 });
    expect(page1.total).toBe(5);
    expect(page1.items.map((m) => m.id)).toEqual(ids.slice(2).reverse());
    expect(page1.items[1]).toMatchObject({ userName: "Sender 3", preview: "Need a bakery website soon", read: false, handled: false });
    const page2 = await listContactMessages(t.db, admin, {}, pageRequestFrom(new URLSearchParams({ after: page1.next! }), { size: 3 }));
    expect(page2.items.map((m) => m.id)).toEqual(ids.slice(0, 2).reverse());
    expect((await listContactMessages(t.db, admin, { q: "BAKERY" }, { size: 10 })).items.map((m) => m.id)).toEqual([ids[3]]);
    expect((await listContactMessages(t.db, admin, { q: "s1@" }, { size: 10 })).items.map((m) => m.id)).toEqual([ids[1]]);
    expect((await listContactMessages(t.db, admin, { q: "Sender 4" }, { size: 10 })).items.map((m) => m.id)).toEqual([ids[4]]);
    expect((await listContactMessages(t.db, admin, { q: "100%" }, { size: 10 })).items).toEqual([]);
  });

  it("opening marks read once (audited), a prefetch does not; the unread count follows", async () => {
    const { t, admin } = ctx;
    const id = await insert();
    await insert();
    expect(await countUnreadMessages(t.db, admin)).toBe(2);
    const peek = await openContactMessage(t.db, admin, id, { markRead: false });
    expect(peek.readAt).toBeNull();
    expect(await countUnreadMessages(t.db, admin)).toBe(2);
    const opened = await openContactMessage(t.db, admin, id);
    expect(opened).toMatchObject({ id, userName: "Ada Lovelace", message: "Hello" });
    expect(opened.readAt).toBeInstanceOf(Date);
    await openContactMessage(t.db, admin, id);
    expect(await countUnreadMessages(t.db, admin)).toBe(1);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.entity, "contact"));
    expect(events.map((e) => [e.entityId, e.action, e.actorEmail])).toEqual([[String(id), "read", admin.email]]);
  });

  it("marks handled and not handled, audited, and deletes with an audit of who wrote it", async () => {
    const { t, admin } = ctx;
    const id = await insert();
    await setMessageHandled(t.db, admin, id, true);
    await setMessageHandled(t.db, admin, id, true); // no change, no event
    let [row] = await t.db.select().from(contactMessage).where(eq(contactMessage.id, id));
    expect(row!.handledAt).toBeInstanceOf(Date);
    expect(row!.readAt).toBeInstanceOf(Date);
    await setMessageHandled(t.db, admin, id, false);
    [row] = await t.db.select().from(contactMessage).where(eq(contactMessage.id, id));
    expect(row!.handledAt).toBeNull();
    expect(await deleteContactMessage(t.db, admin, id)).toEqual({ userName: "Ada Lovelace" });
    expect(await t.db.select().from(contactMessage).where(eq(contactMessage.id, id))).toEqual([]);
    const events = await t.db.select().from(auditEvent).where(eq(auditEvent.entity, "contact")).orderBy(auditEvent.id);
    expect(events.map((e) => e.action)).toEqual(["handled", "unhandled", "deleted"]);
    expect(events[2]!.before).toMatchObject({ userName: "Ada Lovelace", userEmail: "ada@example.org", handled: false });
    expect(events[2]!.after).toBeNull();
    expect(await refusalOf(deleteContactMessage(t.db, admin, id))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusalOf(setMessageHandled(t.db, admin, id, true))).toMatchObject({ code: "NOT_FOUND" });
    expect(await refusalOf(openContactMessage(t.db, admin, id))).toMatchObject({ code: "NOT_FOUND" });
  });

  it("refuses everyone but an admin", async () => {
    const { t, s } = ctx;
    const id = await insert();
    const client = await makeClient(s);
    for (const attempt of [
      listContactMessages(t.db, client, {}, { size: 5 }),
      countUnreadMessages(t.db, client),
      openContactMessage(t.db, client, id),
      setMessageHandled(t.db, client, id, true),
      deleteContactMessage(t.db, client, id),
    ]) {
      expect(await refusalOf(attempt)).toMatchObject({ code: "FORBIDDEN" });
    }
    const [row] = await t.db.select().from(contactMessage).where(eq(contactMessage.id, id));
    expect(row).toMatchObject({ readAt: null, handledAt: null });
  });

  it("prefills the reply's subject", () => {
    expect(replyHref({ userEmail: "ada+x@example.org" }, "Alex Rivera")).toBe(
      "mailto:ada%2Bx@example.org?subject=Re%3A%20your%20message%20to%20Alex%20Rivera",
    );
  });
});
