/**
 * docs/product.md#email-verification in a real browser against the built app: the portal
 * banner, "Resend link" as a plain form post (no JavaScript), and the link of the mail the real
 * SMTP server received.
 */
import { addressesOf, expect, registerAmbassador, registerClient, test, waitForMail } from "./fixtures";

/** The verification mails the SMTP server received for `email`, newest last. */
async function verificationMail(email: string, except?: string) {
  return waitForMail(
    (m) =>
      addressesOf(m.to).includes(email) &&
      (m.subject ?? "").startsWith("Verify your e-mail address") &&
      (except === undefined || !(m.text ?? "").includes(except)),
  );
}

const linkOf = (text: string | undefined) => /(\/verify-email\?token=[^\s]+)/.exec(text ?? "")![1]!;

test.describe("e-mail verification without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the banner's Resend link mails a new link; opening it verifies the address and the banner goes", async ({ page, sql, baseURL }) => {
    const client = await registerClient(page);
    const first = await verificationMail(client.email);
    expect(first.text).toContain(`${baseURL}/verify-email?token=`);

    await page.goto("/client-dashboard");
    const banner = page.getByRole("region", { name: "E-mail verification" });
    await expect(banner).toContainText(`Verify your e-mail address. We sent a link to ${client.email}.`);
    await banner.getByRole("button", { name: "Resend link" }).click();
    await expect(page).toHaveURL(/\/verify-email$/);
    await expect(page.getByRole("status").filter({ hasText: "new verification link" })).toHaveText(
      `We e-mailed a new verification link to ${client.email}, unless it is verified already.`,
    );
    const second = await verificationMail(client.email, linkOf(first.text));
    expect((await sql.query(`select email_verified from "user" where email = $1`, [client.email])).rows[0].email_verified).toBe(false);

    await page.goto(linkOf(second.text));
    await expect(page.getByRole("status").filter({ hasText: "verified" })).toHaveText("Your e-mail address is verified. Thank you!");
    expect((await sql.query(`select email_verified from "user" where email = $1`, [client.email])).rows[0].email_verified).toBe(true);
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await expect(banner).toHaveCount(0);

    // A tampered link is refused and offers a new one.
    await page.goto(`${linkOf(second.text).slice(0, -3)}xyz`);
    await expect(page.getByRole("alert")).toHaveText("This verification link is invalid or has expired. Sign in and ask for a new one.");
    await expect(page.getByRole("button", { name: "Send a new link" })).toBeVisible();
  });

  test("ambassadors see the banner too", async ({ page }) => {
    await registerAmbassador(page);
    await page.goto("/ambassador/dashboard");
    await expect(page.getByRole("region", { name: "E-mail verification" }).getByRole("button", { name: "Resend link" })).toBeVisible();
  });
});

test.describe("e-mail verification banner on a 390 px wide screen", () => {
  test.use({ viewport: { width: 390, height: 800 } });

  test("does not scroll sideways", async ({ page }) => {
    await registerClient(page, { email: `a-rather-long-mailbox-name-${Date.now()}@example.com` });
    await page.goto("/client-dashboard");
    await expect(page.getByRole("region", { name: "E-mail verification" })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await page.screenshot({ path: "test-results/verify-banner-390.png", fullPage: false });
  });
});
