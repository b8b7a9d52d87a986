import {
  ADMIN,
  PASSWORD,
  SERVER_ANSWER,
  expect,
  fillFields,
  hydrated,
  login,
  loginAsAdmin,
  mailTo,
  registerAmbassador,
  registerClient,
  test,
  uniqueEmail,
  uniqueIp,
} from "./fixtures";

const portalNav = (page: import("@playwright/test").Page) => page.getByRole("navigation", { name: "Portal" });

test.describe("client registration", () => {
  test("a new client registers, lands on the dashboard with the client header, and can log out", async ({ page, sql }) => {
    const email = uniqueEmail("ui-client");
    await page.goto("/register");
    await expect(portalNav(page).getByRole("link")).toHaveText(["Login", "Register", "Become an Ambassador"]);
    await fillFields(page, {
      "Business name": "Sunrise Yoga",
      Email: email,
      "Phone (optional)": "301 555 0111",
      Password: PASSWORD,
      "Website (optional)": "https://sunrise.example",
    });
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await expect(portalNav(page).getByRole("link")).toHaveText([
      "Dashboard",
      "Project Status",
      "Proposal Request",
      "Invoices",
      "Meetings",
      "Messages",
      // The organisation's people and details (issue #38).
      "Organisation",
    ]);
    await expect(portalNav(page).getByRole("link", { name: "Dashboard" })).toHaveAttribute("href", "/client-dashboard");

    const { rows } = await sql.query(
      `select role, business_name, phone, website, referred_by_id, last_login_at from "user" where email = $1`,
      [email],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      role: "client",
      business_name: "Sunrise Yoga",
      phone: "301 555 0111",
      website: "https://sunrise.example",
      referred_by_id: null,
    });
    expect(rows[0].last_login_at).not.toBeNull();

    await portalNav(page).getByRole("button", { name: "Logout" }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fclient-dashboard$/);
  });

  test("?ref= prefills the referral code and links the client to the ambassador (any case)", async ({ page, browser, baseURL, sql }) => {
    const ambContext = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": "203.0.113.201" } });
    const ambassador = await registerAmbassador(await ambContext.newPage());
    await ambContext.close();

    await page.goto(`/register?ref=${ambassador.referralCode.toUpperCase()}`);
    await expect(page.getByLabel("Referral code (optional)")).toHaveValue(ambassador.referralCode.toUpperCase());
    const email = uniqueEmail("referred");
    await fillFields(page, { "Business name": "Referred Co", Email: email, "Phone (optional)": "301 555 0112", Password: PASSWORD });
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
    const { rows } = await sql.query(
      `select a.email as ambassador from "user" c join "user" a on a.id = c.referred_by_id where c.email = $1`,
      [email],
    );
    expect(rows).toEqual([{ ambassador: ambassador.email }]);
  });

  test('an unknown referral code shows "Invalid referral code" next to the field and creates no account', async ({ page, sql }) => {
    const email = uniqueEmail("badref");
    await page.goto("/register?ref=no-such-ambassador");
    await fillFields(page, { "Business name": "Nope Ltd", Email: email, "Phone (optional)": "301 555 0113", Password: PASSWORD });
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.locator("#register-referralCode-error")).toHaveText("Invalid referral code");
    await expect(page.getByLabel("Referral code (optional)")).toHaveAttribute("aria-invalid", "true");
    const { rows } = await sql.query(`select count(*)::int as n from "user" where email = $1`, [email]);
    expect(rows[0].n).toBe(0);
  });

  test("an e-mail already in use, a short, blank or common password get human messages next to the field", async ({ page }) => {
    const existing = await registerClient(page);
    await page.context().clearCookies();
    await page.goto("/register");
    await hydrated(page);
    await fillFields(page, { "Business name": "Again", Email: existing.email, "Phone (optional)": "301 555 0114", Password: "123" });
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.getByText("Password must be at least 6 characters.")).toBeVisible();
    // Whitespace only (checked in the browser too), then a common password (checked by the server).
    await page.getByLabel("Password").fill("       ");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.locator("#register-password-error")).toHaveText("Password cannot be only spaces.");
    await page.getByLabel("Password").fill("Password1");
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.locator("#register-password-error")).toHaveText(/one of the most common passwords/);
    await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Register" }).click();
    await expect(page.locator("#register-email-error")).toHaveText(/An account with this email already exists/);
  });
});

test.describe("ambassador sign-up", () => {
  test("shows each of the three referral link messages and stores the ID lowercased", async ({ page, browser, baseURL, sql }) => {
    const otherContext = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": "203.0.113.202" } });
    const taken = await registerAmbassador(await otherContext.newPage());
    await otherContext.close();

    const email = uniqueEmail("amb-ui");
    await page.goto("/register/ambassador");
    await hydrated(page);
    await fillFields(page, { Name: "Rae Ferral", Email: email, Phone: "301 555 0120", Password: PASSWORD });
    const field = page.getByLabel("Referral link ID");
    const error = page.locator("#register-ambassador-referralCode-error");

    await field.fill("   ");
    await page.getByRole("button", { name: "Sign up" }).click();
    await expect(error).toHaveText("Referral link ID is required.");

    await field.fill("my link!");
    await expect(error).toHaveText("Referral link can only contain letters, numbers, hyphens, and underscores.");

    await field.fill(taken.referralCode.toUpperCase());
    await page.getByRole("button", { name: "Sign up" }).click();
    await expect(error).toHaveText("That referral link ID is already taken. Please choose another.");

    const code = `Mixed_Case-${Date.now()}`;
    await field.fill(code);
    await page.getByRole("button", { name: "Sign up" }).click();
    await expect(page).toHaveURL(/\/ambassador\/dashboard$/);
    await expect(portalNav(page).getByRole("link")).toHaveText(["Dashboard", "Submit Proposal", "Earnings", "Payouts"]);
    const { rows } = await sql.query(`select role, referral_code from "user" where email = $1`, [email]);
    expect(rows).toEqual([{ role: "ambassador", referral_code: code.toLowerCase() }]);
  });

  test("the server gives the same messages without JavaScript", async ({ browser, baseURL }) => {
    const context = await browser.newContext({
      baseURL,
      javaScriptEnabled: false,
      extraHTTPHeaders: { "x-forwarded-for": "203.0.113.203" },
    });
    const page = await context.newPage();
    await page.goto("/register/ambassador");
    await page.locator("form#register-ambassador").evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await fillFields(page, {
      Name: "No Script",
      Email: uniqueEmail("nojs"),
      Phone: "301 555 0121",
      Password: PASSWORD,
      "Referral link ID": "bad id",
    });
    await page.getByRole("button", { name: "Sign up" }).click();
    await expect(page.getByText("Referral link can only contain letters, numbers, hyphens, and underscores.")).toBeVisible();
    await context.close();
  });
});

test.describe("sign-in", () => {
  test("redirects each role to its home, and back to a safe redirectTo", async ({ page, browser, baseURL }) => {
    const client = await registerClient(page);
    await page.context().clearCookies();
    const ambassadorContext = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": "203.0.113.204" } });
    const ambassador = await registerAmbassador(await ambassadorContext.newPage());
    await ambassadorContext.close();

    for (const [email, password, home] of [
      [client.email, PASSWORD, "/client-dashboard"],
      [ambassador.email, PASSWORD, "/ambassador/dashboard"],
      [ADMIN.email, ADMIN.password, "/admin"],
    ] as const) {
      await page.goto("/login");
      await fillFields(page, { Email: email, Password: password });
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page).toHaveURL(new RegExp(`${home.replace(/\//g, "\\/")}$`));
      // A signed-in user visiting /login or /register goes to their dashboard.
      await page.goto("/login");
      await expect(page).toHaveURL(new RegExp(`${home.replace(/\//g, "\\/")}$`));
      await page.goto("/register");
      await expect(page).toHaveURL(new RegExp(`${home.replace(/\//g, "\\/")}$`));
      await page.context().clearCookies();
    }

    await page.goto("/project-status");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fproject-status$/);
    await fillFields(page, { Email: client.email, Password: PASSWORD });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/project-status$/);
    await page.context().clearCookies();

    // An off-site redirectTo is ignored.
    await page.goto("/login?redirectTo=//evil.example/steal");
    await fillFields(page, { Email: client.email, Password: PASSWORD });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
  });

  test("the admin sidebar: Dashboard goes to /admin", async ({ page }) => {
    await loginAsAdmin(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto("/admin");
    // Grouped by job (issue #41): Work, Money, People, Site, System.
    await expect(portalNav(page).getByRole("link")).toHaveText([
      "Dashboard",
      "Proposals",
      // With an unread-count badge when clients wrote (other tests share the database).
      /^Messages(\d+\+? unread)?$/,
      "Meetings",
      "Invoices",
      "Billing plans",
      "Card payments",
      "Commissions",
      "Organisations",
      "Users",
      "Contact form",
      "Case studies",
      "Testimonials",
      "Settings",
      "Audit trail",
      "Mail outbox",
    ]);
    await expect(portalNav(page).getByRole("link", { name: "Dashboard", exact: true })).toHaveAttribute("href", "/admin");
    await expect(portalNav(page).getByRole("button", { name: "Logout" })).toBeVisible();
  });

  test("wrong credentials get a human sentence; an address that keeps failing is slowed down, the owner elsewhere gets in", async ({
    page,
    browser,
    baseURL,
    sql,
  }) => {
    const client = await registerClient(page);
    await page.context().clearCookies();
    await page.goto("/login");
    await fillFields(page, { Email: client.email, Password: "wrong-password" });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Wrong email or password.");
    // This address keeps guessing: after 5 failures on the account it must wait between tries.
    let refused: import("@playwright/test").APIResponse | undefined;
    for (let i = 0; i < 12 && !refused; i++) {
      const response = await page.request.post("/login", { form: { email: client.email, password: `wrong-${i}` }, maxRedirects: 0 });
      if (response.status() === 429) refused = response;
      else expect(response.status()).toBe(400);
    }
    expect(refused?.status()).toBe(429);
    expect(Number(refused!.headers()["retry-after"])).toBeGreaterThan(0);
    // The attack goes on from elsewhere (20 failures on the account, the last just now: a 60 s
    // wait), so that the refusal below does not depend on how fast this machine runs the test.
    await sql.query(`update rate_window set count = 20, last_hit_at = now() where key = $1`, [`signin-fail-account:${client.email}`]);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText("Too many attempts. Please wait a few minutes and try again.");
    // The owner, from an address with no failures, signs in at once.
    const owner = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    const ownerPage = await owner.newPage();
    await ownerPage.goto("/login");
    await fillFields(ownerPage, { Email: client.email, Password: PASSWORD });
    await ownerPage.getByRole("button", { name: "Sign in" }).click();
    await expect(ownerPage).toHaveURL(/\/client-dashboard$/);
    await owner.close();
  });

  test("a hostile redirectTo never leads off the site, through the form or a tampered hidden field", async ({ page }) => {
    test.slow(); // 18 sign-ins
    const client = await registerClient(page);
    await page.context().clearCookies();
    const offSite: string[] = [];
    await page.route(
      (url) => url.hostname.endsWith("evil.example"),
      (route) => {
        offSite.push(route.request().url());
        return route.fulfill({ contentType: "text/html", body: "<h1>evil</h1>" });
      },
    );
    const hostile = [
      "/..//evil.example/steal",
      "/\\evil.example",
      "/%2F%2Fevil.example",
      "/%2e%2e//evil.example",
      "//evil.example",
      "https://evil.example/",
    ];
    for (const redirectTo of hostile) {
      await page.goto(`/login?redirectTo=${encodeURIComponent(redirectTo)}`);
      await expect(page.locator('input[name="redirectTo"]')).toHaveValue("");
      await fillFields(page, { Email: client.email, Password: PASSWORD });
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page, redirectTo).toHaveURL(/\/client-dashboard$/, SERVER_ANSWER);
      await page.context().clearCookies();
    }
    // A tampered hidden field is checked again by the action (with and without JavaScript).
    for (const redirectTo of hostile) {
      await page.goto("/login");
      await hydrated(page);
      await page.locator('input[name="redirectTo"]').evaluate((input, value) => ((input as HTMLInputElement).value = value), redirectTo);
      await fillFields(page, { Email: client.email, Password: PASSWORD });
      await page.getByRole("button", { name: "Sign in" }).click();
      await expect(page, redirectTo).toHaveURL(/\/client-dashboard$/, SERVER_ANSWER);
      await page.context().clearCookies();
      const response = await page.request.post("/login", {
        form: { email: client.email, password: PASSWORD, redirectTo },
        maxRedirects: 0,
      });
      expect(response.status()).toBe(302);
      expect(response.headers().location, redirectTo).toBe("/client-dashboard");
      await page.context().clearCookies();
    }
    expect(offSite).toEqual([]);
    // A same-site path with dot segments is followed, normalised.
    await page.goto(`/login?redirectTo=${encodeURIComponent("/client/../project-status")}`);
    await fillFields(page, { Email: client.email, Password: PASSWORD });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/project-status$/, SERVER_ANSWER);
  });

  test("a deactivated user is thrown out of an open session and cannot sign in", async ({ page, sql }) => {
    const client = await registerClient(page);
    await page.goto("/client-dashboard");
    await expect(page).toHaveURL(/\/client-dashboard$/);
    await sql.query(`update "user" set banned = true where email = $1`, [client.email]);
    await page.goto("/project-status");
    await expect(page).toHaveURL(/\/login\?redirectTo=%2Fproject-status$/);
    await fillFields(page, { Email: client.email, Password: PASSWORD });
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("alert")).toHaveText(/This account has been deactivated/);
    await sql.query(`update "user" set banned = false where email = $1`, [client.email]);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/client-dashboard$/);
  });
});

test.describe("password reset", () => {
  test("a reset mail arrives at the SMTP server; its token sets a new password once", async ({ page, sql }) => {
    const client = await registerClient(page);
    await page.context().clearCookies();
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(client.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "sent" })).toHaveText("A password reset email has been sent.");

    // Same answer for an unknown address, and no mail for it.
    await page.getByLabel("Email").fill(uniqueEmail("nobody"));
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status").filter({ hasText: "sent" })).toHaveText("A password reset email has been sent.");

    const mail = await mailTo(client.email, /^Reset your password — /);
    const link = /(http:\/\/[^\s]+\/reset-password\?token=[^\s]+)/.exec(mail.text ?? "")![1]!;
    await page.goto(link.replace(/^http:\/\/[^/]+/, ""));
    await fillFields(page, { "New password": "a-brand-new-pass", "Repeat the new password": "a-brand-new-pass" });
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page).toHaveURL(/\/login\?reset=done$/);
    await expect(page.getByRole("status").filter({ hasText: "password" })).toHaveText(
      "Your password has been changed. You can sign in now.",
    );
    await login(page, client.email, "a-brand-new-pass");
    await page.context().clearCookies();

    // The token works once.
    await page.goto(link.replace(/^http:\/\/[^/]+/, ""));
    await fillFields(page, { "New password": "yet-another-pass", "Repeat the new password": "yet-another-pass" });
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("alert")).toHaveText(/invalid, expired or already used/);

    // An expired token is refused too.
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(client.email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    const second = await mailTo(client.email, /^Reset your password — /, link);
    const secondLink = /(\/reset-password\?token=[^\s]+)/.exec(second.text ?? "")![1]!;
    const token = decodeURIComponent(secondLink.split("token=")[1]!);
    await sql.query(`update verification set expires_at = now() - interval '1 minute' where identifier = $1`, [`reset-password:${token}`]);
    await page.goto(secondLink);
    await fillFields(page, { "New password": "expired-pass-1", "Repeat the new password": "expired-pass-1" });
    await page.getByRole("button", { name: "Set new password" }).click();
    await expect(page.getByRole("alert")).toHaveText(/invalid, expired or already used/);
  });
});

test.describe("account settings", () => {
  test("a user turns off non-essential notifications", async ({ page, sql }) => {
    const client = await registerClient(page);
    await page.goto("/client-dashboard");
    await page.getByRole("link", { name: "Account settings" }).click();
    await expect(page).toHaveURL(/\/account\/profile$/);
    const box = page.getByRole("checkbox", { name: /E-mail me about updates/ });
    await expect(box).toBeChecked();
    await box.uncheck();
    await page.getByRole("button", { name: "Save preferences" }).click();
    await expect(page.getByRole("status").filter({ hasText: "saved" })).toHaveText("Preferences saved.");
    await expect(box).not.toBeChecked();
    const { rows } = await sql.query(`select notify_updates from "user" where email = $1`, [client.email]);
    expect(rows).toEqual([{ notify_updates: false }]);
  });
});
