/**
 * The ambassador portal in a real browser: the referral link, a proposal for a
 * new e-mail, that person registering through the link and approving it, and the
 * ambassador seeing the client (the commission ledger itself: commissions.spec.ts).
 */
import {
  ADMIN,
  expect,
  hydrated,
  login,
  logout,
  mailTo,
  registerAmbassador,
  registerClient,
  test,
  uniqueEmail,
  uniqueIp,
  verificationMail,
  verificationPath,
} from "./fixtures";

test.describe("ambassador portal", () => {
  test("proposal for a new e-mail → the client registers through the referral link, approves → the ambassador sees the client and the earning", async ({
    page,
    context,
    sql,
    baseURL,
  }) => {
    test.setTimeout(120_000); // three accounts, a mail round trip and the whole approval flow
    await context.grantPermissions(["clipboard-write"], { origin: baseURL });
    // Our Permissions-Policy forbids clipboard reads; record what the page writes instead.
    await page.addInitScript(() => {
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      navigator.clipboard.writeText = async (text: string) => {
        (window as unknown as { __copied: string }).__copied = text;
        return write(text);
      };
    });
    const ambassador = await registerAmbassador(page, { name: "Ada Ambassador" });
    const link = `${baseURL}/register?ref=${ambassador.referralCode}`;

    // Referral link: selectable text and a Copy button.
    await page.goto("/ambassador/dashboard");
    await hydrated(page);
    await expect(page.getByLabel("Referral link", { exact: true })).toHaveText(link);
    await expect(page.getByText("No one has registered through your link yet.")).toBeVisible();
    await page.getByRole("button", { name: "Copy link" }).click();
    await expect(page.getByRole("button", { name: "Copied" })).toBeVisible();
    expect(await page.evaluate(() => (window as unknown as { __copied: string }).__copied)).toBe(link);
    await expect(page.getByRole("button", { name: "Copy link" })).toBeVisible({ timeout: 5_000 });

    // Submit a proposal for someone without an account.
    const clientEmail = uniqueEmail("prospect");
    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Submit Proposal" }).click();
    await expect(page).toHaveURL(/\/ambassador\/submit-proposal$/);
    await hydrated(page);
    await page.getByRole("button", { name: "Submit proposal" }).click();
    await expect(page.getByText("Client name is required.")).toBeVisible();
    await page.getByLabel("Client name").fill("Prospect Bakery");
    await page.getByLabel("Client email").fill(clientEmail.toUpperCase());
    await page.getByLabel("Project name (optional)").fill("Bakery relaunch");
    await page.getByLabel("Project details").fill("New site with online orders.");
    await page.getByLabel("Budget (optional)").fill("$2,000");
    await page.getByRole("button", { name: "Submit proposal" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Proposal submitted successfully!" })).toBeVisible();
    const shownAt = Date.now();
    await expect(page).toHaveURL(/\/ambassador\/submit-proposal$/);
    // …then the dashboard after 1.5 s.
    await page.waitForURL(/\/ambassador\/dashboard$/, { timeout: 5_000 });
    expect(Date.now() - shownAt).toBeGreaterThan(1_000);

    const { rows } = await sql.query(
      `select p.id, p.status, p.source, p.client_id, p.client_email, p.budget_cents, p.commission_rate_bps, p.client_approved_at
         from proposal p join "user" a on a.id = p.ambassador_id where a.email = $1`,
      [ambassador.email],
    );
    expect(rows).toEqual([
      {
        id: expect.any(Number),
        status: "submitted",
        source: "ambassador",
        client_id: null,
        client_email: clientEmail,
        budget_cents: 200_000,
        commission_rate_bps: null,
        client_approved_at: null,
      },
    ]);
    const proposals = page.getByRole("list", { name: "Your proposals" });
    await expect(proposals.getByRole("listitem").filter({ hasText: "Bakery relaunch" })).toContainText("Awaiting client approval");

    // The mail to the new address: fixed text naming the ambassador, and the link — nothing they typed.
    const invitation = await mailTo(clientEmail, /^A website proposal was prepared for you/);
    expect(invitation.text).toContain(`${baseURL}/register?ref=${ambassador.referralCode}`);
    expect(invitation.text).toContain("one of our ambassadors, prepared a website proposal");
    for (const typed of ["Bakery relaunch", "Prospect Bakery", "online orders", "2,000"]) expect(invitation.text).not.toContain(typed);

    // The prospect opens the link: the referral code is prefilled.
    await logout(page);
    await page.goto(link);
    await expect(page.getByLabel("Referral code (optional)")).toHaveValue(ambassador.referralCode);
    await page.getByLabel("Business name").fill("Prospect Bakery");
    await page.getByLabel("Email").fill(clientEmail);
    await page.getByLabel("Phone").fill("301 555 0199");
    await page.getByLabel("Password").fill("prospect-pass-1");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await hydrated(page);
    await expect(page.getByRole("region", { name: "Your information" })).toContainText("Ada Ambassador");

    // Not verified yet: the banner, and the proposal stays hidden.
    const awaiting = page.getByRole("region", { name: "Proposals awaiting your approval" });
    const banner = page.getByRole("region", { name: "E-mail verification" });
    await expect(banner).toContainText("Verify your e-mail address.");
    await expect(awaiting.getByText("Nothing to approve right now.")).toBeVisible();
    expect((await sql.query(`select client_id from proposal where id = $1`, [rows[0].id])).rows[0].client_id).toBeNull();

    // The link from the verification mail.
    await page.goto(verificationPath(await verificationMail(clientEmail)));
    await page.getByRole("button", { name: `Yes, verify ${clientEmail}` }).click();
    await expect(page.getByRole("status").filter({ hasText: "verified" })).toHaveText("Your e-mail address is verified. Thank you!");
    await page.getByRole("link", { name: "Go to your dashboard" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await hydrated(page);
    await expect(banner).toHaveCount(0);
    const item = awaiting.getByRole("listitem").filter({ hasText: "Bakery relaunch" });
    await expect(item).toContainText("From Ada Ambassador");
    await expect(item).toContainText("$2,000.00");
    // Approval is an acceptance and signature of the offer's version 1 (docs/product.md#accept-and-sign).
    await item.getByRole("link", { name: "Review and accept" }).click();
    await expect(page).toHaveURL(new RegExp(`/proposals/${rows[0].id}/accept$`));
    await hydrated(page);
    await page.getByLabel("Your full name").fill("Prospect Owner");
    await page.getByLabel("I have read and agree to these terms").check();
    await page.getByRole("button", { name: "Accept version 1 and sign" }).click();
    await expect(page.getByRole("status").filter({ hasText: "You accepted version 1." })).toBeVisible();
    await page.goto("/client-dashboard");
    await expect(awaiting.getByText("Nothing to approve right now.")).toBeVisible();
    const approved = await sql.query(`select client_approved_at, client_id from proposal where id = $1`, [rows[0].id]);
    expect(approved.rows[0].client_approved_at).toBeInstanceOf(Date);
    const { rows: clientRows } = await sql.query(`select id, referred_by_id from "user" where email = $1`, [clientEmail]);
    expect(approved.rows[0].client_id).toBe(clientRows[0].id);

    // Approving again (a replayed post) changes nothing.
    const before = approved.rows[0].client_approved_at as Date;
    const replay = await page.request.post("/client-dashboard", { form: { intent: "approve-proposal", id: String(rows[0].id) } });
    expect(replay.status()).toBe(200);
    const after = await sql.query(`select client_approved_at from proposal where id = $1`, [rows[0].id]);
    expect((after.rows[0].client_approved_at as Date).getTime()).toBe(before.getTime());

    // The proposal shows on the client's Project Status as approved; it cannot be edited.
    await page.goto("/project-status");
    const card = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Bakery relaunch" }) });
    await expect(card).toContainText("Approved by client");
    await expect(card.getByRole("link", { name: /Edit/ })).toHaveCount(0);

    // Back to the ambassador: the client and the commission (15 % of $2,000).
    await logout(page);
    await login(page, ambassador.email);
    await page.goto("/ambassador/dashboard");
    await expect(page.getByRole("list", { name: "Referred clients" })).toContainText("Prospect Bakery");
    await expect(
      page.getByRole("list", { name: "Your proposals" }).getByRole("listitem").filter({ hasText: "Bakery relaunch" }),
    ).toContainText("Approved by client");

    await page.getByRole("navigation", { name: "Portal" }).getByRole("link", { name: "Earnings" }).click();
    await expect(page).toHaveURL(/\/ambassador\/earnings$/);
    // Approval freezes the rate; the commission is earned on payments only (tests/e2e/commissions.spec.ts).
    expect((await sql.query(`select commission_rate_bps from proposal where id = $1`, [rows[0].id])).rows[0].commission_rate_bps).toBe(
      1500,
    );
    await expect(page.getByTestId("commission-pending")).toHaveText("$0.00");
    await expect(page.getByTestId("commission-payable")).toHaveText("$0.00");
    await expect(page.getByTestId("commission-paid-out")).toHaveText("$0.00");
    await expect(page.getByText("No commissions yet.")).toBeVisible();
  });

  test("a proposal for a client the ambassador referred goes to them at once (seen once verified); any other address gets the same answer, account or not", async ({
    page,
    sql,
    browser,
  }) => {
    test.setTimeout(120_000); // four accounts and five submissions through the real form
    const clientContext = await browser.newContext({
      baseURL: process.env.E2E_BASE_URL,
      extraHTTPHeaders: { "x-forwarded-for": uniqueIp() },
    });
    const clientPage = await clientContext.newPage();
    try {
      const ambassador = await registerAmbassador(page);
      const direct = await registerClient(clientPage, { businessName: "Direct Co" });
      await clientContext.clearCookies();
      const otherAmbassador = await registerAmbassador(clientPage);
      await clientContext.clearCookies();
      const referred = await registerClient(clientPage, { businessName: "Existing Co", referralCode: ambassador.referralCode });
      await clientPage.goto(verificationPath(await verificationMail(referred.email)));
      await clientPage.getByRole("button", { name: `Yes, verify ${referred.email}` }).click();
      await expect(clientPage.getByRole("status").filter({ hasText: "verified" })).toBeVisible();

      // Every other address — with an account or not — gets the same answer (issue #36: no oracle of who has
      // an account); the proposal waits unattached and none of these account holders is mailed about it.
      for (const email of [direct.email, otherAmbassador.email, ADMIN.email, ambassador.email, uniqueEmail("nobody")]) {
        await page.goto("/ambassador/submit-proposal");
        await hydrated(page);
        await page.getByLabel("Client name").fill("Someone");
        await page.getByLabel("Client email").fill(email);
        await page.getByLabel("Project details").fill("Waits for its client.");
        await page.getByRole("button", { name: "Submit proposal" }).click();
        await expect(page.getByRole("status").filter({ hasText: "Proposal submitted successfully!" }), email).toBeVisible();
      }
      await page.goto("/ambassador/submit-proposal");
      await hydrated(page);
      const stored = await sql.query(
        `select count(*)::int as n, count(client_id)::int as attached from proposal where project_details = 'Waits for its client.'`,
      );
      expect(stored.rows[0]).toEqual({ n: 5, attached: 0 });

      await page.getByLabel("Client name").fill("Existing Co");
      await page.getByLabel("Client email").fill(referred.email);
      await page.getByLabel("Project details").fill("A refresh.");
      await page.getByRole("button", { name: "Submit proposal" }).click();
      await expect(page.getByRole("status").filter({ hasText: "Proposal submitted successfully!" })).toBeVisible();
      const { rows } = await sql.query(
        `select p.client_id = u.id as linked from proposal p join "user" u on u.email = p.client_email where p.client_email = $1`,
        [referred.email],
      );
      expect(rows).toEqual([{ linked: true }]);
      await clientPage.goto("/client-dashboard");
      await expect(clientPage.getByRole("region", { name: "Proposals awaiting your approval" })).toContainText("A refresh.");
    } finally {
      await clientContext.close();
    }
  });

  test('refuses a proposal when the ambassador has no referral code: "Your referral link ID is missing."', async ({ page, sql }) => {
    const ambassador = await registerAmbassador(page);
    await sql.query(`update "user" set referral_code = null where email = $1`, [ambassador.email]);
    await page.goto("/ambassador/dashboard");
    await expect(page.getByRole("alert")).toHaveText("Your referral link ID is missing.");
    await page.goto("/ambassador/submit-proposal");
    await hydrated(page);
    await page.getByLabel("Client name").fill("Nobody");
    await page.getByLabel("Client email").fill(uniqueEmail("nobody"));
    await page.getByLabel("Project details").fill("Should not be stored.");
    await page.getByRole("button", { name: "Submit proposal" }).click();
    await expect(page.getByRole("alert")).toHaveText("Your referral link ID is missing.");
    const { rows } = await sql.query(`select count(*)::int as n from proposal where project_details = 'Should not be stored.'`);
    expect(rows[0].n).toBe(0);
  });

  test("clients cannot use the ambassador pages, nor ambassadors the client pages", async ({ page }) => {
    await registerAmbassador(page);
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/ambassador\/dashboard$/);
    const post = await page.request.post("/proposal-request", { form: { projectDetails: "x" }, maxRedirects: 0 });
    expect(post.status()).toBe(302);
    expect(post.headers().location).toBe("/ambassador/dashboard");
  });
});

test.describe("ambassador portal on a 360 px wide screen", () => {
  test.use({ viewport: { width: 360, height: 740 } });

  test("no page scrolls sideways", async ({ page }) => {
    await registerAmbassador(page, { referralCode: `a-rather-long-referral-link-id-${Date.now()}` });
    await page.request.post("/ambassador/submit-proposal", {
      form: {
        clientName: "Averyveryverylongclientnamewithoutspaces",
        clientEmail: uniqueEmail("a-very-long-mailbox-name-for-layout"),
        projectName: "Averyveryverylongprojectnamewithoutanyspaces",
        projectDetails: "x",
      },
    });
    for (const path of ["/ambassador/dashboard", "/ambassador/submit-proposal", "/ambassador/earnings", "/ambassador/payouts"]) {
      await page.goto(path);
      expect(await page.evaluate(() => document.documentElement.scrollWidth), path).toBeLessThanOrEqual(360);
    }
  });
});

test.describe("ambassador portal without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("submitting a proposal redirects to the dashboard, which shows the success message", async ({ page, sql }) => {
    const ambassador = await registerAmbassador(page);
    await page.goto("/ambassador/dashboard");
    await expect(page.getByLabel("Referral link", { exact: true })).toContainText(`/register?ref=${ambassador.referralCode}`);
    await expect(page.getByRole("button", { name: "Copy link" })).toHaveCount(0);

    const clientEmail = uniqueEmail("nojs");
    await page.goto("/ambassador/submit-proposal");
    await page.getByLabel("Client name").fill("No Script Ltd");
    await page.getByLabel("Client email").fill(clientEmail);
    await page.getByLabel("Project details").fill("Plain HTML forms.");
    await page.getByLabel("Budget (optional)").fill("750.25");
    await page.getByRole("button", { name: "Submit proposal" }).click();
    await expect(page).toHaveURL(/\/ambassador\/dashboard\?submitted=1$/);
    await expect(page.getByRole("status").filter({ hasText: "Proposal submitted successfully!" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Your proposals" })).toContainText("No Script Ltd");
    const { rows } = await sql.query(`select budget_cents, status from proposal where client_email = $1`, [clientEmail]);
    expect(rows).toEqual([{ budget_cents: 75_025, status: "submitted" }]);
  });

  test("shows the server's field errors", async ({ page }) => {
    await registerAmbassador(page);
    await page.goto("/ambassador/submit-proposal");
    // Without JavaScript the browser checks the fields' constraints itself (in its own words):
    // the empty required field stops the post …
    await page.getByRole("button", { name: "Submit proposal" }).click();
    await expect(page).toHaveURL(/\/ambassador\/submit-proposal$/);
    expect(await page.getByLabel("Client name").evaluate((input: HTMLInputElement) => input.validity.valueMissing)).toBe(true);
    // … and past it (as an old browser would post), the server answers with its messages next to the fields.
    await page
      .locator("form")
      .filter({ has: page.getByLabel("Client name") })
      .evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await page.getByLabel("Client email").fill("not-an-email");
    await page.getByLabel("Budget (optional)").fill("lots");
    await page.getByRole("button", { name: "Submit proposal" }).click();
    await expect(page.getByText("Client name is required.")).toBeVisible();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(page.getByText("Project details is required.")).toBeVisible();
    await expect(page.getByText("Enter an amount like 5000 or $5,000.50")).toBeVisible();
  });
});
