/**
 * docs/product.md#email-verification on PGlite and the PostgreSQL server: the mail sent at
 * registration (through the outbox), its link, the resend throttle, and the setting that
 * refuses the sign-in of unverified addresses.
 */
import { and, count, eq, like } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mailOutbox, session, user } from "#app/db/schema";
import { saveSettings } from "#app/features/settings/settings.server";
import { testDatabases } from "../../../tests/helpers/db";
import { refusalOf } from "../../../tests/helpers/portal";
import { freshMeta, makeAdmin, makeAmbassador, makeClient, useTestServices, verificationTokenFor } from "../../../tests/helpers/services";
import { AUTH_MESSAGES } from "./accounts.messages";
import { registerClient, signIn } from "./accounts.server";
import { resendVerificationEmail, VERIFY_RATE_LIMITS, verifyEmailAddress } from "./email-verification.server";

describe.each(testDatabases())("e-mail verification on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  const verified = async (email: string) =>
    (await ctx.t.db.select({ v: user.emailVerified }).from(user).where(eq(user.email, email)))[0]!.v;
  const verificationMails = async (email: string) =>
    (
      await ctx.t.db
        .select({ n: count() })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.to, email), like(mailOutbox.subject, "Verify your e-mail address%")))
    )[0]!.n;
  const sessionsOf = async (userId: string) =>
    (await ctx.t.db.select({ n: count() }).from(session).where(eq(session.userId, userId)))[0]!.n;
  const requireVerification = (on: boolean) =>
    saveSettings(
      ctx.t.db,
      ctx.admin,
      {
        companyName: "",
        supportEmail: "",
        defaultTimeline: "",
        allowNewClients: true,
        requireEmailVerification: on,
        commissionRateBps: 1500,
      },
      { cardPayments: false },
    );

  it("mails a link at registration through the outbox; the link verifies once and for all; a forged one does not", async () => {
    const { t, s, admin } = ctx;
    const client = await makeClient(s, { email: "verify-me@example.com" });
    const ambassador = await makeAmbassador(s);
    const [mail] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, client.email));
    expect(mail!.subject).toBe("Verify your e-mail address — Client Portal");
    expect(mail!.text).toMatch(/\{\{origin\}\}\/verify-email\?token=\S+/);
    expect(mail!.html).toContain(`href="{{origin}}/verify-email?token=`);
    expect(await verificationMails(ambassador.email)).toBe(1);
    expect(await verified(client.email)).toBe(false);

    const token = await verificationTokenFor(t.db, client.email);
    expect(await verifyEmailAddress(s, `${token.slice(0, -4)}AAAA`)).toBe(false);
    expect(await verifyEmailAddress(s, "not-a-token")).toBe(false);
    expect(await verified(client.email)).toBe(false);
    expect(await verifyEmailAddress(s, token)).toBe(true);
    expect(await verified(client.email)).toBe(true);
    expect(await verifyEmailAddress(s, token)).toBe(true); // again: nothing changes
    // The admin made by the operator is verified without a mail.
    expect(await verified(admin.email)).toBe(true);
    expect(await verificationMails(admin.email)).toBe(0);
    expect(await verified((await makeAdmin(s)).email)).toBe(true);
  });

  it("resends a link only to an unverified account, answers the same for any address, and throttles per address", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { email: "resend@example.com" });
    await resendVerificationEmail(s, client.email, freshMeta());
    expect(await verificationMails(client.email)).toBe(2);
    await resendVerificationEmail(s, "no-account@example.com", freshMeta());
    expect(await verificationMails("no-account@example.com")).toBe(0);
    for (let i = 1; i < VERIFY_RATE_LIMITS.perAddress.limit; i++) await resendVerificationEmail(s, client.email, freshMeta());
    const before = await verificationMails(client.email);
    expect(before).toBe(1 + VERIFY_RATE_LIMITS.perAddress.limit);
    const throttled = await refusalOf(resendVerificationEmail(s, client.email, freshMeta()));
    expect(throttled).toMatchObject({ status: 429, message: AUTH_MESSAGES.tooManyAttempts });
    expect(await verificationMails(client.email)).toBe(before);
    // Verified: nothing more is sent.
    const other = await makeClient(s, { verified: true });
    await resendVerificationEmail(s, other.email, freshMeta());
    expect(await verificationMails(other.email)).toBe(1);
  });

  it("lets unverified users sign in by default; with the setting on refuses them (no session) until they verify", async () => {
    const { s } = ctx;
    const client = await makeClient(s, { email: "late@example.com" });
    const credentials = { email: client.email, password: "secret-pass" };
    expect((await signIn(s, credentials, freshMeta())).home).toBe("/client-dashboard");

    await requireVerification(true);
    const sessions = await sessionsOf(client.id);
    expect(await refusalOf(signIn(s, credentials, freshMeta()))).toMatchObject({ status: 403, message: AUTH_MESSAGES.verifyBeforeSignIn });
    expect(await sessionsOf(client.id)).toBe(sessions);
    // A wrong password still reads as a wrong password: nothing about verification.
    expect(await refusalOf(signIn(s, { ...credentials, password: "wrong-pass" }, freshMeta()))).toMatchObject({ status: 400 });
    // The admin is verified and signs in.
    expect((await signIn(s, { email: ctx.admin.email, password: "admin-pass" }, freshMeta())).home).toBe("/admin");

    // A new registration is not signed in: it is sent to /login?verify=sent.
    const signedUp = await registerClient(
      s,
      { businessName: "New", email: "new-under-rule@example.com", phone: "301 555 0100", password: "secret-pass" },
      freshMeta(),
    );
    expect(signedUp.home).toBe("/login?verify=sent");
    expect(signedUp.headers.getSetCookie()).toEqual([]);
    expect(await sessionsOf(signedUp.userId)).toBe(0);

    expect(await verifyEmailAddress(s, await verificationTokenFor(s.db, client.email))).toBe(true);
    expect((await signIn(s, credentials, freshMeta())).home).toBe("/client-dashboard");
    await requireVerification(false);
    expect((await signIn(s, { email: "new-under-rule@example.com", password: "secret-pass" }, freshMeta())).userId).toBe(signedUp.userId);
  });
});
