/**
 * Account page rules (docs/product.md#account-page) on PGlite and PostgreSQL: which sessions
 * end on a password change, a password reset, "Sign out" and "Sign out everywhere else";
 * two-factor sign-in (codes once only, backup codes once, wrong codes counted); e-mail change.
 */
import { and, eq } from "drizzle-orm";
import * as OTPAuth from "otpauth";
import { describe, expect, it } from "vitest";
import { mailOutbox, session, verification } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import { testDatabases } from "../../../../tests/helpers/db";
import { browser, cookiesOf, isSignedIn, PASSWORD, sessionUser, signedIn } from "../../../../tests/helpers/auth-session";
import { refusalOf } from "../../../../tests/helpers/portal";
import { freshMeta, makeAmbassador, makeClient, useTestServices } from "../../../../tests/helpers/services";
import { requestPasswordReset, resetPassword, signIn } from "../accounts.server";
import { confirmEmailChange, requestEmailChange } from "./email-change.server";
import { changePassword } from "./password-change.server";
import { updateProfile } from "./profile.server";
import { currentSessionId, listSessions, revokeOtherSessions, revokeSession } from "./sessions.server";
import { verifySignInCode } from "./two-factor-sign-in.server";
import { confirmTwoFactor, disableTwoFactor, getTwoFactorState, startTwoFactor } from "./two-factor.server";

describe.each(testDatabases())("account page on %s", (_name, open) => {
  const ctx = useTestServices(open);

  it("a password change needs the current password, ends every other session and sends a notice", async () => {
    const { s, t } = ctx;
    const client = await makeClient(s);
    const actor = await sessionUser(s, client.id);
    const here = await signedIn(s, client.email);
    const other = await signedIn(s, client.email);
    const third = await signedIn(s, client.email);

    const wrong = await refusalOf(changePassword(s, actor, { currentPassword: "nope-nope", newPassword: "brand-new-pass" }, here));
    expect(wrong.fieldErrors).toEqual({ currentPassword: ["Wrong password."] });
    expect(await isSignedIn(s, other)).toBe(true);

    const headers = await changePassword(s, actor, { currentPassword: PASSWORD, newPassword: "brand-new-pass" }, here);
    const renewed = browser(cookiesOf(headers, here.headers.get("cookie")!));
    expect(await isSignedIn(s, renewed)).toBe(true);
    expect(await isSignedIn(s, other)).toBe(false);
    expect(await isSignedIn(s, third)).toBe(false);
    expect(await t.db.select().from(session).where(eq(session.userId, client.id))).toHaveLength(1);

    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email));
    expect(mails.map((m) => m.subject)).toContain("Your password was changed — Client Portal");
    await expect(signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).rejects.toThrow(AppError);
    await signIn(s, { email: client.email, password: "brand-new-pass" }, freshMeta());
  });

  it("a password reset ends every session", async () => {
    const { s, t } = ctx;
    const client = await makeClient(s);
    const one = await signedIn(s, client.email);
    const two = await signedIn(s, client.email);
    await requestPasswordReset(s, client.email, freshMeta());
    const [row] = await t.db.select().from(verification);
    const token = row!.identifier.replace(/^reset-password:/, "");
    await resetPassword(s, { token, password: "brand-new-pass" });
    expect(await isSignedIn(s, one)).toBe(false);
    expect(await isSignedIn(s, two)).toBe(false);
    expect(await t.db.select().from(session).where(eq(session.userId, client.id))).toHaveLength(0);
  });

  it("sign out one session: only the user's own, never the current one; everywhere else keeps this one", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const stranger = await makeAmbassador(s);
    const actor = await sessionUser(s, client.id);
    const here = await signedIn(s, client.email);
    const laptop = await signedIn(s, client.email);
    const phone = await signedIn(s, client.email);
    const strangers = await signedIn(s, stranger.email);
    const hereId = await currentSessionId(s, here);
    const laptopId = await currentSessionId(s, laptop);
    const strangerId = await currentSessionId(s, strangers);

    const list = await listSessions(s.db, actor, hereId);
    expect(list).toHaveLength(4); // the registration's session too
    expect(list.filter((row) => row.current).map((row) => row.id)).toEqual([hereId]);
    expect(list.find((row) => row.id === hereId)?.device).toBe("Chrome on Linux");

    expect((await refusalOf(revokeSession(s, actor, strangerId!, hereId, here))).code).toBe("NOT_FOUND");
    expect(await isSignedIn(s, strangers)).toBe(true);
    expect((await refusalOf(revokeSession(s, actor, hereId!, hereId, here))).code).toBe("CONFLICT");

    await revokeSession(s, actor, laptopId!, hereId, here);
    expect(await isSignedIn(s, laptop)).toBe(false);
    expect(await isSignedIn(s, phone)).toBe(true);
    expect(await isSignedIn(s, here)).toBe(true);

    await revokeOtherSessions(s, here);
    expect(await isSignedIn(s, phone)).toBe(false);
    expect(await isSignedIn(s, here)).toBe(true);
    expect(await isSignedIn(s, strangers)).toBe(true);
    expect((await listSessions(s.db, actor, hereId)).map((row) => row.id)).toEqual([hereId]);
  });

  it("two-factor: setup needs the password and a code; sign-in then needs a code, each code and backup code once; off with password + code", async () => {
    const { s, t } = ctx;
    const client = await makeClient(s);
    const actor = await sessionUser(s, client.id);
    let here = await signedIn(s, client.email);

    expect((await refusalOf(startTwoFactor(s, actor, "wrong-pass", here))).fieldErrors).toEqual({ password: ["Wrong password."] });
    await startTwoFactor(s, actor, PASSWORD, here);
    const state = await getTwoFactorState(s, actor);
    expect(state.enabled).toBe(false);
    expect(state.pending?.backupCodes).toHaveLength(10);
    expect(state.pending?.qrSvg).toMatch(/^<svg/);
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(state.pending!.secret), digits: 6, period: 30 });
    const backupCodes = state.pending!.backupCodes;

    expect((await refusalOf(confirmTwoFactor(s, actor, totp.generate() === "000000" ? "111111" : "000000", here))).code).toBe(
      "INVALID_INPUT",
    );
    here = browser(cookiesOf(await confirmTwoFactor(s, actor, totp.generate(), here), here.headers.get("cookie")!));
    expect((await getTwoFactorState(s, actor)).enabled).toBe(true);
    expect(await isSignedIn(s, here)).toBe(true);

    // Sign-in: the password alone makes no session.
    const before = (await t.db.select().from(session).where(eq(session.userId, client.id))).length;
    const first = await signIn(s, { email: client.email, password: PASSWORD }, freshMeta());
    expect(first.twoFactor).toBe(true);
    expect((await t.db.select().from(session).where(eq(session.userId, client.id))).length).toBe(before);
    const pending = browser(cookiesOf(first.headers));
    const wrongCode = totp.generate({ timestamp: Date.now() + 5 * 60_000 });
    expect((await refusalOf(verifySignInCode(s, { code: wrongCode }, pending))).fieldErrors).toEqual({
      code: ["That code is not valid. Try again."],
    });
    const nextCode = totp.generate({ timestamp: Date.now() + 30_000 });
    const done = await verifySignInCode(s, { code: nextCode }, pending);
    expect(done.home).toBe("/client-dashboard");
    expect(await isSignedIn(s, browser(cookiesOf(done.headers)))).toBe(true);

    // The same code again, on a new sign-in: refused.
    const again = browser(cookiesOf((await signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).headers));
    const replay = await refusalOf(verifySignInCode(s, { code: nextCode }, again));
    expect(replay.message).toMatch(/already been used/);

    // A backup code works once.
    const viaBackup = browser(cookiesOf((await signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).headers));
    await verifySignInCode(s, { code: backupCodes[0]! }, viaBackup);
    const backupAgain = browser(cookiesOf((await signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).headers));
    expect((await refusalOf(verifySignInCode(s, { code: backupCodes[0]! }, backupAgain))).code).toBe("INVALID_INPUT");

    // Turning it off needs the password and a code.
    const offWrong = await refusalOf(disableTwoFactor(s, actor, { password: "wrong-pass", code: backupCodes[1]! }, here));
    expect(offWrong.fieldErrors).toEqual({ password: ["Wrong password."] });
    const offBadCode = await refusalOf(disableTwoFactor(s, actor, { password: PASSWORD, code: "zzzzz-zzzzz" }, here));
    expect(offBadCode.fieldErrors).toEqual({ code: ["That code is not valid. Try again."] });
    await disableTwoFactor(s, actor, { password: PASSWORD, code: backupCodes[1]! }, here);
    expect((await getTwoFactorState(s, actor)).enabled).toBe(false);
    expect((await signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).twoFactor).toBeUndefined();
  });

  it("two-factor: 5 wrong codes make the account wait, even with the right code", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const actor = await sessionUser(s, client.id);
    const here = await signedIn(s, client.email);
    await startTwoFactor(s, actor, PASSWORD, here);
    const secret = (await getTwoFactorState(s, actor)).pending!.secret;
    const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30 });
    await confirmTwoFactor(s, actor, totp.generate(), here);

    const pending = browser(cookiesOf((await signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).headers));
    const wrong = totp.generate({ timestamp: Date.now() + 10 * 60_000 });
    for (let i = 0; i < 5; i++) expect((await refusalOf(verifySignInCode(s, { code: wrong }, pending))).code).toBe("INVALID_INPUT");
    const fresh = browser(cookiesOf((await signIn(s, { email: client.email, password: PASSWORD }, freshMeta())).headers));
    const locked = await refusalOf(verifySignInCode(s, { code: totp.generate({ timestamp: Date.now() + 30_000 }) }, fresh));
    expect(locked.code).toBe("RATE_LIMITED");
  });

  it("e-mail change: unique, applied from the link once, the old address told", async () => {
    const { s, t } = ctx;
    const client = await makeClient(s);
    const other = await makeClient(s);
    const actor = await sessionUser(s, client.id);
    const deps = s;

    const taken = await refusalOf(requestEmailChange(deps, actor, { newEmail: other.email, currentPassword: PASSWORD }));
    expect(taken.code).toBe("CONFLICT");
    expect(taken.fieldErrors).toEqual({ newEmail: ["An account with this e-mail already exists."] });
    const badPassword = await refusalOf(requestEmailChange(deps, actor, { newEmail: "new@example.com", currentPassword: "nope-nope" }));
    expect(badPassword.fieldErrors).toEqual({ currentPassword: ["Wrong password."] });

    // A second request replaces the first link.
    await requestEmailChange(deps, actor, { newEmail: "first@example.com", currentPassword: PASSWORD });
    const [firstMail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "first@example.com"));
    const firstToken = /confirm-email\?token=([\w-]+)/.exec(firstMail!.text)![1]!;
    await requestEmailChange(deps, actor, { newEmail: "New@Example.com", currentPassword: PASSWORD });
    expect((await refusalOf(confirmEmailChange(s, firstToken))).code).toBe("INVALID_INPUT");
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "new@example.com"));
    const token = /confirm-email\?token=([\w-]+)/.exec(mail!.text)![1]!;
    expect((await sessionUser(s, client.id)).email).toBe(client.email);

    expect(await confirmEmailChange(s, token)).toBe("new@example.com");
    expect((await sessionUser(s, client.id)).email).toBe("new@example.com");
    const notices = await t.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, client.email), eq(mailOutbox.subject, "Your e-mail address was changed — Client Portal")));
    expect(notices).toHaveLength(1);
    expect((await refusalOf(confirmEmailChange(s, token))).code).toBe("INVALID_INPUT");
    await signIn(s, { email: "new@example.com", password: PASSWORD }, freshMeta());
  });

  it("profile: each role edits only its own fields", async () => {
    const { s } = ctx;
    const client = await makeClient(s);
    const amb = await makeAmbassador(s);
    await updateProfile(s.db, await sessionUser(s, client.id), { businessName: "New Name Co", phone: "+1 202 555 0100", website: null });
    expect(await sessionUser(s, client.id)).toMatchObject({ businessName: "New Name Co", name: "New Name Co", phone: "+1 202 555 0100" });
    await updateProfile(s.db, await sessionUser(s, amb.id), { name: "Ann B.", phone: "301 555 0199" });
    expect(await sessionUser(s, amb.id)).toMatchObject({ name: "Ann B.", phone: "301 555 0199", referralCode: amb.referralCode });
  });
});
