/**
 * One layout for every mail, in the agency's name (issue #28), on PGlite and PostgreSQL: the
 * password reset, password changed, e-mail change (both mails), verification and contact mails carry
 * the company name from Settings in their subject and heading; the authenticator app's issuer and the
 * passkey's relying-party name are that name as it is when the factor is added. And no module but
 * the notification layout queues a mail by hand.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { mailOutbox } from "#app/db/schema";
import { submitContactMessage } from "#app/features/contact/contact.server";
import { saveSettings } from "#app/features/settings/settings.server";
import { requestPasswordReset } from "#app/features/users/accounts.server";
import { confirmEmailChange, requestEmailChange } from "#app/features/users/account/email-change.server";
import { changePassword } from "#app/features/users/account/password-change.server";
import { passkeyRegistrationOptions } from "#app/features/users/account/passkeys.server";
import { getTwoFactorState, startTwoFactor } from "#app/features/users/account/two-factor.server";
import { PASSWORD, sessionUser, signedIn } from "../../../tests/helpers/auth-session";
import { testDatabases } from "../../../tests/helpers/db";
import { freshMeta, makeClient, useTestServices } from "../../../tests/helpers/services";

const COMPANY = "Acme Studio";

/** Every `.ts`/`.tsx` file under `dir` that is not a test. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

describe("mail layout", () => {
  it("only the notification layout queues mail by hand (enqueueMail)", () => {
    const callers = sources(path.resolve("app"))
      .filter((file) => /\benqueueMail\(/.test(readFileSync(file, "utf8")))
      .map((file) => path.relative(path.resolve("app"), file));
    expect(callers.sort()).toEqual(["features/mail/mail.server.ts", "features/mail/notifications.server.ts"]);
  });
});

describe.each(testDatabases())("the agency's name in mails and factors on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("every account mail is in the branded layout with the company name", async () => {
    const { s, admin } = ctx;
    await saveSettings(
      s.db,
      admin,
      {
        companyName: COMPANY,
        supportEmail: "hello@acme.example",
        defaultTimeline: "",
        allowNewClients: true,
        commissionRateBps: 1500,
        accentColor: "#7a1f5c",
      },
      { cardPayments: false },
    );
    const client = await makeClient(s);
    const actor = await sessionUser(s, client.id);
    await requestPasswordReset(s, client.email, freshMeta());
    await changePassword(s, actor, { currentPassword: PASSWORD, newPassword: "another-pass" }, await signedIn(s, client.email));
    await requestEmailChange(s, actor, { newEmail: "moved@example.com", currentPassword: "another-pass" });
    const [change] = (await s.db.select().from(mailOutbox)).filter((m) => m.to === "moved@example.com");
    await confirmEmailChange(s, /confirm-email\?token=([\w-]+)/.exec(change!.text)![1]!);
    await submitContactMessage(
      s.db,
      { user_name: "Ada", user_email: "ada@example.org", user_phone: "", message: "Hello\nthere" },
      { ownerEmail: "owner@example.com", ip: "203.0.113.9" },
    );
    const mails = await s.db.select().from(mailOutbox);
    const subjects = mails.map((m) => m.subject);
    for (const subject of [
      "Verify your e-mail address",
      "Reset your password",
      "Your password was changed",
      "Confirm your new e-mail address",
      "Your e-mail address was changed",
      "New contact message from Ada",
    ]) {
      expect(subjects).toContain(`${subject} — ${COMPANY}`);
    }
    for (const mail of mails) {
      expect(mail.subject.endsWith(` — ${COMPANY}`)).toBe(true);
      expect(mail.html).toContain("border-top:4px solid #7a1f5c");
      expect(mail.html).toContain(COMPANY);
      expect(mail.text).toContain(`— ${COMPANY}`);
      expect(mail.text).toContain("Questions? Write to hello@acme.example.");
      expect(mail.text).not.toContain("Client Portal");
    }
  });

  it("the authenticator app's issuer and the passkey's relying party are the company name when the factor is added", async () => {
    const { s, admin } = ctx;
    const client = await makeClient(s);
    const actor = await sessionUser(s, client.id);
    const here = await signedIn(s, client.email);
    const rename = (companyName: string) =>
      saveSettings(
        s.db,
        admin,
        { companyName, supportEmail: "", defaultTimeline: "", allowNewClients: true, commissionRateBps: 1500 },
        { cardPayments: false },
      );
    await rename(COMPANY);
    await startTwoFactor(s, actor, PASSWORD, here);
    const uri = new URL((await getTwoFactorState(s, actor)).pending!.uri);
    expect(uri.searchParams.get("issuer")).toBe(COMPANY);
    expect(decodeURIComponent(uri.pathname)).toContain(`${COMPANY}:${client.email}`);
    const options = (await passkeyRegistrationOptions(s, here)).body as { rp: { name: string; id: string } };
    expect(options.rp).toEqual({ name: COMPANY, id: "localhost" });
    await rename("Other Name");
    expect(((await passkeyRegistrationOptions(s, here)).body as { rp: { name: string } }).rp.name).toBe("Other Name");
  });
});
