/**
 * The edit-proposal route on unexpected failures (docs/product.md#proposals): reading fails → the error reaches
 * the route's ErrorBoundary, which shows "Failed to fetch proposal" (500); saving fails →
 * "Update failed. Try again." next to the form, input kept. Refusals by the use-case (404,
 * 409) are covered in proposals.server.test.ts and the browser tests.
 */
import { RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import { servicesContext, type AppServices } from "#app/context";
import type { SessionUser } from "#app/features/users/actor";
import { PROPOSAL_MESSAGES } from "#app/features/proposals/proposals.messages";
import { sessionUserContext } from "#app/features/users/session.server";
import { logger } from "#app/lib/logger.server";
import { action, loader } from "./edit-proposal";

const client: SessionUser = {
  id: "u1",
  role: "client",
  email: "c@example.com",
  name: "C",
  businessName: "C",
  phone: null,
  website: null,
  referralCode: null,
  referredById: null,
  emailVerified: true,
};

/** A database whose every use throws, like one that lost its connection. */
const brokenDb = new Proxy(
  {},
  {
    get: () => () => {
      throw new Error("connection terminated unexpectedly");
    },
  },
);

function contextWith(db: unknown) {
  const context = new RouterContextProvider();
  context.set(servicesContext, { db } as unknown as AppServices);
  context.set(sessionUserContext, client);
  return context;
}

type DataResult = { data: unknown; init: { status?: number } | null };

describe("edit-proposal route on a failing database", () => {
  afterEach(() => vi.restoreAllMocks());

  it("lets an unexpected read failure through to the error boundary (a 500, logged once by the server)", async () => {
    await expect(
      loader({
        params: { proposalId: "7" },
        context: contextWith(brokenDb),
        request: new Request("http://x/edit-proposal/7"),
      } as never),
    ).rejects.toThrow("connection terminated unexpectedly");
  });

  it("answers a malformed or out-of-range id with 404 before touching the database", async () => {
    for (const proposalId of ["abc", "0", "99999999999", "7\u0000"]) {
      const thrown = await loader({
        params: { proposalId },
        context: contextWith(brokenDb),
        request: new Request("http://x/"),
      } as never).then(
        () => null,
        (error: unknown) => error as DataResult,
      );
      expect(thrown?.data).toBe(PROPOSAL_MESSAGES.notFound);
      expect(thrown?.init?.status).toBe(404);
    }
  });

  it('answers the action with 500 "Update failed. Try again." and keeps the input', async () => {
    vi.spyOn(logger, "error").mockImplementation(() => {});
    const body = new FormData();
    body.set("projectDetails", "New details");
    const request = new Request("http://x/edit-proposal/7", { method: "POST", body });
    const reply = (await action({
      params: { proposalId: "7" },
      context: contextWith(brokenDb),
      request,
    } as never)) as unknown as DataResult;
    expect(reply.init?.status).toBe(500);
    const result = (reply.data as { result: { error: Record<string, string[]>; initialValue: Record<string, string> } }).result;
    expect(result.error[""]).toEqual([PROPOSAL_MESSAGES.updateFailed]);
    expect(result.initialValue.projectDetails).toBe("New details");
  });
});
