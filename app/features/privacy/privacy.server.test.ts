/**
 * Privacy rights (docs/product.md#download-my-data, docs/product.md#closing-an-account) on PGlite
 * and PostgreSQL: the export holds the user's data and nothing secret or of others, at once or
 * mailed as a link for 24 hours; closing erases the personal data, keeps the invoices with what they
 * were billed to, ends the sessions and frees the address; admins see the account as closed.
 */
import { and, eq } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import {
  dataExport,
  fileGc,
  invoice,
  mailOutbox,
  meeting,
  membership,
  payments,
  proposal,
  proposalAcceptance,
  proposalMessage,
  session,
  storedFile,
  user,
} from "#app/db/schema";
import { postMessage } from "#app/features/conversations/post-message.server";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import { getInvoiceForAdmin } from "#app/features/invoices/get-invoice-for-admin.server";
import { deleteUser, listUsersForAdmin, setUserActive } from "#app/features/users/users.server";
import { browser, cookiesOf, enableTwoFactor, PASSWORD, sessionUser, signedIn } from "../../../tests/helpers/auth-session";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice, insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { closeOwnAccount, unpaidBalanceOnClosing } from "./close-account.server";
import { runDueJobs } from "#app/features/jobs/jobs.server";
import {
  buildQueuedExport,
  downloadDataExport,
  purgeExpiredExports,
  requestDataExport,
  type DataExportJobData,
  type ExportFile,
} from "./data-export.server";
import { PRIVACY_MESSAGES } from "./privacy.messages";
import { acceptOffer } from "#app/features/agreements/acceptance.server";
import { saveOffer } from "#app/features/agreements/offers.server";

const SIGNED_FROM = { ip: "203.0.113.44", userAgent: "EvidenceBrowser/2.0", timeZone: "UTC", origin: "https://portal.example" };
const OFFER = {
  projectName: "Shop",
  scope: "Build the shop.",
  items: [{ description: "Design", quantity: 1, unitPriceCents: 120_000 }],
  timeline: "4 weeks",
  deposit: { kind: "percent" as const, value: 30 },
  validUntil: "2031-12-31",
};

function unzip(file: ExportFile) {
  const files = unzipSync(file.bytes);
  expect(Object.keys(files).sort()).toEqual(["README.txt", "my-data.json"]);
  return JSON.parse(strFromU8(files["my-data.json"]!)) as Record<string, unknown> & {
    account: { email: string };
    proposals: { projectName: string }[];
    invoices: { items: unknown[] }[];
    meetings: unknown[];
    sessions: Record<string, unknown>[];
  };
}

describe.each(testDatabases())("privacy rights on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  /** A client with a proposal that was invoiced, one that was not, a meeting and a session. */
  async function clientWithRecords() {
    const { s } = ctx;
    const client = await makeClient(s, { businessName: "Ada's Bakery", verified: true });
    const invoiced = await insertProposal(s.db, { clientId: client.id, projectName: "Shop", projectDetails: "My secret plans" });
    const invoiceId = await insertInvoice(s.db, {
      proposalId: invoiced,
      clientId: client.id,
      items: [["Design", 120_000]],
      dueDate: "2031-01-31",
    });
    const open = await insertProposal(s.db, { clientId: client.id, projectName: "Blog" });
    await s.db.insert(meeting).values({
      userId: client.id,
      startsAt: new Date("2031-05-12T09:00:00Z"),
      endsAt: new Date("2031-05-12T10:00:00Z"),
      timeZone: "UTC",
      notes: "Call me",
    } as never);
    const here = await signedIn(s, client.email);
    return { client, invoiced, invoiceId, open, here };
  }

  it("exports the user's own data in one ZIP, with nothing secret and nothing of anyone else", async () => {
    const { s } = ctx;
    const { client } = await clientWithRecords();
    const other = await makeClient(s);
    await insertProposal(s.db, { clientId: other.id, projectName: "Not yours" });
    const [billed] = await s.db.select({ id: invoice.id }).from(invoice).where(eq(invoice.clientId, client.id));
    await s.db.insert(payments).values({
      invoiceId: billed!.id,
      amountCents: 5_000,
      currency: "USD",
      method: "bank_transfer",
      receivedAt: new Date(),
      reference: "SEPA-42",
    });
    const file = await requestDataExport(s.db, client);
    if ("queued" in file) throw new Error("expected the file at once");
    expect(file.fileName).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.zip$/);
    const data = unzip(file);
    expect(data.account.email).toBe(client.email);
    expect(data.proposals.map((p) => p.projectName).sort()).toEqual(["Blog", "Shop"]);
    expect(data.invoices[0]!.items).toHaveLength(1);
    expect(data.meetings).toHaveLength(1);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect((data.payments as { reference: string | null; amountCents: number }[]).map((p) => [p.reference, p.amountCents])).toEqual([
      ["SEPA-42", 5_000],
    ]);
    for (const key of [
      "account",
      "proposals",
      "meetings",
      "invoices",
      "payments",
      "agreements",
      "commissions",
      "sessions",
      "passkeys",
      "auditTrail",
      "emails",
    ])
      expect(data).toHaveProperty(key);
    const text = JSON.stringify(data);
    expect(text).not.toContain("Not yours");
    expect(text).not.toContain(other.email);
    expect(text).not.toMatch(/"token"|"password"|"secret"|"backupCodes"|"publicKey"/);
  });

  it("a large export is built in the background and mailed as a link that works 24 hours, for its owner only", async () => {
    const { s } = ctx;
    const { client } = await clientWithRecords();
    const stranger = await makeClient(s);
    expect(await requestDataExport(s.db, client, { inlineMaxRows: 0 })).toEqual({ queued: true });
    expect(await refusalOf(requestDataExport(s.db, client, { inlineMaxRows: 0 }))).toMatchObject({
      status: 409,
      message: PRIVACY_MESSAGES.exportPending,
    });
    const now = new Date();
    expect(await runDueJobs<DataExportJobData>(s.db, "data-export", (job) => buildQueuedExport(s.db, job, { now }))).toEqual({
      done: 1,
      failed: 0,
    });
    const [mail] = (await s.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email))).filter((m) =>
      m.subject.startsWith("Your data is ready"),
    );
    const token = /\/account\/my-data\/([\w-]+)/.exec(mail!.text)![1]!;
    expect(unzip(await downloadDataExport(s.db, client, token, now)).account.email).toBe(client.email);
    expect((await refusalOf(downloadDataExport(s.db, stranger, token, now))).status).toBe(404);
    const later = new Date(now.getTime() + 24 * 3_600_000 + 1);
    expect((await refusalOf(downloadDataExport(s.db, client, token, later))).status).toBe(404);
    expect(await purgeExpiredExports(s.db, later)).toBe(1);
    expect(await s.db.select().from(dataExport)).toHaveLength(0);
  });

  it("the hourly budget counts only what is delivered: a refusal or a failed build takes its hit back (issue #36)", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    // A request refused because one is being prepared already is not a download.
    expect(await requestDataExport(s.db, client, { inlineMaxRows: -1 })).toEqual({ queued: true });
    for (let i = 0; i < 5; i++) {
      expect(await refusalOf(requestDataExport(s.db, client, { inlineMaxRows: -1 }))).toMatchObject({ status: 409 });
    }
    // A build that fails (its transaction refused: an injected failure) is not one either.
    const broken = new Proxy(s.db, {
      get: (db, name, receiver) =>
        name === "transaction" ? () => Promise.reject(new Error("injected build failure")) : Reflect.get(db, name, receiver),
    });
    for (let i = 0; i < 5; i++) await expect(requestDataExport(broken, client)).rejects.toThrow("injected build failure");
    // So two downloads remain of the three an hour; the fourth delivery is refused with 429.
    expect(unzip((await requestDataExport(s.db, client)) as ExportFile).account.email).toBe(client.email);
    expect(unzip((await requestDataExport(s.db, client)) as ExportFile).account.email).toBe(client.email);
    expect(await refusalOf(requestDataExport(s.db, client))).toMatchObject({ status: 429, message: PRIVACY_MESSAGES.exportLimit });
  });

  it("closing keeps the signatures of kept proposals as evidence: typed name, e-mail, IP address, user agent (issue #36)", async () => {
    const { s, admin } = ctx;
    const { client, invoiced, here } = await clientWithRecords();
    await saveOffer(s.db, admin, invoiced, OFFER, "send", { cardPayments: true });
    await acceptOffer(s.db, client, invoiced, { typedName: "Ada Baker", version: 1 }, SIGNED_FROM);
    const before = await s.db.select().from(proposalAcceptance).where(eq(proposalAcceptance.proposalId, invoiced));
    expect(before).toHaveLength(1);
    await closeOwnAccount(s, await sessionUser(s, client.id), { password: PASSWORD, acknowledgeUnpaid: true }, here);
    const after = await s.db.select().from(proposalAcceptance).where(eq(proposalAcceptance.proposalId, invoiced));
    expect(after).toEqual(before);
    expect(after[0]).toMatchObject({ typedName: "Ada Baker", email: client.email, ip: SIGNED_FROM.ip, userAgent: SIGNED_FROM.userAgent });
  });

  it("closing the account: password and second factor, personal data erased, invoices kept as billed, sessions ended, address free", async () => {
    const { s, admin } = ctx;
    const { client, invoiced, invoiceId, open, here } = await clientWithRecords();
    const { totp } = await enableTwoFactor(s, client.id, client.email);
    const actor = { ...(await sessionUser(s, client.id)), twoFactorEnabled: true };

    expect(
      (await refusalOf(closeOwnAccount(s, actor, { password: "wrong-pass", code: totp.generate(), acknowledgeUnpaid: true }, here)))
        .fieldErrors,
    ).toEqual({
      password: ["Wrong password."],
    });
    expect((await refusalOf(closeOwnAccount(s, actor, { password: PASSWORD, acknowledgeUnpaid: true }, here))).fieldErrors).toEqual({
      code: [PRIVACY_MESSAGES.closeNeedsCode],
    });
    // The unpaid invoice is said first (issue #41): closing without ticking "it stays due" is refused.
    const unpaid = await unpaidBalanceOnClosing(s.db, client.id);
    expect(unpaid).toEqual({ invoices: [expect.objectContaining({ balanceCents: 120_000, dueDate: "2031-01-31" })], totalCents: 120_000 });
    expect(await refusalOf(closeOwnAccount(s, actor, { password: PASSWORD, code: totp.generate() }, here))).toMatchObject({
      status: 409,
      fieldErrors: { acknowledgeUnpaid: [PRIVACY_MESSAGES.unpaidNotAcknowledged] },
    });
    expect(await s.db.select({ closedAt: user.closedAt }).from(user).where(eq(user.id, client.id))).toEqual([{ closedAt: null }]);
    const headers = await closeOwnAccount(
      s,
      actor,
      { password: PASSWORD, code: totp.generate({ timestamp: Date.now() + 30_000 }), acknowledgeUnpaid: true },
      here,
    );
    expect(headers.getSetCookie().some((c) => /session_token=;/.test(c))).toBe(true);

    const [row] = await s.db.select().from(user).where(eq(user.id, client.id));
    expect(row).toMatchObject({
      name: "Closed account",
      businessName: null,
      phone: null,
      website: null,
      banned: true,
      twoFactorEnabled: false,
    });
    expect(row!.email).not.toBe(client.email);
    expect(row!.closedAt).toBeInstanceOf(Date);
    expect(await s.db.select().from(session).where(eq(session.userId, client.id))).toHaveLength(0);
    expect(await s.db.select().from(meeting).where(eq(meeting.userId, client.id))).toHaveLength(0);
    expect(await s.db.select().from(proposal).where(eq(proposal.id, open))).toHaveLength(0);
    const [kept] = await s.db.select().from(proposal).where(eq(proposal.id, invoiced));
    expect(kept).toMatchObject({ clientName: "Ada's Bakery", clientEmail: client.email, projectName: "Shop", projectDetails: "" });
    expect(await s.db.select().from(invoice).where(eq(invoice.id, invoiceId))).toHaveLength(1);
    const billed = await getInvoiceForAdmin(s.db, admin, invoiceId);
    expect(JSON.stringify(billed)).toContain("Ada's Bakery");
    expect(JSON.stringify(billed)).not.toContain("Closed account");
    const goodbye = (await s.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email))).map((m) => m.subject);
    expect(goodbye).toEqual(["Your account is closed — Client Portal"]);

    // Admins see it as closed; it cannot be reactivated or deleted (what is left is what the law keeps).
    const listed = (await listUsersForAdmin(s.db, admin, {}, { size: 50 } as never)).items.find((u) => u.id === client.id);
    expect(listed?.closedAt).not.toBeNull();
    expect((await refusalOf(setUserActive(s.db, admin, client.id, true))).status).toBe(409);
    expect((await refusalOf(deleteUser(s.db, admin, client.id))).status).toBe(409);
    // The address is free again.
    await makeClient(s, { email: client.email });
    expect(
      await refusalOf(closeOwnAccount(s, { ...actor, role: "admin" }, { password: PASSWORD }, browser(cookiesOf(new Headers())))),
    ).toMatchObject({
      status: 403,
    });
  });

  it("exports the conversation messages and files the user can see (never a note), and erases what they wrote on closing", async () => {
    const { s, admin } = ctx;
    const { client, invoiced, here } = await clientWithRecords();
    const services = { db: s.db, files: createDatabaseFileStore(s.db), maxUploadMb: 25 };
    await postMessage(services, { author: admin, proposalId: invoiced, text: "Welcome aboard" });
    await postMessage(services, { author: admin, proposalId: invoiced, text: "Internal: likes blue", visibility: "internal" });
    const mine = await postMessage(services, {
      author: client,
      proposalId: invoiced,
      text: "Here is our brief",
      attachments: [{ name: "brief.txt", content: new TextEncoder().encode("Our secret brief") }],
    });

    const file = await requestDataExport(s.db, client);
    if ("queued" in file) throw new Error("expected the file at once");
    const data = unzip(file) as unknown as { messages: { body: string }[]; files: { name: string; size: number }[] };
    expect(data.messages.map((m) => m.body)).toEqual(["Welcome aboard", "Here is our brief"]);
    expect(data.files.map((f) => [f.name, f.size])).toEqual([["brief.txt", 16]]);
    expect(JSON.stringify(data)).not.toContain("likes blue");

    const actor = await sessionUser(s, client.id);
    await closeOwnAccount(s, actor, { password: PASSWORD, acknowledgeUnpaid: true }, here);
    const [erased] = await s.db.select().from(proposalMessage).where(eq(proposalMessage.id, mine.id));
    expect(erased).toMatchObject({ body: "", authorName: "Closed account" });
    expect(erased!.deletedAt).toBeInstanceOf(Date);
    expect(await s.db.select().from(storedFile).where(eq(storedFile.messageId, mine.id))).toHaveLength(0);
    // The bytes are queued for deletion from the store; the agency's own messages stay.
    expect((await s.db.select().from(fileGc)).length).toBeGreaterThan(0);
    expect((await s.db.select().from(proposalMessage).where(eq(proposalMessage.proposalId, invoiced))).map((m) => m.body)).toEqual([
      "Welcome aboard",
      "Internal: likes blue",
      "",
    ]);
  });
  it("an unpaid balance is said before closing: the last person handling money of an organisation, balance left after payments (issue #41)", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { businessName: "Owes Ltd", verified: true });
    const owed = await insertProposal(s.db, { clientId: client.id, projectName: "Owed" });
    const owedInvoice = await insertInvoice(s.db, {
      proposalId: owed,
      clientId: client.id,
      items: [["Build", 50_000]],
      dueDate: "2031-02-01",
    });
    const paid = await insertProposal(s.db, { clientId: client.id, projectName: "Paid" });
    await insertInvoice(s.db, {
      proposalId: paid,
      clientId: client.id,
      items: [["Design", 30_000]],
      dueDate: "2031-01-01",
      status: "paid",
    });
    // Part of the owed invoice is paid: what is left counts.
    await s.db
      .insert(payments)
      .values({ invoiceId: owedInvoice, amountCents: 20_000, currency: "USD", method: "other", receivedAt: new Date() });
    const [{ number }] = (await s.db.select({ number: invoice.number }).from(invoice).where(eq(invoice.id, owedInvoice))) as [
      { number: string },
    ];
    expect(await unpaidBalanceOnClosing(s.db, client.id)).toEqual({
      invoices: [{ number, balanceCents: 30_000, dueDate: "2031-02-01" }],
      totalCents: 30_000,
    });
    // Another client owes nothing of it; an ambassador owes nothing.
    const other = await makeClient(s);
    expect(await unpaidBalanceOnClosing(s.db, other.id)).toEqual({ invoices: [], totalCents: 0 });
    // Someone else of the organisation handles money too (billing): the balance is not left behind.
    const [{ organisationId }] = (await s.db
      .select({ organisationId: membership.organisationId })
      .from(membership)
      .where(eq(membership.userId, client.id))) as [{ organisationId: number }];
    await s.db.insert(membership).values({ organisationId, userId: other.id, role: "billing" });
    expect(await unpaidBalanceOnClosing(s.db, client.id)).toEqual({ invoices: [], totalCents: 0 });
    // A member (no money role) of it leaves nothing unpaid either.
    await s.db
      .update(membership)
      .set({ role: "member" })
      .where(and(eq(membership.organisationId, organisationId), eq(membership.userId, other.id)));
    expect((await unpaidBalanceOnClosing(s.db, client.id)).totalCents).toBe(30_000);
    expect(await unpaidBalanceOnClosing(s.db, other.id)).toEqual({ invoices: [], totalCents: 0 });
  });
});
