import { describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { insertMeeting } from "../../../tests/helpers/admin-data";
import { insertProposal, refusalOf } from "../../../tests/helpers/portal";
import { makeAdmin, makeAmbassador, makeClient, useTestServices } from "../../../tests/helpers/services";
import { getMeetingInviteForClient, listClientMeetings } from "./meetings.server";

const NOW = new Date("2026-05-10T12:00:00Z");

describe.each(testDatabases())("client meetings on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("lists only the client's own meetings: upcoming soonest first, past most recent first, with the project named", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const other = await makeClient(s);
    const project = await insertProposal(t.db, { clientId: client.id, projectName: "Bakery" });
    const at = (iso: string) => new Date(iso);
    const later = await insertMeeting(t.db, { userId: client.id, startsAt: at("2026-07-01T10:00:00Z"), status: "accepted" });
    const sooner = await insertMeeting(t.db, { userId: client.id, startsAt: at("2026-05-10T20:00:00Z"), proposalId: project });
    const old = await insertMeeting(t.db, { userId: client.id, startsAt: at("2024-01-01T10:00:00Z"), status: "accepted" });
    const older = await insertMeeting(t.db, { userId: client.id, startsAt: at("2023-01-01T10:00:00Z") });
    await insertMeeting(t.db, { userId: other.id, startsAt: at("2026-06-15T10:00:00Z") });
    const list = await listClientMeetings(t.db, client, NOW);
    // 8 hours ahead is inside the 12 h cutoff: the client is told to write instead.
    expect(list.upcoming.map((m) => [m.id, m.status, m.change, m.projectName])).toEqual([
      [sooner, "pending", "past-cutoff", "Bakery"],
      [later, "accepted", "changeable", null],
    ]);
    expect(list.past.map((m) => [m.id, m.change])).toEqual([
      [old, "closed"],
      [older, "closed"],
    ]);
    expect(list.changeCutoffHours).toBe(12);
  });

  it("refuses non-clients; the invite is the client's own accepted meeting's only", async () => {
    const { t, s } = ctx;
    for (const actor of [await makeAmbassador(s), await makeAdmin(s)]) {
      expect((await refusalOf(listClientMeetings(t.db, actor))).status).toBe(403);
    }
    const client = await makeClient(s);
    const intruder = await makeClient(s);
    const accepted = await insertMeeting(t.db, { userId: client.id, status: "accepted", endsAt: new Date("2026-03-03T19:45:00Z") });
    const pending = await insertMeeting(t.db, { userId: client.id });
    const invite = await getMeetingInviteForClient(t.db, client, accepted, { origin: "https://portal.example" });
    expect(invite.filename).toBe(`meeting-${accepted}.ics`);
    expect(invite.ics).toContain("DURATION:PT45M");
    expect(invite.ics).toContain("SEQUENCE:0");
    expect((await refusalOf(getMeetingInviteForClient(t.db, intruder, accepted, { origin: "https://x.example" }))).status).toBe(404);
    expect((await refusalOf(getMeetingInviteForClient(t.db, client, pending, { origin: "https://x.example" }))).status).toBe(404);
  });
});
