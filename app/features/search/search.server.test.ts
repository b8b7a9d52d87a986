/**
 * The admin's global search (issue #41) on PGlite and PostgreSQL: the same full-text SQL finds
 * proposals, organisations, accounts and messages by word prefixes and invoices by number; deleted
 * messages stay hidden; a client or an ambassador is refused before anything is read; and on
 * PostgreSQL each full-text statement uses its GIN expression index.
 */
import { sql } from "drizzle-orm";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { insertProposal } from "../../../tests/helpers/admin-data";
import { testDatabases } from "../../../tests/helpers/db";
import { insertInvoice } from "../../../tests/helpers/payments";
import { captureQueries, explainText } from "../../../tests/helpers/query-plans";
import { createPgDatabase } from "../../../tests/helpers/test-database";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { globalSearch, normalizeTerm, prefixQuery } from "./search.server";

describe("prefixQuery / normalizeTerm", () => {
  it("keeps letters and digits only, each word a prefix", () => {
    expect(prefixQuery("Blue bak")).toBe("blue:* & bak:*");
    expect(prefixQuery("O'Brien & Søn | !x:*")).toBe("o:* & brien:* & søn:* & x:*");
    expect(prefixQuery("&|!():*")).toBeNull();
    expect(normalizeTerm("  a\u0000b   c ")).toBe("a b c");
    expect(normalizeTerm("x".repeat(300))).toHaveLength(100);
  });
});

describe.each(testDatabases())("global search on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  async function seed() {
    const { t, s } = ctx;
    const client = await makeClient(s, { businessName: "Blue Harbor Bakery" });
    const proposalId = await insertProposal(t.db, { clientId: client.id, projectName: "Shop website for the harbour" });
    const other = await insertProposal(t.db, {
      clientName: "Copper Garage",
      clientEmail: "owner@copper.example",
      projectName: "Booking app",
    });
    const invoiceId = await insertInvoice(t.db, proposalId, 120_000, client.id);
    await t.db.execute(sql`update invoice set number = 'INV-2026-0042' where id = ${invoiceId}`);
    await t.db.execute(sql`insert into proposal_message (proposal_id, author_name, author_role, body)
      values (${proposalId}, 'Ada', 'client', 'The logo files are attached, with the colour palette.'),
             (${other}, 'Omar', 'client', 'Secret logotype draft')`);
    await t.db.execute(sql`update proposal_message set deleted_at = now(), body = '' where body like 'Secret%'`);
    return { client, proposalId, invoiceId, other };
  }

  it("finds an organisation, its account and its proposal by word prefixes; an invoice by its number; a message by a word", async () => {
    const { t, admin } = ctx;
    const { client, proposalId, invoiceId } = await seed();
    const byName = await globalSearch(t.db, admin, "blue harb");
    expect(byName.map((r) => [r.kind, r.title])).toEqual([
      ["organisation", "Blue Harbor Bakery"],
      ["user", "Blue Harbor Bakery"],
    ]);
    expect(byName[1]!.detail).toBe(`Client · ${client.email}`);
    expect(byName[0]!.href).toMatch(/^\/admin\/organisations\/\d+$/);
    expect((await globalSearch(t.db, admin, "harbour")).map((r) => [r.kind, r.href])).toEqual([
      ["proposal", `/admin/proposals/${proposalId}`],
    ]);
    // An unregistered client's name and e-mail on the proposal.
    expect((await globalSearch(t.db, admin, "copper")).map((r) => r.kind)).toEqual(["proposal"]);
    expect((await globalSearch(t.db, admin, "owner@copper")).map((r) => r.kind)).toEqual(["proposal"]);
    for (const term of ["INV-2026-0042", "0042", "inv-2026-00"]) {
      const found = await globalSearch(t.db, admin, term);
      expect(found[0], term).toMatchObject({
        kind: "invoice",
        title: "Invoice INV-2026-0042",
        href: `/admin/invoices/${invoiceId}/payments`,
      });
      expect(found[0]!.detail).toBe("Blue Harbor Bakery · Unpaid");
    }
    const messages = await globalSearch(t.db, admin, "logo");
    expect(messages.map((r) => [r.kind, r.href])).toEqual([["message", `/admin/proposals/${proposalId}#conversation`]]);
    expect(messages[0]!.detail).toBe("Ada on Shop website for the harbour");
    // Nothing for a word nobody wrote, for one letter, and for operators alone.
    expect(await globalSearch(t.db, admin, "zebra")).toEqual([]);
    expect(await globalSearch(t.db, admin, "b")).toEqual([]);
    expect(await globalSearch(t.db, admin, "&| !")).toEqual([]);
  });

  it("a client or an ambassador is refused (403) before anything is read", async () => {
    const { t, s } = ctx;
    await seed();
    const client = await makeClient(s);
    const ambassador = await makeAmbassador(s);
    for (const actor of [client, ambassador]) {
      await expect(globalSearch(t.db, actor, "blue")).rejects.toMatchObject({ code: "FORBIDDEN" });
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("global search's plans on PostgreSQL", () => {
  it("every full-text statement reads its GIN expression index", { timeout: 60_000 }, async () => {
    const created = await createPgDatabase(process.env.TEST_DATABASE_URL!, "search_plans");
    const pool = new pg.Pool({ connectionString: created.url, max: 2 });
    try {
      const queries = await captureQueries(created.url, (db) =>
        globalSearch(db, { id: "a", role: "admin", email: "a@example.com" }, "blue harbor"),
      );
      const fullText = queries.filter((q) => q.sql.includes("to_tsquery"));
      expect(fullText).toHaveLength(4);
      const client = await pool.connect();
      try {
        await client.query("set enable_seqscan = off");
        for (const [query, index] of fullText.map(
          (q, i) => [q, ["organisation_search_idx", "user_search_idx", "proposal_search_idx", "proposal_message_search_idx"][i]!] as const,
        )) {
          expect(await explainText(client, query), index).toContain(index);
        }
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
      await created.drop();
    }
  });
});
