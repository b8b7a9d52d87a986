import { describe, expect, it } from "vitest";
import { contactMessage, meeting } from "#app/db/schema";
import { createDatabaseFileStore } from "#app/features/files/database-store.server";
import { postMessage } from "#app/features/conversations/post-message.server";
import { testDatabases } from "../../../tests/helpers/db";
import { insertProposal } from "../../../tests/helpers/portal";
import { makeAdmin, makeClient, useTestServices } from "../../../tests/helpers/services";
import { adminNextSteps, clientNextSteps } from "./next-steps.server";

describe.each(testDatabases())("what is next on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("leads a new client to their first request, then lists the agency's unread messages", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    expect(await clientNextSteps(s.db, client)).toEqual({ firstTime: true, items: [] });

    const admin = await makeAdmin(s);
    const proposalId = await insertProposal(s.db, { clientId: client.id, projectName: "Bakery" });
    const services = { db: s.db, files: createDatabaseFileStore(s.db), maxUploadMb: 25 };
    await postMessage(services, { author: admin, proposalId, text: "Can you send the logo?" });
    await postMessage(services, { author: admin, proposalId, text: "And the brief.", visibility: "internal" });
    const steps = await clientNextSteps(s.db, client);
    expect(steps.firstTime).toBe(false);
    // The internal note is not counted for the client.
    expect(steps.items.find((i) => i.key === "unread-messages")).toMatchObject({ title: "1 unread message", href: "/messages" });

    // The client's answer waits for the agency.
    expect((await adminNextSteps(s.db, admin)).find((i) => i.key === "unread-conversations")).toBeUndefined();
    await postMessage(services, { author: client, proposalId, text: "Here it is." });
    await postMessage(services, { author: client, proposalId, text: "And the brief." });
    expect((await adminNextSteps(s.db, admin)).find((i) => i.key === "unread-conversations")).toMatchObject({
      title: "2 unread client messages",
      href: "/admin/conversations",
    });
  });

  it("counts revision requests, meeting requests and unread contact messages in one statement, each left out at zero", async () => {
    const { s } = ctx;
    const admin = await makeAdmin(s);
    const client = await makeClient(s);
    const keys = async () => (await adminNextSteps(s.db, admin)).map((i) => i.key);
    const before = await keys();
    for (const key of ["revision-requests", "meeting-requests", "unread-messages"]) expect(before).not.toContain(key);

    await insertProposal(s.db, { clientId: client.id, status: "review", revisionComment: "Bigger logo" });
    await insertProposal(s.db, { clientId: client.id, status: "review", revisionComment: "" });
    const inDays = (days: number) => new Date(Date.now() + days * 86_400_000);
    await s.db.insert(meeting).values([
      { userId: client.id, startsAt: inDays(1), endsAt: inDays(1.02), timeZone: "UTC", status: "pending" },
      { userId: client.id, startsAt: inDays(2), endsAt: inDays(2.02), timeZone: "UTC", status: "accepted" },
      { userId: client.id, startsAt: inDays(-2), endsAt: inDays(-1.98), timeZone: "UTC", status: "pending" },
    ]);
    await s.db.insert(contactMessage).values([
      { userName: "Ada", userEmail: "ada@example.com", message: "Hello" },
      { userName: "Bob", userEmail: "bob@example.com", message: "Hi", readAt: new Date() },
    ]);
    const steps = await adminNextSteps(s.db, admin);
    expect(steps.find((i) => i.key === "revision-requests")).toMatchObject({ title: "1 revision request" });
    expect(steps.find((i) => i.key === "meeting-requests")).toMatchObject({ title: "1 meeting request" });
    expect(steps.find((i) => i.key === "unread-messages")).toMatchObject({ title: "1 unread contact message" });
  });
});
