import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, proposal, session, settings, user } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import { testDatabases } from "../../../tests/helpers/db";
import { freshMeta, makeAdmin, makeAmbassador, makeClient, roleInDb, useTestServices, verifyByMail } from "../../../tests/helpers/services";
import { ambassadorRegistrationSchema, clientRegistrationSchema, REFERRAL_MESSAGES, safeRedirect } from "./accounts.schema";
import { AUTH_RATE_LIMITS, ensureFirstAdmin, registerAmbassador, requestPasswordReset, resetPassword, signIn } from "./accounts.server";
import { setUserActive } from "./users.server";

async function refusalOf(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected a refusal");
}

describe("account schemas", () => {
  it("gives the spec's three referral link messages and lowercases the ID", () => {
    const schema = ambassadorRegistrationSchema(6);
    const base = { name: "A", email: "a@example.com", phone: "301 555 0100", password: "secret1" };
    const messageFor = (referralCode: string) => schema.safeParse({ ...base, referralCode }).error?.issues.map((i) => i.message);
    expect(messageFor("   ")).toEqual([REFERRAL_MESSAGES.required]);
    expect(messageFor("has space")).toEqual([REFERRAL_MESSAGES.pattern]);
    expect(messageFor("émile")).toEqual([REFERRAL_MESSAGES.pattern]);
    expect(schema.parse({ ...base, referralCode: " Jane_Doe-42 " }).referralCode).toBe("jane_doe-42");
  });
  it("applies the configurable password minimum (default 6)", () => {
    const base = { businessName: "B", email: "b@example.com", phone: "1", password: "12345" };
    expect(clientRegistrationSchema(6).safeParse(base).error?.issues[0]?.message).toBe("Password must be at least 6 characters.");
    expect(clientRegistrationSchema(5).safeParse(base).success).toBe(true);
    expect(clientRegistrationSchema(6).safeParse({ ...base, password: "123456", website: "not a url" }).error?.issues[0]?.path).toEqual([
      "website",
    ]);
  });
  it("follows only same-origin redirects", () => {
    expect(safeRedirect("/project-status?x=1")).toBe("/project-status?x=1");
    for (const bad of ["//evil.example", "https://evil.example/", "/\\evil.example", "javascript:alert(1)", null])
      expect(safeRedirect(bad)).toBeNull();
  });
});

describe.each(testDatabases())("accounts on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("registers a client with role client and profile fields; role is never an input", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s, { businessName: "Blue Cafe" });
    const [row] = await t.db.select().from(user).where(eq(user.id, client.id));
    expect(row).toMatchObject({ role: "client", businessName: "Blue Cafe", phone: "301 555 0100", referredById: null, banned: false });
    expect(row!.lastLoginAt).toBeInstanceOf(Date);
    // Extra body fields (role) are ignored or refused by better-auth; never an admin.
    await s.auth.api
      .signUpEmail({ body: { name: "x", email: "sneaky@example.com", password: "secret-pass", role: "admin" } as never })
      .catch(() => undefined);
    const [sneaky] = await t.db.select({ role: user.role }).from(user).where(eq(user.email, "sneaky@example.com"));
    expect(sneaky?.role ?? "client").not.toBe("admin");
  });

  it("links a client to the ambassador whose referral code matches case-insensitively", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s, { referralCode: "Sunny-Days" });
    expect(await roleInDb(t.db, ambassador.id)).toBe("ambassador");
    const [amb] = await t.db.select({ code: user.referralCode }).from(user).where(eq(user.id, ambassador.id));
    expect(amb!.code).toBe("sunny-days");
    const client = await makeClient(s, { referralCode: "SUNNY-days" });
    const [row] = await t.db.select({ referredById: user.referredById }).from(user).where(eq(user.id, client.id));
    expect(row!.referredById).toBe(ambassador.id);
  });

  it('refuses an unknown referral code with "Invalid referral code" and writes nothing', async () => {
    const { t, s } = ctx;
    const before = (await t.db.select({ n: count() }).from(user))[0]!.n;
    const error = await refusalOf(makeClient(s, { referralCode: "nobody" }));
    expect(error.status).toBe(400);
    expect(error.fieldErrors).toEqual({ referralCode: ["Invalid referral code"] });
    // A client's or admin's e-mail-like code is not an ambassador's referral code either.
    expect((await t.db.select({ n: count() }).from(user))[0]!.n).toBe(before);
  });

  it("refuses client registration when allowNewClients is false", async () => {
    const { t, s } = ctx;
    await t.db.insert(settings).values({ id: 1, allowNewClients: false });
    const error = await refusalOf(makeClient(s, { email: "late@example.com" }));
    expect(error.status).toBe(403);
    expect(error.message).toMatch(/registrations are currently closed/);
    expect(await t.db.select().from(user).where(eq(user.email, "late@example.com"))).toHaveLength(0);
  });

  it("refuses a taken referral link ID, whatever its case", async () => {
    const { s } = ctx;
    await makeAmbassador(s, { referralCode: "taken-id" });
    const error = await refusalOf(makeAmbassador(s, { referralCode: "TAKEN-ID" }));
    expect(error.status).toBe(409);
    expect(error.fieldErrors).toEqual({ referralCode: [REFERRAL_MESSAGES.taken] });
  });

  it("lets only one of two simultaneous sign-ups with the same referral link ID win", async () => {
    const { t, s } = ctx;
    const attempts = await Promise.allSettled([
      registerAmbassador(
        s,
        { name: "A", email: "race-a@example.com", phone: "1", password: "secret-pass", referralCode: "race" },
        freshMeta(),
      ),
      registerAmbassador(
        s,
        { name: "B", email: "race-b@example.com", phone: "1", password: "secret-pass", referralCode: "race" },
        freshMeta(),
      ),
    ]);
    expect(attempts.filter((a) => a.status === "fulfilled")).toHaveLength(1);
    const rejected = attempts.find((a) => a.status === "rejected") as PromiseRejectedResult;
    expect(rejected.reason).toBeInstanceOf(AppError);
    expect((rejected.reason as AppError).fieldErrors).toEqual({ referralCode: [REFERRAL_MESSAGES.taken] });
    expect(await t.db.select().from(user).where(eq(user.referralCode, "race"))).toHaveLength(1);
  });

  it("refuses a second account with the same e-mail with a human sentence", async () => {
    const { s } = ctx;
    await makeClient(s, { email: "dup@example.com" });
    const error = await refusalOf(makeClient(s, { email: "dup@example.com" }));
    expect(error.status).toBe(409);
    expect(error.fieldErrors?.email?.[0]).toMatch(/already exists/);
  });

  it("gives ambassador proposals addressed to the e-mail to the client who registers with it, once they verify it", async () => {
    const { t, s } = ctx;
    const ambassador = await makeAmbassador(s);
    await t.db.insert(proposal).values({
      source: "ambassador",
      ambassadorId: ambassador.id,
      clientName: "New Co",
      clientEmail: "newco@example.com",
      projectDetails: "Site",
      status: "submitted",
    });
    const client = await makeClient(s, { email: "NewCo@Example.com" });
    expect((await t.db.select({ clientId: proposal.clientId }).from(proposal))[0]!.clientId).toBeNull();
    await verifyByMail(s, "newco@example.com");
    const [row] = await t.db.select({ clientId: proposal.clientId }).from(proposal);
    expect(row!.clientId).toBe(client.id);
  });

  it("signs in with the role's home page, throttles repeated wrong passwords and refuses deactivated users", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s, { email: "sign@example.com" });
    const ok = await signIn(s, { email: "sign@example.com", password: "secret-pass" }, freshMeta());
    expect(ok.home).toBe("/client-dashboard");
    expect(ok.headers.getSetCookie().join(";")).toMatch(/session_token=/);

    const wrong = await refusalOf(signIn(s, { email: "sign@example.com", password: "nope-nope" }, freshMeta()));
    expect(wrong).toMatchObject({ status: 400, message: "Wrong email or password." });

    const meta = freshMeta("203.0.113.50");
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_RATE_LIMITS.signIn.limit + 1; i++) {
      statuses.push((await refusalOf(signIn(s, { email: `nobody${i}@example.com`, password: "wrong-pass" }, meta))).status);
    }
    expect(statuses.slice(0, -1).every((st) => st === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    const admin = await makeAdmin(s);
    await setUserActive(t.db, admin, client.id, false);
    expect(await t.db.select().from(session).where(eq(session.userId, client.id))).toHaveLength(0);
    const banned = await refusalOf(signIn(s, { email: "sign@example.com", password: "secret-pass" }, freshMeta()));
    expect(banned.status).toBe(403);
    expect(banned.message).toMatch(/deactivated/);
    await setUserActive(t.db, admin, client.id, true);
    expect((await signIn(s, { email: "sign@example.com", password: "secret-pass" }, freshMeta())).userId).toBe(client.id);
  });

  it("only an admin may deactivate, and never an admin", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s);
    const other = await makeClient(s);
    const admin = await makeAdmin(s);
    await expect(setUserActive(t.db, other, client.id, false)).rejects.toMatchObject({ status: 403 });
    await expect(setUserActive(t.db, admin, admin.id, false)).rejects.toMatchObject({ status: 404 });
    const [row] = await t.db.select({ banned: user.banned }).from(user).where(eq(user.id, client.id));
    expect(row!.banned).toBe(false);
  });

  it("queues a reset e-mail whose token works once", async () => {
    const { t, s } = ctx;
    await makeClient(s, { email: "reset@example.com" });
    await requestPasswordReset(s, "reset@example.com", freshMeta());
    await requestPasswordReset(s, "unknown@example.com", freshMeta()); // no error, no mail
    // Registration also queued a verification mail (app/features/users/email-verification.server.test.ts).
    const mails = (await t.db.select().from(mailOutbox)).filter((m) => m.subject.startsWith("Reset your password"));
    expect(mails.map((m) => m.to)).toEqual(["reset@example.com"]);
    const token = decodeURIComponent(/reset-password\?token=([^\s"&]+)/.exec(mails[0]!.text)![1]!);
    await resetPassword(s, { token, password: "brand-new-pass" });
    expect((await signIn(s, { email: "reset@example.com", password: "brand-new-pass" }, freshMeta())).home).toBe("/client-dashboard");
    const reused = await refusalOf(resetPassword(s, { token, password: "another-pass" }));
    expect(reused.message).toMatch(/invalid, expired or already used/);
  });

  it("creates the first admin once, with a generated password when none is configured", async () => {
    const { s } = ctx;
    const first = await ensureFirstAdmin(s, {});
    expect(first?.generatedPassword).toMatch(/^[\w-]{16}$/);
    expect(await ensureFirstAdmin(s, {})).toBeNull();
    const ok = await signIn(s, { email: first!.email, password: first!.generatedPassword! }, freshMeta());
    expect(ok.home).toBe("/admin");
  });
});
