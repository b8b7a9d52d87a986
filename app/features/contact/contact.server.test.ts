import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { contactMessage, mailOutbox } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { useTestServices } from "../../../tests/helpers/services";
import { contactSchema } from "./contact.schema";
import { refusalOf } from "../../../tests/helpers/portal";
import { CONTACT_RATE_LIMIT, submitContactMessage } from "./contact.server";

const valid = {
  user_name: "Ada Lovelace",
  user_email: "ada@example.org",
  user_phone: "+1 301 555 0100",
  message: "Can you build my site?",
};

describe("contactSchema", () => {
  it("accepts a valid message and trims fields", () => {
    const parsed = contactSchema.parse({ ...valid, user_name: "  Ada  " });
    expect(parsed.user_name).toBe("Ada");
  });
  it("requires name, e-mail and message with clear messages", () => {
    const result = contactSchema.safeParse({ user_name: " ", user_email: "", message: "" });
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((i) => `${String(i.path[0])}: ${i.message}`);
    expect(messages).toEqual(
      expect.arrayContaining(["user_name: Name is required.", "user_email: Email is required.", "message: Message is required."]),
    );
  });
  it("refuses a malformed e-mail and an over-long message", () => {
    const result = contactSchema.safeParse({ ...valid, user_email: "not-an-email", message: "x".repeat(5_001) });
    expect(result.error!.issues.map((i) => i.message)).toEqual([
      "Enter a valid email address.",
      "Message must be at most 5,000 characters.",
    ]);
  });
});

describe.each(testDatabases())("submitContactMessage on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("stores the message and queues one e-mail to the owner", async () => {
    const { t } = ctx;
    const result = await submitContactMessage(t.db, contactSchema.parse(valid), { ownerEmail: "owner@example.com", ip: "203.0.113.1" });
    expect(result.id).toBeGreaterThan(0);
    const [stored] = await t.db.select().from(contactMessage);
    expect(stored).toMatchObject({
      userName: "Ada Lovelace",
      userEmail: "ada@example.org",
      userPhone: "+1 301 555 0100",
      ip: "203.0.113.1",
    });
    const mails = await t.db.select().from(mailOutbox);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({
      to: "owner@example.com",
      replyTo: "ada@example.org",
      subject: "New contact message from Ada Lovelace — Client Portal",
      sentAt: null,
    });
    expect(mails[0]!.text).toContain("Can you build my site?");
  });

  it("escapes user input in the HTML part", async () => {
    const { t } = ctx;
    await submitContactMessage(t.db, contactSchema.parse({ ...valid, message: "<script>alert(1)</script>" }), {
      ownerEmail: "o@example.com",
      ip: "x",
    });
    const [mail] = await t.db.select().from(mailOutbox);
    expect(mail!.html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(mail!.html).not.toContain("<script>");
  });

  it(`refuses the ${CONTACT_RATE_LIMIT.limit + 1}th message from one IP within the window, writing nothing`, async () => {
    const { t } = ctx;
    const input = contactSchema.parse(valid);
    for (let i = 0; i < CONTACT_RATE_LIMIT.limit; i++) {
      await submitContactMessage(t.db, input, { ownerEmail: "o@example.com", ip: "198.51.100.9" });
    }
    const refused = await refusalOf(submitContactMessage(t.db, input, { ownerEmail: "o@example.com", ip: "198.51.100.9" }));
    expect(refused).toMatchObject({ code: "RATE_LIMITED", status: 429 });
    expect(refused.retryAfterSeconds).toBeGreaterThan(500);
    const [{ n }] = (await t.db.select({ n: count() }).from(contactMessage)) as [{ n: number }];
    expect(n).toBe(CONTACT_RATE_LIMIT.limit);
    expect(await t.db.select().from(mailOutbox)).toHaveLength(CONTACT_RATE_LIMIT.limit);
    // Another IP is not affected.
    expect((await submitContactMessage(t.db, input, { ownerEmail: "o@example.com", ip: "198.51.100.10" })).id).toBeGreaterThan(0);
  });

  it("writes neither the message nor the mail when the transaction fails", async () => {
    const { t } = ctx;
    await expect(
      submitContactMessage(t.db, { ...contactSchema.parse(valid), message: "bad\u0000byte" }, { ownerEmail: "o@example.com", ip: "x" }),
    ).rejects.toThrow();
    expect(await t.db.select().from(contactMessage).where(eq(contactMessage.ip, "x"))).toHaveLength(0);
    expect(await t.db.select().from(mailOutbox)).toHaveLength(0);
  });
});
