/**
 * Payments on invoices (docs/product.md#payments, issue #25): derived money at every boundary, the
 * admin's payments and refunds with their checks, receipts and audit, the places that show the
 * balance, and parallel writes never overdrawing — on PGlite and PostgreSQL.
 */
import { getThread } from "#app/features/conversations/timeline.server";
import { parseWithZod } from "@conform-to/zod/v4";
import { and, eq, like } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { auditEvent, invoice, mailOutbox, payments } from "#app/db/schema";
import { generateInvoice, getInvoiceForAdmin, listInvoicesForAdmin } from "#app/features/invoices/invoices.admin.server";
import { clientBalance, getInvoiceForClient, listClientInvoices } from "#app/features/invoices/invoices.server";
import { invoiceSummary } from "#app/features/invoices/invoice-summary.server";
import type { Actor } from "#app/features/users/actor";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { getInvoiceMoney } from "./balance.server";
import { deriveInvoiceMoney, deriveInvoiceStatus, depositFromPercent } from "./invoice-money";
import { todayIn } from "#app/lib/dates";
import { paymentFormSchema, parsePaymentAmount } from "./payments.schema";
import { recordFullPayment, recordPayment, recordRefund } from "./record-payment.server";

const NOW = new Date();
const TODAY = todayIn(NOW);
const TOMORROW = new Date(NOW.getTime() + 86_400_000);

describe("derived status (pure)", () => {
  const base = { totalCents: 10_000, paidCents: 0, refundedCents: 0, dueDate: "2026-03-10" };
  const NOW = new Date("2026-03-10T15:00:00Z");
  it("Unpaid, Partially paid, Paid at the balance boundaries; due today is not overdue", () => {
    expect(deriveInvoiceStatus(base, NOW)).toBe("pending");
    expect(deriveInvoiceStatus({ ...base, paidCents: 1 }, NOW)).toBe("partial");
    expect(deriveInvoiceStatus({ ...base, paidCents: 9_999 }, NOW)).toBe("partial");
    expect(deriveInvoiceStatus({ ...base, paidCents: 10_000 }, NOW)).toBe("paid");
  });
  it("Overdue and Partially paid · Overdue from the day after the due date (UTC)", () => {
    const tomorrow = new Date("2026-03-11T00:00:00Z");
    expect(deriveInvoiceStatus(base, new Date("2026-03-10T23:59:59Z"))).toBe("pending");
    expect(deriveInvoiceStatus(base, tomorrow)).toBe("overdue");
    expect(deriveInvoiceStatus({ ...base, paidCents: 5_000 }, tomorrow)).toBe("partial-overdue");
    expect(deriveInvoiceStatus({ ...base, paidCents: 10_000 }, tomorrow)).toBe("paid");
  });
  it("a refund credits the invoice: a partial refund stays Paid with balance 0; everything refunded is Refunded", () => {
    const partly = deriveInvoiceMoney({ ...base, paidCents: 10_000, refundedCents: 2_500 }, NOW);
    expect(partly).toMatchObject({ status: "paid", balanceCents: 0, refundedCents: 2_500 });
    expect(deriveInvoiceStatus({ ...base, paidCents: 10_000, refundedCents: 9_999 }, NOW)).toBe("paid");
    expect(deriveInvoiceStatus({ ...base, paidCents: 10_000, refundedCents: 10_000 }, NOW)).toBe("refunded");
    expect(deriveInvoiceStatus({ ...base, paidCents: 4_000, refundedCents: 4_000 }, NOW)).toBe("partial");
  });
  it("deposit: due now is what is left of the deposit, then the balance", () => {
    expect(depositFromPercent(10_000, 30)).toBe(3_000);
    expect(depositFromPercent(333, 50)).toBe(167); // half up
    const withDeposit = { ...base, depositCents: 3_000 };
    expect(deriveInvoiceMoney(withDeposit, NOW)).toMatchObject({ dueNowCents: 3_000, depositDue: true, balanceCents: 10_000 });
    expect(deriveInvoiceMoney({ ...withDeposit, paidCents: 1_000 }, NOW)).toMatchObject({ dueNowCents: 2_000, depositDue: true });
    expect(deriveInvoiceMoney({ ...withDeposit, paidCents: 3_000 }, NOW)).toMatchObject({ dueNowCents: 7_000, depositDue: false });
  });
});

describe("payment form amounts", () => {
  it("refuses 0, negative, more than two decimals, 1e20 and text with a message", () => {
    expect(parsePaymentAmount("1,250.50")).toBe(125_050);
    expect(parsePaymentAmount("$90")).toBe(9_000);
    expect(parsePaymentAmount("0")).toBe("The amount must be more than 0.");
    expect(parsePaymentAmount("0.00")).toBe("The amount must be more than 0.");
    expect(parsePaymentAmount("-5")).toBe("The amount must be more than 0.");
    expect(parsePaymentAmount("12.345")).toMatch(/at most two decimals/);
    expect(parsePaymentAmount("1e20")).toMatch(/at most two decimals/);
    expect(parsePaymentAmount("100000000000000000000")).toMatch(/at most two decimals/);
    expect(parsePaymentAmount("99999999999")).toBe("That amount is too large.");
    expect(parsePaymentAmount("ten")).toMatch(/at most two decimals/);
    const form = new FormData();
    form.set("amount", "abc");
    form.set("method", "wire");
    form.set("receivedOn", "2999-01-01");
    const parsed = parseWithZod(form, { schema: paymentFormSchema });
    expect(parsed.status).toBe("error");
    expect(Object.keys((parsed as { error: Record<string, string[]> }).error).sort()).toEqual(["amount", "method", "receivedOn"]);
  });
});

describe.each(testDatabases())("payments on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  let client: Actor;
  let invoiceId: number;
  let proposalOf: number;
  const pay = (amountCents: number, extra: Partial<Parameters<typeof recordPayment>[3]> = {}) =>
    recordPayment(ctx.t.db, ctx.admin, invoiceId, {
      amountCents,
      currency: "USD",
      method: "bank_transfer",
      receivedAt: NOW,
      reference: null,
      ...extra,
    });

  beforeEach(async () => {
    client = await makeClient(ctx.s, { email: "payer@example.com" });
    const proposalId = await insertProposal(ctx.t.db, { clientId: client.id, status: "in_progress" });
    proposalOf = proposalId;
    ({ id: invoiceId } = await generateInvoice(
      ctx.t.db,
      ctx.admin,
      proposalId,
      { dueDate: TODAY, items: [{ description: "Site", amountCents: 100_000 }] },
      NOW,
      { cardPayments: true },
    ));
  });

  it("partial payment, rest, partial refund: statuses, balances, stored status, lists, client balance, receipts, audit", async () => {
    const { t, admin } = ctx;
    const first = await pay(30_000);
    expect(first.money).toMatchObject({ paidCents: 30_000, balanceCents: 70_000, status: "partial" });
    expect((await getInvoiceForAdmin(t.db, admin, invoiceId, NOW)).displayStatus).toBe("partial");
    expect((await listInvoicesForAdmin(t.db, admin, { filter: "partial" }, { size: 20 }, NOW)).items.map((i) => i.id)).toEqual([invoiceId]);
    expect((await listInvoicesForAdmin(t.db, admin, { filter: "pending" }, { size: 20 }, NOW)).items).toEqual([]);
    const tomorrow = TOMORROW;
    const overdue = await listInvoicesForAdmin(t.db, admin, { filter: "overdue" }, { size: 20 }, tomorrow);
    expect(overdue.items.map((i) => [i.id, i.displayStatus, i.balanceCents])).toEqual([[invoiceId, "partial-overdue", 70_000]]);
    expect(await clientBalance(t.db, client, NOW)).toMatchObject({ outstandingCount: 1, outstandingCents: 70_000, overdueCents: 0 });
    expect(await invoiceSummary(t.db, admin, NOW)).toMatchObject({ unpaidCount: 1, unpaidCents: 70_000, overdueCents: 0 });
    expect(await invoiceSummary(t.db, admin, tomorrow)).toMatchObject({ overdueCount: 1, overdueCents: 70_000 });
    expect(await clientBalance(t.db, client, tomorrow)).toMatchObject({ overdueCount: 1, overdueCents: 70_000 });
    expect((await listClientInvoices(t.db, client, { page: 1 }, NOW)).items[0]).toMatchObject({
      balanceCents: 70_000,
      displayStatus: "partial",
    });

    const rest = await recordFullPayment(t.db, admin, invoiceId, { method: "cash", receivedAt: NOW });
    expect(rest.payment.amountCents).toBe(70_000);
    expect(rest.money).toMatchObject({ paidCents: 100_000, balanceCents: 0, status: "paid" });
    const [stored] = await t.db.select({ status: invoice.status, paidAt: invoice.paidAt }).from(invoice).where(eq(invoice.id, invoiceId));
    expect(stored!.status).toBe("paid");
    expect(stored!.paidAt).not.toBeNull();
    expect((await invoiceSummary(t.db, admin, NOW)).paidCount).toBe(1);

    const refund = await recordRefund(t.db, admin, invoiceId, {
      paymentId: rest.payment.id,
      amountCents: 20_000,
      currency: "USD",
      receivedAt: NOW,
    });
    expect(refund.payment).toMatchObject({ amountCents: -20_000, refundOf: rest.payment.id, method: "cash" });
    expect(refund.money).toMatchObject({ paidCents: 100_000, refundedCents: 20_000, balanceCents: 0, status: "paid" });
    const seen = await getInvoiceForClient(t.db, client, invoiceId, NOW);
    expect(seen.money).toMatchObject({ balanceCents: 0, refundedCents: 20_000 });
    expect(seen.payments.map((p) => p.amountCents)).toEqual([30_000, 70_000, -20_000]);
    expect((await listInvoicesForAdmin(t.db, admin, { filter: "paid" }, { size: 20 }, NOW)).items.map((i) => i.id)).toEqual([invoiceId]);

    // Everything refunded → Refunded.
    await recordRefund(t.db, admin, invoiceId, { paymentId: rest.payment.id, amountCents: 50_000, currency: "USD", receivedAt: NOW });
    const all = await recordRefund(t.db, admin, invoiceId, {
      paymentId: first.payment.id,
      amountCents: 30_000,
      currency: "USD",
      receivedAt: NOW,
    });
    expect(all.money).toMatchObject({ status: "refunded", balanceCents: 0, refundedCents: 100_000 });
    expect((await listInvoicesForAdmin(t.db, admin, { filter: "refunded" }, { size: 20 }, NOW)).items.map((i) => i.id)).toEqual([
      invoiceId,
    ]);

    const receipts = await t.db
      .select({ subject: mailOutbox.subject, attachments: mailOutbox.attachments, to: mailOutbox.to })
      .from(mailOutbox)
      .where(like(mailOutbox.subject, "%invoice INV-%"));
    const mailed = receipts.filter((m) => /Receipt|Refund/.test(m.subject));
    expect(mailed).toHaveLength(5);
    expect(mailed.every((m) => m.to === "payer@example.com")).toBe(true);
    const pdf = mailed[0]!.attachments![0]!;
    expect(pdf).toMatchObject({ contentType: "application/pdf", encoding: "base64" });
    expect(Buffer.from(pdf.content, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    const audits = await t.db
      .select({ action: auditEvent.action, actorId: auditEvent.actorId })
      .from(auditEvent)
      .where(and(eq(auditEvent.entity, "invoice"), eq(auditEvent.entityId, String(invoiceId))));
    expect(audits.filter((a) => a.action === "payment-recorded")).toHaveLength(2);
    expect(audits.filter((a) => a.action === "refund-recorded")).toHaveLength(3);
    expect(audits.every((a) => a.actorId === admin.id || a.action === "created")).toBe(true);

    // The proposal's timeline tells the client what was received and refunded.
    const thread = await getThread(t.db, client, proposalOf, { markAsRead: false });
    const said = thread.entries.flatMap((e) => (e.kind === "event" ? [e.text] : []));
    expect(said).toEqual(
      expect.arrayContaining([
        `recorded a payment of $300.00 on invoice ${seen.number}`,
        `recorded a refund of $200.00 on invoice ${seen.number}`,
      ]),
    );
  });

  it("bad amounts and currency: a message, a 4xx and nothing written", async () => {
    const { t, admin } = ctx;
    const paid = await pay(60_000);
    const before = await snapshot(t.db);
    for (const [amount, message] of [
      [0, /more than 0/],
      [-100, /more than 0/],
      [40_001, /more than the balance due \(\$400\.00\)/],
      [1e20, /more than 0|balance/],
      [1.5, /more than 0/],
    ] as const) {
      const refused = await rejectionOf(pay(amount));
      expect(refused.status, String(amount)).toBe(400);
      expect(refused.message).toMatch(message);
    }
    const currency = await rejectionOf(pay(100, { currency: "EUR" }));
    expect(currency).toMatchObject({ status: 400, fieldErrors: { currency: ["This invoice is in USD; record the amount in USD."] } });
    const overRefund = await rejectionOf(
      recordRefund(t.db, admin, invoiceId, { paymentId: paid.payment.id, amountCents: 60_001, currency: "USD", receivedAt: NOW }),
    );
    expect(overRefund).toMatchObject({ status: 400, message: "The refund is more than what is left of that payment ($600.00)." });
    const zeroRefund = await rejectionOf(
      recordRefund(t.db, admin, invoiceId, { paymentId: paid.payment.id, amountCents: 0, currency: "USD", receivedAt: NOW }),
    );
    expect(zeroRefund.status).toBe(400);
    const otherPayment = await rejectionOf(
      recordRefund(t.db, admin, invoiceId, { paymentId: paid.payment.id + 999, amountCents: 1, currency: "USD", receivedAt: NOW }),
    );
    expect(otherPayment.status).toBe(400);
    expect(
      await rejectionOf(recordPayment(t.db, client, invoiceId, { amountCents: 1, currency: "USD", method: "cash", receivedAt: NOW })),
    ).toMatchObject({
      status: 403,
    });
    expect(
      (
        await rejectionOf(
          pay(1, {}).then(() => recordPayment(t.db, admin, 999_999, { amountCents: 1, currency: "USD", method: "cash", receivedAt: NOW })),
        )
      ).status,
    ).toBe(404);
    // (the 1-cent payment above was valid; undo the comparison by checking only the refused writes)
    const after = (await snapshot(t.db)) as Record<string, unknown[]>;
    expect((after.payments as unknown[]).length).toBe(((before as Record<string, unknown[]>).payments as unknown[]).length + 1);
    await recordFullPayment(t.db, admin, invoiceId, { method: "cash", receivedAt: NOW });
    expect(await rejectionOf(recordFullPayment(t.db, admin, invoiceId, { method: "cash", receivedAt: NOW }))).toMatchObject({
      status: 409,
    });
  });

  it("20 parallel payments and 20 parallel refunds never overdraw", async () => {
    const { t, admin } = ctx;
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => pay(10_000)));

    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    for (const r of results) if (r.status === "rejected") expect((r.reason as { status: number }).status).toBeGreaterThanOrEqual(400);
    expect(await getInvoiceMoney(t.db, invoiceId, NOW)).toMatchObject({ paidCents: 100_000, balanceCents: 0, status: "paid" });
    const [one] = await t.db.select({ id: payments.id }).from(payments).where(eq(payments.invoiceId, invoiceId)).limit(1);
    const refunds = await Promise.allSettled(
      Array.from({ length: 20 }, () =>
        recordRefund(t.db, admin, invoiceId, { paymentId: one!.id, amountCents: 1_000, currency: "USD", receivedAt: NOW }),
      ),
    );
    expect(refunds.filter((r) => r.status === "fulfilled")).toHaveLength(10);
    expect(await getInvoiceMoney(t.db, invoiceId, NOW)).toMatchObject({ paidCents: 100_000, refundedCents: 10_000, balanceCents: 0 });
  });
});
