/**
 * Undo of a status change does not mail the client again (issue #28), on PGlite and PostgreSQL:
 * the mail about the change is withdrawn while unsent, and an Undo sends none of its own.
 */
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox } from "#app/db/schema";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeClient, useTestServices } from "../../../tests/helpers/services";
import { setProposalStatus, undoProposalStatus } from "./proposals.admin.server";

describe.each(testDatabases())("status Undo on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });
  const mailsTo = (email: string) => ctx.s.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));

  it("an Undo before the mail went out: the client gets no mail at all", async () => {
    const { s, admin } = ctx;
    const client = await makeClient(s, { verified: true });
    const before = (await mailsTo(client.email)).length;
    const id = await insertProposal(s.db, { clientId: client.id, projectName: "Bakery" });
    const change = await setProposalStatus(s.db, admin, id, "planning");
    expect((await mailsTo(client.email)).map((m) => m.subject)).toContain("Bakery: status is now Planning — Client Portal");
    await undoProposalStatus(s.db, admin, change.eventId!);
    expect(await mailsTo(client.email)).toHaveLength(before);
  });

  it("an Undo after the mail went out: no second mail", async () => {
    const { s, admin } = ctx;
    const client = await makeClient(s, { verified: true });
    const id = await insertProposal(s.db, { clientId: client.id, projectName: "Gym" });
    const change = await setProposalStatus(s.db, admin, id, "review");
    await s.db.update(mailOutbox).set({ sentAt: new Date(), attempts: 1 }).where(eq(mailOutbox.to, client.email));
    const sent = (await mailsTo(client.email)).length;
    await undoProposalStatus(s.db, admin, change.eventId!);
    expect(await mailsTo(client.email)).toHaveLength(sent);
  });
});
