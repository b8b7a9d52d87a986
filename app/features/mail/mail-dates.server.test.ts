/**
 * Times in e-mails (issue #41): in words and the reader's zone, never raw ISO — the formatter, the
 * reader's zone (their browser's, else the agency's), and the receipt mail with its date, method and
 * receipt number. On PGlite and PostgreSQL.
 */
import { eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, payments, settings, user } from "#app/db/schema";
import { recordPayment } from "#app/features/payments/record-payment.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { formatMailDate, formatMailTime, readerTimeZone, rememberTimeZone } from "./mail-dates.server";

const ISO = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

describe("formatMailTime", () => {
  it("writes the time in words in the zone, with the zone's short name", () => {
    const at = new Date("2026-11-28T23:50:00Z");
    expect(formatMailTime(at, "UTC")).toBe("28 Nov 2026, 23:50 UTC");
    expect(formatMailTime(at, "Europe/Berlin")).toBe("29 Nov 2026, 00:50 GMT+1");
    expect(formatMailTime(at, "America/New_York")).toBe("28 Nov 2026, 18:50 EST");
    expect(formatMailTime(new Date("2026-07-01T12:00:00Z"), "America/New_York")).toBe("1 Jul 2026, 08:00 EDT");
    expect(formatMailTime(at, "Mars/Base")).toBe("28 Nov 2026, 23:50 UTC");
    expect(formatMailTime(new Date(Number.NaN), "UTC")).toBe("an unknown time");
    expect(formatMailDate(at, "Asia/Tokyo")).toBe("29 Nov 2026");
  });
});

describe.each(testDatabases())("mail times on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("reads the reader's zone (their browser's, else the agency's) and the receipt says date, method and number", async () => {
    const { t, s, admin } = ctx;
    await t.db
      .insert(settings)
      .values({ id: 1, timeZone: "Europe/Berlin" })
      .onConflictDoUpdate({ target: settings.id, set: { timeZone: "Europe/Berlin" } });
    const client = await makeClient(s);
    expect(await readerTimeZone(t.db, client.id)).toBe("Europe/Berlin");
    await rememberTimeZone(t.db, client.id, "Not/AZone");
    expect(await readerTimeZone(t.db, client.id)).toBe("Europe/Berlin");
    await rememberTimeZone(t.db, client.id, "Asia/Tokyo");
    expect((await t.db.select({ timeZone: user.timeZone }).from(user).where(eq(user.id, client.id)))[0]!.timeZone).toBe("Asia/Tokyo");
    expect(await readerTimeZone(t.db, client.id)).toBe("Asia/Tokyo");

    // A payment received late on 28 Nov UTC is on 29 Nov for the reader in Tokyo.
    const proposalId = await insertProposal(t.db, { clientId: client.id });
    const invoiceId = await insertInvoice(t.db, { proposalId, clientId: client.id, items: [["Build", 50_000]], dueDate: "2031-01-01" });
    await recordPayment(t.db, admin, invoiceId, {
      amountCents: 20_000,
      currency: "USD",
      method: "bank_transfer",
      receivedAt: new Date("2026-11-28T23:50:00Z"),
      reference: null,
    });
    const [payment] = await t.db.select({ id: payments.id }).from(payments).where(eq(payments.invoiceId, invoiceId));
    const [mail] = await t.db.select().from(mailOutbox).where(like(mailOutbox.subject, "Receipt:%"));
    expect(mail!.to).toBe(client.email);
    expect(mail!.text).toContain(`Date: 29 Nov 2026. Method: Bank transfer. Receipt number: R-${payment!.id}.`);
    expect(mail!.text).not.toMatch(ISO);
  });
});
