/**
 * Who each event is written for (docs/product.md#live-updates) on PGlite and PostgreSQL: the
 * audience rules by entity, internal notes to admins only, an ambassador's proposal to its client
 * only once their address is verified, and one event per transaction, kind and entity.
 */
import { desc } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { liveEvent } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { publishAudit, publishLive, publishProposalEvent } from "./live-events.server";

describe.each(testDatabases())("live events on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  const latest = async () => (await ctx.t.db.select().from(liveEvent).orderBy(desc(liveEvent.id)).limit(1))[0]!;

  it("a conversation's message goes to the admins and the client; an internal note to admins only", async () => {
    const client = await makeClient(ctx.s, { verified: true, businessName: "Acme Bakery" });
    const proposalId = await insertProposal(ctx.t.db, { clientId: client.id, projectName: "Bakery site" });
    await ctx.t.db.transaction((tx) =>
      publishAudit(
        tx,
        { entity: "message", entityId: 7, action: "posted", proposalId, after: { body: "Hello", visibility: "shared" } },
        client,
      ),
    );
    const shared = await latest();
    expect(shared).toMatchObject({ kind: "message.posted", proposalId, admins: true, userIds: [client.id] });
    expect(shared.data).toEqual({
      messageId: 7,
      authorName: "Acme Bakery",
      internal: false,
      projectName: "Bakery site",
      actorId: client.id,
    });
    expect(JSON.stringify(shared.data)).not.toContain("Hello");

    await ctx.t.db.transaction((tx) =>
      publishAudit(
        tx,
        { entity: "message", entityId: 8, action: "note-posted", proposalId, after: { body: "Secret", visibility: "internal" } },
        ctx.admin,
      ),
    );
    const note = await latest();
    expect(note).toMatchObject({ kind: "note.posted", admins: true, userIds: [] });
    expect(note.data).toMatchObject({ messageId: 8, internal: true });
  });

  it("an ambassador's proposal reaches its client only once their address is verified; its ambassador gets status events", async () => {
    const amb = await makeAmbassador(ctx.s);
    const unverified = await makeClient(ctx.s);
    const verified = await makeClient(ctx.s, { verified: true });
    const p1 = await insertProposal(ctx.t.db, { source: "ambassador", ambassadorId: amb.id, clientId: unverified.id, status: "submitted" });
    const p2 = await insertProposal(ctx.t.db, { source: "ambassador", ambassadorId: amb.id, clientId: verified.id, status: "submitted" });
    await ctx.t.db.transaction((tx) => publishProposalEvent(tx, p1, "proposal.status-changed"));
    expect((await latest()).userIds).toEqual([amb.id]);
    await ctx.t.db.transaction((tx) => publishProposalEvent(tx, p2, "proposal.status-changed"));
    expect((await latest()).userIds).toEqual([verified.id, amb.id]);
    // Not a status-level event: the ambassador is not told.
    await ctx.t.db.transaction((tx) => publishProposalEvent(tx, p2, "proposal.revision-requested"));
    expect((await latest()).userIds).toEqual([verified.id]);
  });

  it("tells one transaction's write once per kind and entity, and writes nothing without a recipient", async () => {
    const before = (await ctx.t.db.select().from(liveEvent)).length;
    await ctx.t.db.transaction(async (tx) => {
      await publishLive(tx, { kind: "proposal.created", entityId: 1, admins: true });
      await publishLive(tx, { kind: "proposal.created", entityId: 1, admins: true, userIds: ["x"] });
      await publishLive(tx, { kind: "proposal.updated", entityId: 1, admins: true });
      await publishLive(tx, { kind: "proposal.created", entityId: 2, userIds: [] });
    });
    const rows = (await ctx.t.db.select().from(liveEvent)).slice(before);
    expect(rows.map((r) => `${r.kind}:${r.entityId}`)).toEqual(["proposal.created:1", "proposal.updated:1"]);
  });
});
