/**
 * #37 (ADR 026): without card payments, the Settings' last way to pay (payment instructions or a
 * payment link) cannot be cleared while a sent offer asks a deposit or an invoice is unpaid — so an
 * offer sent while the client could pay never issues, at signing, a deposit the client has no way to pay.
 */
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditEvent, invoice, proposal } from "#app/db/schema";
import { acceptOffer } from "#app/features/agreements/acceptance.server";
import { saveOffer } from "#app/features/agreements/offers.server";
import type { OfferTermsInput } from "#app/features/agreements/versions.server";
import { recordPayment } from "#app/features/payments/record-payment.server";
import { getSettings, saveSettings } from "#app/features/settings/settings.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { rejectionOf } from "../../../tests/helpers/admin-data";
import { makeAdmin, makeClient, useTestServices } from "../../../tests/helpers/services";
import { moneyAskedRefusal } from "./money-asked.server";

const META = { ip: "203.0.113.9", userAgent: "TestAgent/1.0", timeZone: "UTC", origin: "https://portal.example" };
const NO_CARDS = { cardPayments: false } as const;
const IBAN = "Bank transfer to IBAN DE89 3704 0044 0532 0130 00.";

/** $6,380.00 with a $1,500.00 deposit. */
const OFFER: OfferTermsInput = {
  projectName: "Bakery site",
  scope: "Design and build.",
  items: [{ description: "Design and pages", quantity: 1, unitPriceCents: 638_000 }],
  timeline: "6 weeks",
  deposit: { kind: "amount", value: 150_000 },
  validUntil: null,
};

describe("the refusal's sentence", () => {
  it("names what asks money, counts the rest, and is null when nothing does", () => {
    expect(moneyAskedRefusal({ unpaidInvoices: 0, invoiceNumbers: [], depositOffers: 0, offerNames: [] })).toBeNull();
    expect(moneyAskedRefusal({ unpaidInvoices: 0, invoiceNumbers: [], depositOffers: 1, offerNames: ["Bakery site"] })).toBe(
      "Keep payment instructions or a payment link: card payments are not set up, and the offer “Bakery site” asks a deposit when signed, " +
        "so clients would have no way to pay. Set up card payments first, or clear them once these are paid or closed.",
    );
    expect(
      moneyAskedRefusal({
        unpaidInvoices: 5,
        invoiceNumbers: ["INV-2026-0001", "INV-2026-0002", "INV-2026-0003"],
        depositOffers: 2,
        offerNames: ["A", "B"],
      }),
    ).toContain(
      "5 invoices INV-2026-0001, INV-2026-0002, INV-2026-0003 and 2 more are unpaid, and 2 offers “A” and “B” ask a deposit when signed",
    );
    expect(moneyAskedRefusal({ unpaidInvoices: 1, invoiceNumbers: ["INV-2026-0009"], depositOffers: 0, offerNames: [] })).toContain(
      "and invoice INV-2026-0009 is unpaid, so",
    );
  });
});

describe.each(testDatabases())("the last way to pay on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("is kept while a sent offer asks a deposit or its invoice is unpaid; cleared once paid", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    await saveSettings(t.db, admin, { paymentInstructions: IBAN }, NO_CARDS);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "send", NO_CARDS);
    const audits = async () =>
      (
        await t.db
          .select()
          .from(auditEvent)
          .where(and(eq(auditEvent.entity, "settings"), eq(auditEvent.action, "updated")))
      ).length;
    const auditsBefore = await audits();

    // The sent offer asks a deposit: clearing the instructions is refused next to the field (409), nothing saved.
    const offerRefusal = await rejectionOf(saveSettings(t.db, admin, { paymentInstructions: "  ", companyName: "Changed" }, NO_CARDS));
    expect(offerRefusal.status).toBe(409);
    expect(offerRefusal.fieldErrors?.paymentInstructions?.[0]).toBe(
      "Keep payment instructions or a payment link: card payments are not set up, and the offer “Bakery site” asks a deposit when signed, " +
        "so clients would have no way to pay. Set up card payments first, or clear them once these are paid or closed.",
    );
    expect(await getSettings(t.db)).toMatchObject({ paymentInstructions: IBAN, companyName: "" });
    expect(await audits()).toBe(auditsBefore);
    // A payment link instead is another way to pay: allowed; clearing both is refused again.
    await saveSettings(t.db, admin, { paymentInstructions: "", paymentLinkTemplate: "https://pay.example.com/{number}" }, NO_CARDS);
    expect((await rejectionOf(saveSettings(t.db, admin, { paymentLinkTemplate: "" }, NO_CARDS))).status).toBe(409);
    await saveSettings(t.db, admin, { paymentInstructions: IBAN, paymentLinkTemplate: "" }, NO_CARDS);

    // Signed: the deposit invoice is issued (the client could pay), and now it holds the instructions.
    const { invoiceId } = await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 1 }, META);
    const [issued] = await t.db.select().from(invoice).where(eq(invoice.id, invoiceId!));
    const invoiceRefusal = await rejectionOf(saveSettings(t.db, admin, { paymentInstructions: "" }, NO_CARDS));
    expect(invoiceRefusal.status).toBe(409);
    expect(invoiceRefusal.fieldErrors?.paymentInstructions?.[0]).toContain(`and invoice ${issued!.number} is unpaid, so clients`);
    expect(invoiceRefusal.fieldErrors?.paymentInstructions?.[0]).not.toContain("Bakery site");

    // With card payments set up, the client can pay by card: the instructions may go (and come back).
    await saveSettings(t.db, admin, { paymentInstructions: "" }, { cardPayments: true });
    await saveSettings(t.db, admin, { paymentInstructions: IBAN }, NO_CARDS);

    // Paid in full: nothing asks money any more, the instructions may be cleared.
    await recordPayment(t.db, admin, invoiceId!, {
      currency: "USD",
      method: "bank_transfer",
      receivedAt: new Date(),
      reference: issued!.number,
      amountCents: 638_000,
    });
    expect(await saveSettings(t.db, admin, { paymentInstructions: "" }, NO_CARDS)).toMatchObject({ paymentInstructions: "" });
  });

  it("does not refuse saves that leave a client unable to pay as they found it, nor offers without a deposit", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    // Sent while Stripe was set up; Stripe is gone since and no instructions ever existed: other fields still save.
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    expect(await saveSettings(t.db, admin, { dunningRetryDays: [3, 7] }, NO_CARDS)).toMatchObject({ dunningRetryDays: [3, 7] });
    // An offer without a deposit asks nothing when signed; a declined or closed offer asks nothing.
    await saveOffer(t.db, admin, id, { ...OFFER, deposit: null }, "send", { cardPayments: true });
    const declined = await insertProposal(t.db, { clientId: client.id, projectDetails: "y", status: "pending" });
    await saveOffer(t.db, admin, declined, OFFER, "send", { cardPayments: true });
    const closed = await insertProposal(t.db, { clientId: client.id, projectDetails: "z", status: "pending" });
    await saveOffer(t.db, admin, closed, OFFER, "send", { cardPayments: true });
    await t.db.update(proposal).set({ clientDeclinedAt: new Date() }).where(eq(proposal.id, declined));
    await t.db.update(proposal).set({ status: "closed" }).where(eq(proposal.id, closed));
    await saveSettings(t.db, admin, { paymentInstructions: IBAN }, NO_CARDS);
    expect(await saveSettings(t.db, admin, { paymentInstructions: "" }, NO_CARDS)).toMatchObject({ paymentInstructions: "" });
  });
});
