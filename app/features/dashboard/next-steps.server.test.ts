import { describe, expect, it } from "vitest";
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
});
