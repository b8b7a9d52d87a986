import { createHash } from "node:crypto";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoice, mailOutbox, proposalAcceptance, proposalVersion } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, proposalRow, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { pdfText } from "../../../tests/helpers/pdf";
import { saveSettings } from "#app/features/settings/settings.server";
import { submitAmbassadorProposal } from "#app/features/proposals/proposals.server";
import { canonicalJson } from "./canonical";
import { getAgreementForClient, getOfferForAdmin, saveOffer } from "./offers.server";
import { acceptOffer, getCertificatePdf, verifyCertificate } from "./acceptance.server";
import { getOfferForInvoice } from "./offer-deposit.server";
import { getSettings } from "#app/features/settings/settings.server";
import { getThread } from "#app/features/conversations/timeline.server";
import { generateInvoice } from "#app/features/invoices/generate-invoice.server";
import { depositFromPercent } from "#app/features/payments/invoice-money";
import { offerFormSchema, acceptFormSchema } from "./offer.schema";
import { lineDiff } from "./terms-diff.server";
import type { OfferTermsInput } from "./versions.server";

const META = { ip: "203.0.113.9", userAgent: "TestAgent/1.0", timeZone: "Europe/Berlin", origin: "https://portal.example" };

const OFFER: OfferTermsInput = {
  projectName: "Bakery site",
  scope: "Design the site.\nBuild five pages.\nLaunch.",
  items: [
    { description: "Design", quantity: 1, unitPriceCents: 150_000 },
    { description: "Pages", quantity: 5, unitPriceCents: 40_000 },
    { description: "Hosting setup", quantity: 1, unitPriceCents: 25_000 },
  ],
  timeline: "6 weeks",
  deposit: { kind: "percent", value: 30 },
  validUntil: "2030-12-31",
};

describe("canonical form", () => {
  it("sorts keys at every level, keeps array order, no whitespace, integers only", () => {
    expect(canonicalJson({ b: 1, a: [{ z: "é", y: null }, 2], c: 'line\nbreak "q"' })).toBe(
      '{"a":[{"y":null,"z":"é"},2],"b":1,"c":"line\\nbreak \\"q\\""}',
    );
    expect(() => canonicalJson({ a: 1.5 })).toThrow(TypeError);
  });

  it("diffs long texts line by line", () => {
    expect(lineDiff("a\nb\nc", "a\nB\nc")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "B" },
      { kind: "same", text: "c" },
    ]);
  });

  it("validates the offer form: 1–50 items, quantities, deposit percentage; the typed name and the tick", () => {
    const ok = offerFormSchema.safeParse({
      scope: "Work",
      items: [{ description: "A", quantity: "2", unitPrice: "1,000.50" }],
      depositKind: "percent",
      depositValue: "30",
      validUntil: "2030-01-31",
    });
    expect(ok.success && ok.data).toMatchObject({
      items: [{ description: "A", quantity: 2, unitPriceCents: 100_050 }],
      deposit: { kind: "percent", value: 30 },
    });
    expect(offerFormSchema.safeParse({ scope: "Work", items: [] }).success).toBe(false);
    expect(
      offerFormSchema.safeParse({
        scope: "Work",
        items: Array.from({ length: 51 }, () => ({ description: "x", quantity: "1", unitPrice: "1" })),
      }).success,
    ).toBe(false);
    expect(offerFormSchema.safeParse({ scope: "Work", items: [{ description: "x", quantity: "0", unitPrice: "1" }] }).success).toBe(false);
    expect(
      offerFormSchema.safeParse({
        scope: "Work",
        items: [{ description: "x", quantity: "1", unitPrice: "1" }],
        depositKind: "percent",
        depositValue: "120",
      }).success,
    ).toBe(false);
    expect(
      offerFormSchema.safeParse({ scope: "x".repeat(20_001), items: [{ description: "x", quantity: "1", unitPrice: "1" }] }).success,
    ).toBe(false);
    expect(acceptFormSchema.safeParse({ typedName: "   ", agree: true, version: "1" }).success).toBe(false);
    expect(acceptFormSchema.safeParse({ typedName: "A".repeat(121), agree: true, version: "1" }).success).toBe(false);
    expect(acceptFormSchema.safeParse({ typedName: "Ann Baker", agree: false, version: "1" }).success).toBe(false);
    expect(acceptFormSchema.safeParse({ typedName: "Ann Baker", agree: true, version: "1" }).success).toBe(true);
  });
});

describe.each(testDatabases())("offers, versions and acceptance on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("keeps a draft from the client, sends version 1, accepts it with a hash of the canonical form, voids it with version 2", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const other = await makeClient(s);
    await saveSettings(
      t.db,
      admin,
      {
        companyName: "Pixel Agency",
        supportEmail: "",
        defaultTimeline: "",
        allowNewClients: true,
        commissionRateBps: 1500,
        termsAndConditions: "Payment within 30 days.\nWork starts after the deposit.",
      },
      { cardPayments: false },
    );
    const id = await insertProposal(t.db, {
      clientId: client.id,
      projectName: "Bakery",
      projectDetails: "Please build it",
      status: "pending",
    });

    // Draft: nothing for the client.
    expect((await saveOffer(t.db, admin, id, OFFER, "draft", { cardPayments: true })).version).toBeNull();
    const hidden = await getAgreementForClient(t.db, client, id);
    expect(hidden).toMatchObject({ current: null, canAccept: false, history: { versions: [] } });
    expect(JSON.stringify(hidden)).not.toContain("Hosting setup");
    expect((await proposalRow(t.db, id))!.status).toBe("pending");
    expect((await getOfferForAdmin(t.db, admin, id)).form.items).toHaveLength(3);

    // Send: version 1, mail to the client, status awaiting acceptance.
    const sent = await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    expect(sent.version).toBe(1);
    expect((await proposalRow(t.db, id))!.status).toBe("awaiting_acceptance");
    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email));
    expect(mails.some((m) => m.subject.startsWith("Your offer is ready") && m.text.includes(`/proposals/${id}`))).toBe(true);
    // Sending the same terms again makes no version.
    expect((await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true })).version).toBeNull();

    const view = await getAgreementForClient(t.db, client, id);
    expect(view.canAccept).toBe(true);
    const terms = view.current!.terms;
    expect(terms).toMatchObject({
      version: 1,
      totalCents: 375_000,
      currency: "USD",
      termsAndConditions: "Payment within 30 days.\nWork starts after the deposit.",
    });
    expect(view.current!.depositCents).toBe(112_500);
    // The hash is SHA-256 of the documented canonical form.
    const canonical = canonicalJson(terms as never);
    expect(canonical.startsWith('{"currency":"USD","deposit":{"kind":"percent","value":30},"items":[{"description":"Design"')).toBe(true);
    expect(view.current!.sha256).toBe(createHash("sha256").update(canonical, "utf8").digest("hex"));

    // Another client cannot see or accept it.
    expect((await refusalOf(getAgreementForClient(t.db, other, id))).status).toBe(404);
    expect((await refusalOf(acceptOffer(t.db, other, id, { typedName: "X", version: 1 }, META))).status).toBe(404);

    // Accept.
    const accepted = await acceptOffer(t.db, client, id, { typedName: "  Ann Baker ", version: 1, sha256: view.current!.sha256 }, META);
    expect(accepted).toMatchObject({ changed: true, version: 1 });
    expect(accepted.certificateId).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const [row] = await t.db.select().from(proposalAcceptance).where(eq(proposalAcceptance.proposalId, id));
    expect(row).toMatchObject({
      userId: client.id,
      typedName: "Ann Baker",
      email: client.email,
      versionNumber: 1,
      sha256: view.current!.sha256,
      ip: "203.0.113.9",
      userAgent: "TestAgent/1.0",
      timeZone: "Europe/Berlin",
      voidedAt: null,
    });
    const p1 = (await proposalRow(t.db, id))!;
    expect(p1.status).toBe("planning");
    expect(p1.clientApprovedAt).toBeInstanceOf(Date);
    // Accepting again changes nothing.
    expect((await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 1 }, META)).changed).toBe(false);
    // The certificate is mailed to the client and the admins, as a PDF.
    const certMails = (await t.db.select().from(mailOutbox)).filter((m) => m.attachments?.some((a) => a.contentType === "application/pdf"));
    expect(certMails.map((m) => m.to).sort()).toEqual(["@admin", client.email].sort());
    const pdf = await pdfText(Buffer.from(certMails[0]!.attachments![0]!.content, "base64"));
    expect(pdf).toContain("Certificate of acceptance");
    expect(pdf).toContain("Ann Baker");
    expect(pdf).toContain(view.current!.sha256);
    expect(pdf).toContain("Pixel Agency");
    // Downloads: the client and admins; 404 to anyone else.
    expect((await getCertificatePdf(t.db, client, id, accepted.certificateId, null)).bytes.subarray(0, 5).toString()).toBe("%PDF-");
    expect((await getCertificatePdf(t.db, admin, id, accepted.certificateId, null)).bytes.length).toBeGreaterThan(1000);
    expect((await refusalOf(getCertificatePdf(t.db, other, id, accepted.certificateId, null))).status).toBe(404);
    expect((await refusalOf(getCertificatePdf(t.db, client, id + 1, accepted.certificateId, null))).status).toBe(404);
    // Verify: standing, and nothing but the public facts.
    const verified = await verifyCertificate(t.db, accepted.certificateId, "198.51.100.1");
    expect(verified).toMatchObject({
      agencyName: "Pixel Agency",
      proposalName: "Bakery",
      version: 1,
      sha256: view.current!.sha256,
      state: "standing",
    });
    expect(JSON.stringify(verified)).not.toContain(client.email);
    expect((await refusalOf(verifyCertificate(t.db, "unknown-certificate-id", "198.51.100.1"))).status).toBe(404);
    // Generate invoice proposes the accepted items and deposit.
    expect(await getOfferForInvoice(t.db, id)).toEqual({
      items: OFFER.items,
      deposit: { kind: "percent", value: 30 },
    });

    // The admin changes the price: version 2 voids the acceptance.
    const changed = { ...OFFER, items: [{ ...OFFER.items[0]!, unitPriceCents: 175_000 }, ...OFFER.items.slice(1)] };
    const second = await saveOffer(t.db, admin, id, changed, "send", { cardPayments: true });
    expect(second).toMatchObject({ version: 2, voided: 1 });
    const p2 = (await proposalRow(t.db, id))!;
    expect(p2.status).toBe("awaiting_acceptance");
    expect(p2.clientApprovedAt).toBeNull();
    expect((await verifyCertificate(t.db, accepted.certificateId, "198.51.100.1")).state).toBe("voided");
    expect(await getOfferForInvoice(t.db, id)).toBeNull();
    const voidMails = (await t.db.select().from(mailOutbox)).filter((m) => m.subject.startsWith("Acceptance of version 1 voided"));
    expect(voidMails.map((m) => m.to).sort()).toEqual(["@admin", client.email].sort());

    // History: version 2's changes, field by field, and the voiding.
    const history = (await getAgreementForClient(t.db, client, id)).history;
    expect(history.versions.map((v) => v.number)).toEqual([2, 1]);
    expect(history.versions[0]!.voids).toEqual([1]);
    expect(history.versions[0]!.changes.map((c) => c.field)).toEqual(["items", "totalCents", "deposit"]);
    expect(history.versions[0]!.changes.find((c) => c.field === "totalCents")).toMatchObject({ old: "$3,750.00", new: "$4,000.00" });
    expect(history.versions[0]!.changes.find((c) => c.field === "items")!.lines!.filter((l) => l.kind !== "same")).toHaveLength(2);
    expect(history.acceptances[0]).toMatchObject({ versionNumber: 1, voidedByVersion: 2 });

    // A stale version is refused (409) with the current number; version 2 can then be accepted.
    const stale = await refusalOf(acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 1 }, META));
    expect(stale.status).toBe(409);
    expect(stale.message).toContain("the current one is version 2");
    expect((await acceptOffer(t.db, client, id, { typedName: "Ann Baker", version: 2 }, META)).changed).toBe(true);
    expect(await t.db.select().from(proposalVersion).where(eq(proposalVersion.proposalId, id))).toHaveLength(2);

    // The invoice generated from it asks for the accepted version's deposit: 30 % of its total (#25).
    const offered = (await getOfferForInvoice(t.db, id))!;
    const generated = await generateInvoice(
      t.db,
      admin,
      id,
      {
        items: offered.items.map((item) => ({ description: item.description, amountCents: item.quantity * item.unitPriceCents })),
        dueDate: "2099-01-31",
      },
      undefined,
      { cardPayments: true },
    );
    const [stored] = await t.db.select({ depositCents: invoice.depositCents }).from(invoice).where(eq(invoice.id, generated.id));
    expect(stored!.depositCents).toBe(depositFromPercent(generated.totalCents, 30));
  });

  it("refuses a blank name, a deposit over the total, and accepting after a decline", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    expect(
      (
        await refusalOf(
          saveOffer(t.db, admin, id, { ...OFFER, deposit: { kind: "amount", value: 10_000_000 } }, "send", { cardPayments: true }),
        )
      ).fieldErrors,
    ).toHaveProperty("depositValue");
    expect((await refusalOf(saveOffer(t.db, client, id, OFFER, "send", { cardPayments: true }))).status).toBe(403);
    expect((await refusalOf(acceptOffer(t.db, client, id, { typedName: "A", version: 1 }, META))).status).toBe(409);
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    expect((await refusalOf(acceptOffer(t.db, client, id, { typedName: "   ", version: 1 }, META))).status).toBe(400);
    const { declineProposal } = await import("#app/features/proposals/proposals.server");
    await declineProposal(t.db, client, id, "Too expensive");
    expect((await refusalOf(acceptOffer(t.db, client, id, { typedName: "Ann", version: 1 }, META))).status).toBe(409);
    // A new version answers the decline: the client may accept again.
    await saveOffer(t.db, admin, id, { ...OFFER, timeline: "8 weeks" }, "send", { cardPayments: true });
    expect((await proposalRow(t.db, id))!.clientDeclinedAt).toBeNull();
    expect((await acceptOffer(t.db, client, id, { typedName: "Ann", version: 2 }, META)).changed).toBe(true);
  });

  it("makes version 1 of an ambassador's proposal at submission: details as scope, budget as one line", async () => {
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
    const view = await getAgreementForClient(t.db, client, id);
    expect(view.current!.terms).toMatchObject({
      version: 1,
      scope: "A cafe site",
      items: [{ description: "Cafe", quantity: 1, unitPriceCents: 300_000 }],
      totalCents: 300_000,
    });
    expect(view.canAccept).toBe(true);
    const accepted = await acceptOffer(t.db, client, id, { typedName: "Ann Client", version: 1 }, META);
    expect(accepted.changed).toBe(true);
    const p = (await proposalRow(t.db, id))!;
    expect(p.clientApprovedAt).toBeInstanceOf(Date);
    // #37: the status follows the work — accepted without a deposit, the work starts.
    expect(p.status).toBe("in_progress");
    // Accepting is the approval that earns the ambassador's commission: the rate is frozen (#25).
    expect(p.commissionRateBps).toBe((await getSettings(t.db)).commissionRateBps);
  });

  it("puts offer sent, version made, accepted and acceptance voided in the thread; draft saves reach admins only", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "draft", { cardPayments: true });
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    await acceptOffer(t.db, client, id, { typedName: "Ann", version: 1 }, META);
    await saveOffer(t.db, admin, id, { ...OFFER, timeline: "9 weeks" }, "send", { cardPayments: true });
    const texts = async (actor: typeof admin) =>
      (await getThread(t.db, actor, id, { markAsRead: false })).entries.flatMap((e) => (e.kind === "event" ? [e.text] : []));
    const forClient = await texts(client);
    expect(forClient).toEqual(
      expect.arrayContaining([
        "sent the offer (version 1)",
        "accepted and signed version 1",
        "made version 2 of the terms",
        "voided the acceptance: Acceptance of version 1 voided by version 2",
      ]),
    );
    expect(forClient.some((text) => text.includes("draft"))).toBe(false);
    expect((await texts(admin)).some((text) => text.includes("saved a draft of the offer"))).toBe(true);
  });

  it("refuses one of two concurrent acceptances of different versions (the stale one)", async () => {
    const { t, s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id, projectDetails: "x", status: "pending" });
    await saveOffer(t.db, admin, id, OFFER, "send", { cardPayments: true });
    const v1 = (await getAgreementForClient(t.db, client, id)).current!;
    await saveOffer(t.db, admin, id, { ...OFFER, scope: "Changed scope" }, "send", { cardPayments: true });
    // The tab still showing version 1 (with its hash) is refused.
    const refused = await refusalOf(acceptOffer(t.db, client, id, { typedName: "Ann", version: 1, sha256: v1.sha256 }, META));
    expect(refused.status).toBe(409);
    // A forged hash for the right number is refused too.
    expect((await refusalOf(acceptOffer(t.db, client, id, { typedName: "Ann", version: 2, sha256: v1.sha256 }, META))).status).toBe(409);
    expect(await t.db.select().from(proposalAcceptance).where(eq(proposalAcceptance.proposalId, id))).toHaveLength(0);
  });
});
