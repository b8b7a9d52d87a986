import { count, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, proposal, session, settings, user } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { freshMeta, makeAdmin, makeAmbassador, makeClient, roleInDb, useTestServices, verifyByMail } from "../../../tests/helpers/services";
import { ambassadorRegistrationSchema, clientRegistrationSchema, resetPasswordSchema, safeRedirect } from "./accounts.schema";
import { PASSWORD_MESSAGES, REFERRAL_MESSAGES } from "./accounts.messages";
import {
  createAdmin,
  ensureFirstAdmin,
  registerAmbassador,
  registerClient,
  requestPasswordReset,
  resetPassword,
  signIn,
} from "./accounts.server";
import { isCommonPassword } from "./password-policy.server";
import { setUserActive } from "./users.server";

describe("account schemas", () => {
  it("gives the spec's three referral link messages and lowercases the ID", () => {
    const schema = ambassadorRegistrationSchema(6);
    const base = { name: "A", email: "a@example.com", phone: "301 555 0100", password: "secret-7q" };
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
  it("refuses whitespace-only passwords next to the field, whatever the minimum", () => {
    const base = { businessName: "B", email: "b@example.com", phone: "1" };
    for (const password of ["      ", "\t\t\t\t\t\t", " \n \n \n ", "\u00a0".repeat(8)]) {
      const issues = clientRegistrationSchema(6).safeParse({ ...base, password }).error?.issues;
      expect(issues?.map((i) => [i.path, i.message])).toEqual([[["password"], PASSWORD_MESSAGES.blank]]);
    }
    const reset = resetPasswordSchema(6).safeParse({ token: "abc", password: "        ", confirmPassword: "        " });
    expect(reset.error?.issues.map((i) => i.message)).toEqual([PASSWORD_MESSAGES.blank]);
    // Spaces inside a password are fine.
    expect(clientRegistrationSchema(6).safeParse({ ...base, password: " my cat  " }).success).toBe(true);
  });

  it("knows the most common passwords, without case or surrounding spaces", () => {
    for (const common of ["123456", "password", "Password1", "qwerty123", "iloveyou", " 12345678 ", "QWERTYUIOP", "letmein"]) {
      expect(isCommonPassword(common), common).toBe(true);
    }
    for (const fine of ["secret-pass", "correct horse battery staple", "Blue-Cafe-2024!", "k8#Qz!pL"]) {
      expect(isCommonPassword(fine), fine).toBe(false);
    }
  });

  it("follows only same-origin redirects", () => {
    expect(safeRedirect("/project-status?x=1")).toBe("/project-status?x=1");
    expect(safeRedirect("/admin/invoices?page=2#top")).toBe("/admin/invoices?page=2#top");
    // Dot segments are resolved, the path stays on the site.
    expect(safeRedirect("/client/../admin")).toBe("/admin");
    expect(safeRedirect("/a/%2e%2e/b")).toBe("/b");
    expect(safeRedirect("/..")).toBe("/");
    const hostile = [
      "//evil.example",
      "///evil.example",
      "////evil.example",
      "https://evil.example/",
      "http:evil.example",
      "/\\evil.example",
      "/\\/evil.example",
      "\\\\evil.example",
      "/..//evil.com",
      "/../..//evil.com",
      "/./..//evil.com",
      "/.//evil.com",
      "/%2e%2e//evil.com",
      "/%2E%2E//evil.com",
      "/.%2e//evil.com",
      "/a/..//evil.com",
      "/a/../..//evil.com",
      "/%2F%2Fevil.com",
      "/%2f/evil.com",
      "/%5C%5Cevil.com",
      "/%5cevil.com/..",
      "%2F%2Fevil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "/\r\n//evil.com",
      "/\u0000//evil.com",
      "/..\\evil.com",
      "/.\\.\\evil.com",
      "/@evil.com",
      "//user:pass@evil.com",
      "/%",
      "javascript:alert(1)",
      " /admin",
      "evil.com",
      "",
      "/".repeat(3000),
      null,
      undefined,
      42,
      ["/admin"],
    ];
    for (const bad of hostile) {
      const result = safeRedirect(bad);
      // Nothing leads off the site: refused, or a plain path that a browser resolves on the site.
      if (result !== null) {
        expect(new URL(result, "https://portal.example").origin, JSON.stringify(bad)).toBe("https://portal.example");
        expect(result, JSON.stringify(bad)).toMatch(/^\/(?![/\\])/);
        expect(result).not.toContain("\\");
      }
    }
    for (const bad of hostile.filter(
      (h) => typeof h === "string" && !["/@evil.com", "/%5cevil.com/..", "/..\\evil.com", "/.\\.\\evil.com"].includes(h),
    )) {
      expect(safeRedirect(bad), JSON.stringify(bad)).toBeNull();
    }
    // Kept, as paths of this site: "/@evil.com" (a user part needs "//") and what "/x/.." leaves.
    expect(safeRedirect("/%5cevil.com/..")).toBe("/");
    expect(safeRedirect("/..\\evil.com")).toBe("/evil.com");
    expect(safeRedirect("/.\\.\\evil.com")).toBe("/evil.com");
    expect(safeRedirect("/@evil.com")).toBe("/@evil.com");
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

  it("signs in with the role's home page and refuses deactivated users", async () => {
    const { t, s } = ctx;
    const client = await makeClient(s, { email: "sign@example.com" });
    const ok = await signIn(s, { email: "sign@example.com", password: "secret-pass" }, freshMeta());
    expect(ok.home).toBe("/client-dashboard");
    expect(ok.headers.getSetCookie().join(";")).toMatch(/session_token=/);
    // The e-mail is matched without case.
    expect((await signIn(s, { email: "Sign@Example.com", password: "secret-pass" }, freshMeta())).userId).toBe(client.id);

    const wrong = await refusalOf(signIn(s, { email: "sign@example.com", password: "nope-nope" }, freshMeta()));
    expect(wrong).toMatchObject({ status: 400, message: "Wrong email or password." });
    // Throttling of repeated failures: throttle.server.test.ts.

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

  it("refuses common and whitespace-only passwords on registration, reset and admin creation, writing nothing", async () => {
    const { t, s } = ctx;
    const base = { businessName: "Common Co", email: "common@example.com", phone: "1" };
    for (const password of ["123456", "Password", "qwerty123", "      "]) {
      const refused = await refusalOf(registerClient(s, { ...base, password }, freshMeta()));
      expect(refused.status).toBe(400);
      expect(refused.fieldErrors?.password?.[0]).toMatch(/most common passwords|only spaces/);
    }
    const ambassador = await refusalOf(
      registerAmbassador(
        s,
        { name: "A", email: "amb-common@example.com", phone: "1", password: "iloveyou", referralCode: "amb-c" },
        freshMeta(),
      ),
    );
    expect(ambassador.fieldErrors?.password).toEqual([PASSWORD_MESSAGES.common]);
    await expect(createAdmin(s, { email: "boss@example.com", password: "password1" })).rejects.toMatchObject({ status: 400 });
    await expect(ensureFirstAdmin(s, { email: "boss@example.com", password: "qwerty123" })).rejects.toThrow(
      /^Invalid configuration: ADMIN_PASSWORD: This password is one of the most common/,
    );
    expect(await t.db.select({ id: user.id }).from(user)).toEqual([]);

    await makeClient(s, { email: "resetter@example.com" });
    await requestPasswordReset(s, "resetter@example.com", freshMeta());
    const mail = (await t.db.select().from(mailOutbox)).find((m) => m.subject.startsWith("Reset your password"));
    const token = decodeURIComponent(/reset-password\?token=([^\s"&]+)/.exec(mail!.text)![1]!);
    const weak = await refusalOf(resetPassword(s, { token, password: "abc123" }));
    expect(weak.fieldErrors?.password).toEqual([PASSWORD_MESSAGES.common]);
    // The token was not used up: a good password still works with it.
    await resetPassword(s, { token, password: "a-much-better-one" });
    expect((await signIn(s, { email: "resetter@example.com", password: "a-much-better-one" }, freshMeta())).userId).toBeTruthy();
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
