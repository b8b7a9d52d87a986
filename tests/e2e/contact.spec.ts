import { addressesOf, expect, fillFields, test, waitForMail } from "./fixtures";

const SUCCESS = "Message sent successfully!";

test.describe("contact form", () => {
  test("sends a message: success shown, form reset, stored, and the owner's e-mail arrives", async ({ page, sql }) => {
    const marker = `Hello from e2e ${Date.now()}`;
    await page.goto("/contact");
    await fillFields(page, { Name: "Grace Hopper", Email: "grace@example.org", "Phone (optional)": "+1 301 555 0199", Message: marker });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status")).toHaveText(SUCCESS);
    await expect(page.getByLabel("Name")).toHaveValue("");
    await expect(page.getByLabel("Message")).toHaveValue("");

    const { rows } = await sql.query("select user_name, user_email, user_phone from contact_message where message = $1", [marker]);
    expect(rows).toEqual([{ user_name: "Grace Hopper", user_email: "grace@example.org", user_phone: "+1 301 555 0199" }]);

    const mail = await waitForMail((m) => (m.text ?? "").includes(marker));
    expect(addressesOf(mail.to)).toEqual(["owner@portfolio.test"]);
    expect(addressesOf(mail.replyTo)).toEqual(["grace@example.org"]);
    expect(mail.subject).toMatch(/^New contact message from Grace Hopper — /);
  });

  test("the browser's own checks stop an incomplete form before anything is sent", async ({ page, sql }) => {
    const posts: string[] = [];
    page.on("request", (r) => r.method() === "POST" && posts.push(r.url()));
    await page.goto("/contact");
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByRole("button", { name: "Send Message" }).click();
    for (const label of ["Name", "Email", "Message"]) {
      expect(await page.getByLabel(label).evaluate((el: HTMLInputElement) => el.matches(":invalid")), label).toBe(true);
    }
    expect(await page.getByLabel("Phone (optional)").evaluate((el: HTMLInputElement) => el.matches(":invalid"))).toBe(false);
    expect(posts).toEqual([]);
    const { rows } = await sql.query("select count(*)::int as n from contact_message where user_email = 'not-an-email'");
    expect(rows[0].n).toBe(0);
  });

  test("the Send button says Sending… and cannot be pressed again while the message is posted", async ({ page }) => {
    await page.goto("/contact");
    // Count submit events and hold the post back (a held navigation cannot be inspected), so
    // the page's own script is observed in the state it leaves while the post is under way.
    await page.locator("form#contact").evaluate((form: HTMLFormElement) => {
      (window as unknown as { submits: number }).submits = 0;
      form.addEventListener("submit", (event) => {
        (window as unknown as { submits: number }).submits++;
        event.preventDefault();
      });
    });
    await fillFields(page, { Name: "Pending Person", Email: "pending@example.org", Message: "Pending state" });
    const button = page.locator("form#contact button[type=submit]");
    await button.click();
    await expect(button).toHaveText("Sending…");
    await expect(button).toBeDisabled();
    await expect(button).toHaveAttribute("aria-busy", "true");
    await button.click({ force: true });
    await page.getByLabel("Name").press("Enter");
    expect(await page.evaluate(() => (window as unknown as { submits: number }).submits)).toBe(1);
  });

  test("validates again on the server: a crafted post gets 400 with clear messages", async ({ request, sql }) => {
    const response = await request.post("/contact", {
      form: { user_name: "", user_email: "bad", message: "x".repeat(5_001) },
    });
    expect(response.status()).toBe(400);
    const html = await response.text();
    expect(html).toContain("Name is required.");
    expect(html).toContain("Enter a valid email address.");
    expect(html).toContain("Message must be at most 5,000 characters.");
    const { rows } = await sql.query("select count(*)::int as n from contact_message where user_email = 'bad'");
    expect(rows[0].n).toBe(0);
  });

  test("the honeypot refuses a bot's submission and stores nothing", async ({ page, sql }) => {
    const marker = `bot ${Date.now()}`;
    await page.goto("/contact");
    await fillFields(page, { Name: "Bot", Email: "bot@example.org", Message: marker });
    await page.locator('input[name="website"]').evaluate((el: HTMLInputElement) => (el.value = "http://spam.example"));
    const responsePromise = page.waitForResponse((r) => r.request().method() === "POST");
    await page.getByRole("button", { name: "Send Message" }).click();
    expect((await responsePromise).status()).toBe(400);
    await expect(page.getByRole("status")).toHaveText("Something went wrong. Try again.");
    const { rows } = await sql.query("select count(*)::int as n from contact_message where message = $1", [marker]);
    expect(rows[0].n).toBe(0);
  });

  test("the per-IP rate limit answers 429 with a clear message after 5 messages", async ({ page, sql, ip }) => {
    const marker = `burst ${Date.now()}`;
    await page.goto("/contact");
    for (let i = 1; i <= 6; i++) {
      await fillFields(page, { Name: `Sender ${i}`, Email: "burst@example.org", Message: `${marker} #${i}` });
      const responsePromise = page.waitForResponse((r) => r.request().method() === "POST");
      await page.getByRole("button", { name: "Send Message" }).click();
      const response = await responsePromise;
      if (i <= 5) {
        expect(response.status()).toBe(200);
        await expect(page.getByRole("status")).toHaveText(SUCCESS);
      } else {
        expect(response.status()).toBe(429);
        expect(Number(response.headers()["retry-after"])).toBeGreaterThan(0);
        await expect(page.getByRole("status")).toHaveText(/Too many messages/);
      }
    }
    const { rows } = await sql.query("select count(*)::int as n from contact_message where message like $1 and ip = $2", [
      `${marker}%`,
      ip,
    ]);
    expect(rows[0].n).toBe(5);
  });
});

test.describe("contact form without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("still sends a message", async ({ page, sql }) => {
    const marker = `no-js ${Date.now()}`;
    await page.goto("/contact");
    await fillFields(page, { Name: "Alan Turing", Email: "alan@example.org", Message: marker });
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByRole("status")).toHaveText(SUCCESS);
    await expect(page.getByLabel("Message")).toHaveValue("");
    const { rows } = await sql.query("select user_name from contact_message where message = $1", [marker]);
    expect(rows).toEqual([{ user_name: "Alan Turing" }]);
    await waitForMail((m) => (m.text ?? "").includes(marker));
  });

  test("shows the server's field errors next to the fields", async ({ page }) => {
    await page.goto("/contact");
    // Bypass the browser's own checks to see the server's answer.
    await page.locator("form#contact").evaluate((form: HTMLFormElement) => (form.noValidate = true));
    await page.getByLabel("Email").fill("nope");
    await page.getByRole("button", { name: "Send Message" }).click();
    await expect(page.getByText("Name is required.")).toBeVisible();
    await expect(page.getByText("Enter a valid email address.")).toBeVisible();
    await expect(page.getByText("Message is required.")).toBeVisible();
    await expect(page.getByLabel("Email")).toHaveValue("nope");
  });
});
