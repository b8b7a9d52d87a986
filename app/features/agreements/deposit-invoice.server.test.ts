/**
 * #37: accept → sign → the deposit invoice at once; the status follows the work; a card payment is
 * credited to the client who paid.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, invoice, invoiceItem, mailOutbox } from "#app/db/schema";
import { recordPayment } from "#app/features/payments/record-payment.server";
import { getInvoiceMoney } from "#app/features/payments/balance.server";
import { submitAmbassadorProposal } from "#app/features/proposals/proposals.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, proposalRow } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { acceptOffer } from "./acceptance.server";
import { depositSentence } from "./deposit-invoice.server";
import { saveOffer } from "./offers.server";
import type { OfferTermsInput } from "./versions.server";

const META = { ip: "203.0.113.9", userAgent: "TestAgent/1.0", timeZone: "UTC", origin: "https://portal.example" };

/** $6,380.00 with a $1,500.00 deposit: the issue's own example. */
const OFFER: OfferTermsInput = {
  projectName: "Bakery site",
  scope: "Design and build.",
  items: [
    { description: "Design", quantity: 1, unitPriceCents: 238_000 },
    { description: "Pages", quantity: 4, unitPriceCents: 100_000 },
  ],
  timeline: "6 weeks",
  deposit: { kind: "amount", value: 150_000 },
  validUntil: null,
};

describe("the deposit sentence", () => {
  it("says what is paid now and what remains, never a larger total", () => {
    const terms = { deposit: OFFER.deposit, totalCents: 638_000, currency: "USD" };
    expect(depositSentence(terms, "2026-06-09")).toBe("Pay $1,500.00 now (deposit). The remaining $4,880.00 is due by Jun 9, 2026.");
    expect(depositSentence({ ...terms, deposit: { kind: "percent", value: 100 } }, "2026-06-09")).toBe("Pay $6,380.00 now (deposit).");
    expect(depositSentence({ ...terms, deposit: null }, "2026-06-09")).toBeNull();
  });
});

describe.each(testDatabases())("accept, sign, pay on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("issues the deposit invoice at acceptance; paying the deposit moves the proposal to In progress", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    const accepted = await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 1 }, META);
    expect(accepted.invoiceId).not.toBeNull();
    const invoiceId = accepted.invoiceId!;
    const [row] = await t.db.select().from(invoice).where(eq(invoice.id, invoiceId));
    expect(row).toMatchObject({ proposalId: id, clientId: client.id, totalCents: 638_000, depositCents: 150_000, status: "unpaid" });
    expect(row!.number).toMatch(/^INV-\d{4}-\d{4}$/);
    const items = await t.db.select().from(invoiceItem).where(eq(invoiceItem.invoiceId, invoiceId)).orderBy(invoiceItem.position);
    expect(items.map((i) => [i.description, i.amountCents])).toEqual([
      ["Design", 238_000],
      ["Pages (4 × $1,000.00)", 400_000],
    ]);
    expect((await getInvoiceMoney(t.db, invoiceId)).dueNowCents).toBe(150_000);
    // The client's mail says what to pay now, with their own signed link.
    const mail = (await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email))).find((m) =>
      m.subject.startsWith(`New invoice ${row!.number}`),
    );
    expect(mail!.text).toContain("Pay $1,500.00 now (deposit). The remaining $4,880.00 is due by");
    expect(mail!.text).toMatch(/\/i\/\S+/);
    // Accepted, deposit unpaid: planning.
    expect((await proposalRow(t.db, id))!.status).toBe("planning");
    // Accepting the same version again issues nothing more.
    expect((await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 1 }, META)).invoiceId).toBeNull();
    expect(await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).toHaveLength(1);

    // The admin records the transfer of part of the deposit: still planning; the rest of it: In progress.
    const payment = { currency: "USD", method: "bank_transfer" as const, receivedAt: new Date(), reference: row!.number };
    await recordPayment(t.db, admin, invoiceId, { ...payment, amountCents: 100_000 });
    expect((await proposalRow(t.db, id))!.status).toBe("planning");
    await recordPayment(t.db, admin, invoiceId, { ...payment, amountCents: 50_000 });
    expect((await proposalRow(t.db, id))!.status).toBe("in_progress");
    const changes = await t.db
      .select({ actorId: auditEvent.actorId, after: auditEvent.after })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "proposal"), eq(auditEvent.entityId, String(id)), eq(auditEvent.action, "status-changed")));
    expect(changes.at(-1)).toEqual({ actorId: admin.id, after: { status: "in_progress" } });
    // A later payment changes nothing more; a status the admin set is left alone.
    await recordPayment(t.db, admin, invoiceId, { ...payment, amountCents: 10_000 });
    expect((await proposalRow(t.db, id))!.status).toBe("in_progress");
  });

  it("moves an ambassador's proposal accepted without a deposit to In progress at once, without an invoice", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    const client = await makeClient(s, { referralCode: ambassador.referralCode, verified: true });
    const { id } = await submitAmbassadorProposal(t.db, ambassador, {
      clientName: "Ann",
      clientEmail: client.email,
      projectName: "Cafe",
      projectDetails: "A cafe site",
      budget: 300_000,
    });
    const accepted = await acceptOffer(t.db, client, id, { typedName: "Ann Client", version: 1 }, META);
    expect(accepted.invoiceId).toBeNull();
    expect((await proposalRow(t.db, id))!.status).toBe("in_progress");
    expect(await t.db.select().from(invoice).where(eq(invoice.proposalId, id))).toEqual([]);
  });
});
