import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoice, proposal, user } from "#app/db/schema";
import { BAD_PAGE_LINK, MAX_INLINE_IDS, pageRequestFrom, SEARCH_COUNT_CAP, type PageRequest } from "#app/lib/pagination";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal, rejectionOf, snapshot } from "../../../tests/helpers/admin-data";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { countProposals, listProposalsForAdmin, setProposalStatus } from "./proposals.admin.server";
import { ADMIN_PROPOSAL_STATUSES } from "./proposals.admin.schema";

const first: PageRequest = { size: 25 };

describe.each(testDatabases())("admin proposals on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("lists every proposal newest first with client, source, budget, status and invoice", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s, { email: "owner@bluecafe.example", businessName: "Blue Cafe" });
    const ambassador = await makeAmbassador(s);
    const own = await insertProposal(t.db, {
      clientId: client.id,
      projectName: "Cafe site",
      budgetCents: 500_000,
      createdAt: new Date("2026-01-01T10:00:00Z"),
    });
    const addressed = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientName: "Green Grocer",
      clientEmail: "hello@greengrocer.example",
      projectName: "Grocer shop",
      createdAt: new Date("2026-01-02T10:00:00Z"),
    });
    await t.db
      .insert(invoice)
      .values({ number: "INV-2026-0001", proposalId: own, clientId: client.id, dueDate: "2026-02-01", totalCents: 500_000 });

    const page = await listProposalsForAdmin(t.db, admin, {}, first);
    expect(page.total).toBe(2);
    expect(page.items.map((p) => p.id)).toEqual([addressed, own]);
    expect(page.items[0]).toMatchObject({
      clientName: "Green Grocer",
      clientEmail: "hello@greengrocer.example",
      clientHasAccount: false,
      source: "ambassador",
      ambassadorName: "Ann Bassador",
      status: "submitted",
      invoiceId: null,
    });
    expect(page.items[1]).toMatchObject({
      clientName: "Blue Cafe",
      clientEmail: "owner@bluecafe.example",
      clientHasAccount: true,
      source: "client",
      budgetCents: 500_000,
      status: "pending",
      invoiceNumber: "INV-2026-0001",
    });
    expect(page.next).toBeNull();
    expect(page.prev).toBeNull();
  });

  it("searches project, client name, business and e-mail case-insensitively on the server, wildcards literal", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s, { email: "Mixed.Case@Example.com", businessName: "Sunrise Bakery" });
    const ambassador = await makeAmbassador(s);
    const bakery = await insertProposal(t.db, { clientId: client.id, projectName: "Loaves online" });
    const florist = await insertProposal(t.db, {
      ambassadorId: ambassador.id,
      clientName: "Rosa Florist",
      clientEmail: "rosa@flowers.example",
      projectName: "Petals",
    });
    const percent = await insertProposal(t.db, { clientId: client.id, projectName: "50% off campaign" });
    await insertProposal(t.db, { clientId: client.id, projectName: "500 off campaign" });

    const ids = async (q: string) => (await listProposalsForAdmin(t.db, admin, { q }, first)).items.map((p) => p.id).sort();
    expect(await ids("sunrise BAKERY")).toHaveLength(3); // business name of the account: all three of its proposals
    expect(await ids("mixed.case@example")).toHaveLength(3);
    expect(await ids("ROSA")).toEqual([florist]);
    expect(await ids("FLOWERS.EXAMPLE")).toEqual([florist]);
    expect(await ids("loaves")).toEqual([bakery]);
    expect(await ids("50%")).toEqual([percent]);
    expect(await ids("nothing like this")).toEqual([]);
    const counted = await listProposalsForAdmin(t.db, admin, { q: "petals" }, first);
    expect(counted.total).toBe(1);
  });

  it("finds proposals of clients when a term matches very many accounts, and caps a search's count", async () => {
    const { t, s, admin } = ctx;
    // More matching accounts than are inlined as ids: the search falls back to a subquery.
    const accounts = Array.from({ length: MAX_INLINE_IDS + 5 }, (_, i) => ({
      id: `bulk-${i}`,
      name: "Common Cafe",
      businessName: "Common Cafe",
      email: `bulk${i}@example.com`,
      role: "client" as const,
    }));
    for (let i = 0; i < accounts.length; i += 500) await t.db.insert(user).values(accounts.slice(i, i + 500));
    const mine = [];
    for (const id of ["bulk-0", "bulk-1", `bulk-${MAX_INLINE_IDS + 4}`])
      mine.push(await insertProposal(t.db, { clientId: id, projectName: "Espresso bar" }));
    const found = await listProposalsForAdmin(t.db, admin, { q: "COMMON cafe" }, first);
    expect(found.items.map((p) => p.id).sort((a, b) => a - b)).toEqual(mine);
    expect(found).toMatchObject({ total: 3, totalIsLowerBound: false });

    const client = await makeClient(s);
    const many = Array.from({ length: SEARCH_COUNT_CAP + 1 }, () => ({
      clientId: client.id,
      source: "client" as const,
      status: "pending" as const,
      projectDetails: "x",
      projectName: "Widely used name",
    }));
    for (let i = 0; i < many.length; i += 500) await t.db.insert(proposal).values(many.slice(i, i + 500));
    const capped = await listProposalsForAdmin(t.db, admin, { q: "widely used" }, first);
    expect(capped).toMatchObject({ total: SEARCH_COUNT_CAP, totalIsLowerBound: true });
    expect(capped.items).toHaveLength(25);
    const exact = await listProposalsForAdmin(t.db, admin, {}, first);
    expect(exact).toMatchObject({ total: SEARCH_COUNT_CAP + 4, totalIsLowerBound: false });
  });

  it("filters by status and combines the filter with search", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const a = await insertProposal(t.db, { clientId: client.id, projectName: "Alpha", status: "review" });
    await insertProposal(t.db, { clientId: client.id, projectName: "Beta", status: "review" });
    await insertProposal(t.db, { clientId: client.id, projectName: "Alpha two", status: "pending" });
    const review = await listProposalsForAdmin(t.db, admin, { status: "review" }, first);
    expect(review.total).toBe(2);
    expect(review.items.every((p) => p.status === "review")).toBe(true);
    const both = await listProposalsForAdmin(t.db, admin, { status: "review", q: "alpha" }, first);
    expect(both.items.map((p) => p.id)).toEqual([a]);
  });

  it("pages through every row once, forwards and back, with identical timestamps", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const at = new Date("2026-01-05T12:00:00.123Z");
    // 12 rows share one instant (ties broken by id), 12 have their own.
    for (let i = 0; i < 24; i++)
      await insertProposal(t.db, { clientId: client.id, createdAt: i < 12 ? at : new Date(at.getTime() + (i + 1) * 1000) });
    // A microsecond later than the tie: a Date-based cursor would lose it.
    await t.db.execute(
      sql`update ${proposal} set created_at = created_at + interval '1 microsecond' where id = (select max(id) from ${proposal} where created_at = ${at.toISOString()}::timestamptz)`,
    );
    const all = (await t.db.select({ id: proposal.id }).from(proposal)).map((r) => r.id);

    const seen: number[] = [];
    const pages = [];
    let params = new URLSearchParams();
    for (;;) {
      const page = await listProposalsForAdmin(t.db, admin, {}, pageRequestFrom(params, { size: 5 }));
      expect(page.total).toBe(24);
      pages.push(page);
      seen.push(...page.items.map((p) => p.id));
      if (!page.next) break;
      params = new URLSearchParams({ after: page.next });
    }
    expect(pages.map((p) => p.items.length)).toEqual([5, 5, 5, 5, 4]);
    expect(new Set(seen).size).toBe(24);
    expect([...seen].sort((x, y) => x - y)).toEqual([...all].sort((x, y) => x - y));
    expect(pages[0]!.prev).toBeNull();
    // Going back from the last page gives the fourth page again.
    const back = await listProposalsForAdmin(
      t.db,
      admin,
      {},
      pageRequestFrom(new URLSearchParams({ before: pages[4]!.prev! }), { size: 5 }),
    );
    expect(back.items.map((p) => p.id)).toEqual(pages[3]!.items.map((p) => p.id));
    expect(back.next).not.toBeNull();
    // A forged cursor is refused with a clear 400 (docs/product.md#admin-lists), never a 500.
    const forged = await rejectionOf(Promise.resolve().then(() => pageRequestFrom(new URLSearchParams({ after: "not-a-cursor" }))));
    expect(forged.status).toBe(400);
    expect(forged.message).toBe(BAD_PAGE_LINK);
  });

  it("sets each admin status freely and refuses other values", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    const id = await insertProposal(t.db, { clientId: client.id });
    for (const status of [...ADMIN_PROPOSAL_STATUSES].reverse()) {
      await setProposalStatus(t.db, admin, id, status);
      const [row] = await t.db.select({ status: proposal.status }).from(proposal).where(eq(proposal.id, id));
      expect(row!.status).toBe(status);
    }
    const bad = await rejectionOf(setProposalStatus(t.db, admin, id, "closed" as never));
    expect(bad.status).toBe(400);
    expect((await rejectionOf(setProposalStatus(t.db, admin, 999_999, "review"))).status).toBe(404);
    const [row] = await t.db.select({ status: proposal.status }).from(proposal).where(eq(proposal.id, id));
    expect(row!.status).toBe("pending");
  });

  it("counts proposals for the dashboard", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s);
    await insertProposal(t.db, { clientId: client.id, status: "completed" });
    await insertProposal(t.db, { clientId: client.id, status: "planning" });
    await insertProposal(t.db, { clientId: client.id });
    expect(await countProposals(t.db, admin)).toEqual({ total: 3, open: 2 });
  });

  it("refuses clients and ambassadors before reading or writing anything", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const ambassador = await makeAmbassador(s);
    const id = await insertProposal(t.db, { clientId: client.id });
    const before = await snapshot(t.db);
    for (const actor of [client, ambassador]) {
      expect((await rejectionOf(listProposalsForAdmin(t.db, actor, {}, first))).status).toBe(403);
      expect((await rejectionOf(setProposalStatus(t.db, actor, id, "completed"))).status).toBe(403);
      expect((await rejectionOf(countProposals(t.db, actor))).status).toBe(403);
    }
    expect(await snapshot(t.db)).toEqual(before);
    const [row] = await t.db.select({ role: user.role }).from(user).where(eq(user.id, client.id));
    expect(row!.role).toBe("client");
  });
});
