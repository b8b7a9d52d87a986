/**
 * Issue #40, the portfolio from the database, on an app of its own (its edits publish and would
 * change the shared app's public pages): a case study's Impact edited in draft, previewed, the
 * public page unchanged until publish (served from the page cache, re-rendered on publish); a
 * client's testimonial with first name only, approved, shown, withdrawn and gone; "Start a
 * project like this" prefilling the request and the admin seeing its source; axe on the editor
 * and the public pages.
 */
import { axeBuilder } from "./axe";
import type { Browser, Page } from "@playwright/test";
import { projects } from "../../app/content/projects";
import { adminPage, expect, hydrated, mailTo, newUserPage, PASSWORD, registerClient, test, uniqueEmail } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

test.describe.configure({ mode: "serial", timeout: 420_000 });

let app: Awaited<ReturnType<typeof startIsolatedApp>>;
test.beforeAll(async () => {
  // Budgets for a busy machine: a database of its own and the built app's start.
  test.setTimeout(420_000);
  app = await startIsolatedApp("portfolio");
});
test.afterAll(async () => {
  await app?.stop();
});

const warehouse = projects.find((p) => p.slug === "project4")!;

async function axeProblems(page: Page): Promise<string[]> {
  const results = await axeBuilder(page).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]).analyze();
  return results.violations.map((v) => `${page.url()}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(" | ")}`);
}

/** The public page as a visitor gets it (no session, no JavaScript needed). */
async function publicHtml(path: string): Promise<{ html: string; etag: string | null }> {
  const response = await fetch(`${app.baseUrl}${path}`);
  return { html: await response.text(), etag: response.headers.get("etag") };
}

const visitor = (browser: Browser) => newUserPage(browser, { baseURL: app.baseUrl });

/**
 * Follows the case study's "Start a project like this" link from the keyboard. A pointer click is
 * unreliable here: the link's block slides 1.5rem into place (the scroll-driven `.reveal`) while
 * Playwright scrolls it into view (smooth scrolling), so the click lands where the link was — on
 * its box's edge — and about one run in two it hit the surrounding block and nothing happened.
 */
async function startLikeThis(page: Page): Promise<void> {
  const link = page.getByRole("link", { name: "Start a project like this" });
  await link.focus();
  await page.keyboard.press("Enter");
}

test("the admin edits a case study's Impact in draft, previews it; the public page changes only once published", async ({ browser }) => {
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  // The public page is served from the page cache (an ETag) with the published Impact.
  await expect.poll(async () => (await publicHtml("/project4")).etag, { timeout: 20_000 }).toMatch(/^"/);
  const before = await publicHtml("/project4");
  expect(before.html).toContain(warehouse.impact);

  await admin.goto("/admin/case-studies");
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText("Case studies");
  expect(await axeProblems(admin)).toEqual([]);
  await admin.getByRole("link", { name: warehouse.title, exact: true }).click();
  await expect(admin.getByRole("heading", { level: 1 })).toHaveText(`Edit: ${warehouse.title}`);
  expect(await axeProblems(admin)).toEqual([]);
  await admin.getByLabel("Impact", { exact: true }).fill("Staff walk **42 % fewer** aisles. <script>alert(1)</script>");
  await admin.getByRole("button", { name: "Save draft" }).click();
  await expect(admin.getByText("Draft saved. The site is unchanged until you publish.")).toBeVisible();
  await expect(admin.getByTestId("case-study-status")).toContainText("Unpublished changes");

  // The preview shows the draft with the public page's own layout; raw HTML stays text.
  await admin.getByRole("link", { name: "Preview draft" }).click();
  await expect(admin).toHaveURL(/\/portfolio\/preview\/\d+$/);
  // The URL changes before React renders the preview: wait for its status by its text (a bare
  // getByRole("status") could still see the edit page's four and fail strict mode at once).
  await expect(admin.getByRole("status").filter({ hasText: "Preview of the draft" })).toBeVisible();
  const impact = admin.getByRole("region", { name: "Impact" });
  await expect(impact.locator("strong")).toHaveText("42 % fewer");
  await expect(impact).toContainText("<script>alert(1)</script>");
  expect(await admin.locator("main script").count()).toBe(0);
  expect(await axeProblems(admin)).toEqual([]);

  // Still the published Impact for visitors, from the same cache entry.
  const during = await publicHtml("/project4");
  expect(during.html).toContain(warehouse.impact);
  expect(during.html).not.toContain("42 % fewer");
  expect(during.etag).toBe(before.etag);

  await admin.goto("/admin/case-studies");
  await admin.getByRole("link", { name: warehouse.title, exact: true }).click();
  await admin.getByRole("button", { name: "Publish changes" }).click();
  await expect(admin.getByText("Published: the site shows this version now.")).toBeVisible();

  // Every process drops its cached pages on the live event and renders them again.
  await expect.poll(async () => (await publicHtml("/project4")).html, { timeout: 20_000 }).toContain("<strong>42 % fewer</strong>");
  const page = await visitor(browser);
  await page.goto("/project4");
  await expect(page.getByRole("region", { name: "Impact" })).toContainText("Staff walk 42 % fewer aisles.");
  await expect(page.locator('meta[property="og:image"]')).toHaveAttribute("content", /\/portfolio\/og\/\d+\.png\?v=\d+$/);
  const og = await fetch((await page.locator('meta[property="og:image"]').getAttribute("content"))!);
  expect([og.status, og.headers.get("content-type")]).toEqual([200, "image/png"]);
  expect(await page.locator("script[src], script[type=module]").count()).toBe(0);
  const sitemap = await (await fetch(`${app.baseUrl}/sitemap.xml`)).text();
  expect(sitemap).toContain(`<loc>${app.baseUrl}/project4</loc>`);
  for (const path of ["/project4", "/", "/projects"]) {
    await page.goto(path);
    expect(await axeProblems(page)).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/project4");
  expect(await axeProblems(page)).toEqual([]);
  await page.context().close();
  await admin.context().close();
});

test("a client's testimonial with first name only: approved, shown on the case study and home page; withdrawn, gone", async ({
  browser,
}) => {
  const client = await visitor(browser);
  const email = uniqueEmail("testimonial");
  await registerClient(client, { email, businessName: "Grace Hopper Labs" });
  const [{ id: clientId }] = (await app.sql.query(`select id from "user" where email = $1`, [email])).rows;
  const [{ id: proposalId }] = (
    await app.sql.query(
      `insert into proposal (client_id, organisation_id, source, status, project_name, project_details)
       values ($1, (select organisation_id from membership where user_id = $1 and role = 'owner' limit 1), 'client', 'review', 'Compiler site', 'A site') returning id`,
      [clientId],
    )
  ).rows;

  // The admin marks the project completed: the owner is asked on the dashboard and by one mail.
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  const setStatus = async (label: string) => {
    // A fresh, hydrated page each time: the control is drawn again after a save.
    await admin.goto(`/admin/proposals/${proposalId}`);
    await hydrated(admin);
    await admin.getByLabel("Status of Compiler site").selectOption({ label });
    await admin.getByRole("button", { name: "Save new status — Compiler site" }).click();
    await expect(admin.getByText(`“Compiler site” is now “${label}”`)).toBeVisible();
  };
  await setStatus("Completed");
  await expect(admin.getByRole("link", { name: "Make a case study draft" })).toBeVisible();
  const asked = await mailTo(email, /^How did Compiler site go\?/);
  const askedPath = /\/testimonials\/\d+/.exec(asked.text ?? "")?.[0];
  expect(askedPath).toBeTruthy();
  // Completed again (after a step back to Review): nothing asked a second time, no second mail.
  await setStatus("Review");
  await setStatus("Completed");
  const queued = async () =>
    Number(
      (
        await app.sql.query(`select count(*)::int as n from mail_outbox where "to" = $1 and subject like 'How did Compiler site go?%'`, [
          email,
        ])
      ).rows[0].n,
    );
  expect(await queued()).toBe(1);
  expect(Number((await app.sql.query(`select count(*)::int as n from testimonial where proposal_id = $1`, [proposalId])).rows[0].n)).toBe(
    1,
  );
  // The mail's link opens the request for the signed-in owner.
  await client.goto(askedPath!);
  await expect(client.getByRole("heading", { level: 1 })).toHaveText("Your testimonial");
  await client.goto("/client-dashboard");
  await client.getByRole("link", { name: "Write a testimonial about Compiler site" }).click();
  await expect(client.getByRole("heading", { level: 1 })).toHaveText("Your testimonial");
  expect(await axeProblems(client)).toEqual([]);
  await client.getByLabel("Your testimonial").fill("They shipped our compiler's site on time.");
  await client.getByLabel("5 stars").check();
  await client.getByLabel("Publish it with my first name only").check();
  await client.getByRole("button", { name: "Send testimonial" }).click();
  await expect(client.getByText("It appears on the site once the agency approves it.")).toBeVisible();

  // Not shown before the admin approves it.
  expect((await publicHtml("/project1")).html).not.toContain("They shipped our compiler");
  await admin.goto("/admin/testimonials");
  expect(await axeProblems(admin)).toEqual([]);
  const card = admin.locator("li", { hasText: "Compiler site" });
  await card.getByLabel("Also show it on").selectOption({ label: "Internship Hub" });
  await card.getByRole("button", { name: "Approve" }).click();
  await expect(admin.getByText("Approved: it is shown on the site.")).toBeVisible();

  for (const path of ["/project1", "/"]) {
    await expect.poll(async () => (await publicHtml(path)).html, { timeout: 20_000 }).toContain("They shipped our compiler");
  }
  const page = await visitor(browser);
  await page.goto("/project1");
  const quote = page.getByRole("region", { name: "What the client says" });
  await expect(quote).toContainText("They shipped our compiler's site on time.");
  await expect(quote.locator("figcaption")).toHaveText("— Grace");
  await expect(quote).not.toContainText("Hopper");
  expect(await axeProblems(page)).toEqual([]);

  // The client withdraws it: it leaves the site.
  await client.reload();
  await client.getByLabel("Remove my testimonial from the site").check();
  await client.getByRole("button", { name: "Withdraw" }).click();
  await expect(client.getByText("Your testimonial is withdrawn: it is no longer on the site.")).toBeVisible();
  for (const path of ["/project1", "/"]) {
    await expect.poll(async () => (await publicHtml(path)).html, { timeout: 20_000 }).not.toContain("They shipped our compiler");
  }
  await page.reload();
  await expect(page.getByRole("region", { name: "What the client says" })).toHaveCount(0);
  await Promise.all([page.context().close(), client.context().close(), admin.context().close()]);
});

test("“Start a project like this” signs in, prefills the request, and the admin sees where it came from", async ({ browser }) => {
  const setup = await visitor(browser);
  const account = await registerClient(setup, { businessName: "Kitchen Fans" });
  await setup.context().close();

  const page = await visitor(browser);
  await page.goto("/project2");
  await startLikeThis(page);
  await expect(page).toHaveURL(/\/login\?redirectTo=/, { timeout: 30_000 });
  await page.getByLabel("Email").fill(account.email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: /^(Login|Sign in|Log in)$/ }).click();
  await expect(page).toHaveURL(/\/proposal-request\?caseStudy=project2$/, { timeout: 30_000 });
  await expect(page.getByTestId("case-study-reference")).toContainText("Kitchen Display System");
  await expect(page.getByLabel("Project name (optional)")).toHaveValue("A project like Kitchen Display System");
  await expect(page.getByLabel("Project details")).toHaveValue(/your case study “Kitchen Display System” \(\/project2\)/);
  await page.getByRole("button", { name: "Submit request" }).click();
  await expect(page.getByTestId("request-result")).toContainText(/submitted/i);

  const [{ id: proposalId }] = (
    await app.sql.query(
      `select p.id from proposal p join "user" u on u.id = p.client_id where u.email = $1 and p.source_case_study_id = (select id from case_study where slug = 'project2')`,
      [account.email],
    )
  ).rows;
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  await admin.goto("/admin");
  await expect(admin.getByTestId("case-study-requests")).toContainText("Kitchen Display System: 1 proposal request");
  await admin.goto(`/admin/proposals/${proposalId}`);
  await expect(admin.getByTestId("proposal-source")).toContainText("From the case study Kitchen Display System");
  await admin.goto("/admin/case-studies");
  await expect(admin.getByTestId("requests-project2")).toHaveText("1 request");
  await Promise.all([page.context().close(), admin.context().close()]);
});

test("“Start a project like this” for a visitor without an account: registers first, lands on the prefilled request, and the admin counts it", async ({
  browser,
}) => {
  const rental = projects.find((p) => p.slug === "project3")!;
  const page = await visitor(browser);
  await page.goto("/project3");
  await startLikeThis(page);
  await expect(page).toHaveURL(/\/login\?redirectTo=/, { timeout: 30_000 });
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL(/\/register\?redirectTo=%2Fproposal-request%3FcaseStudy%3Dproject3$/, { timeout: 30_000 });
  // Changing one's mind on the way keeps the destination too.
  await expect(page.getByRole("link", { name: "Sign in" })).toHaveAttribute(
    "href",
    /\/login\?redirectTo=%2Fproposal-request%3FcaseStudy%3Dproject3$/,
  );
  expect(await axeProblems(page)).toEqual([]);
  const email = uniqueEmail("from-case-study");
  await page.getByLabel("Business name").fill("Tenant Homes");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel(/^Phone/).fill("301 555 0100");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Register" }).click();

  await expect(page).toHaveURL(/\/proposal-request\?caseStudy=project3$/, { timeout: 30_000 });
  await expect(page.getByTestId("case-study-reference")).toContainText(rental.title);
  await expect(page.getByLabel("Project name (optional)")).toHaveValue(`A project like ${rental.title}`);
  await expect(page.getByLabel("Project details")).toHaveValue(new RegExp(`your case study “${rental.title}” \\(/project3\\)`));
  expect(await axeProblems(page)).toEqual([]);
  await page.getByRole("button", { name: "Submit request" }).click();
  await expect(page.getByTestId("request-result")).toContainText(/submitted/i);

  const [{ id: proposalId }] = (
    await app.sql.query(
      `select p.id from proposal p join "user" u on u.id = p.client_id where u.email = $1 and p.source_case_study_id = (select id from case_study where slug = 'project3')`,
      [email],
    )
  ).rows;
  const admin = await adminPage(browser, { baseURL: app.baseUrl });
  await admin.goto("/admin");
  await expect(admin.getByTestId("case-study-requests")).toContainText(`${rental.title}: 1 proposal request`);
  await admin.goto(`/admin/proposals/${proposalId}`);
  await expect(admin.getByTestId("proposal-source")).toContainText(`From the case study ${rental.title}`);
  await admin.goto("/admin/case-studies");
  await expect(admin.getByTestId("requests-project3")).toHaveText("1 request");
  await Promise.all([page.context().close(), admin.context().close()]);
});
