/**
 * Issue #29's regression: with a logo uploaded and a custom accent colour, every portal page of
 * every role keeps its stylesheet once it has loaded and hydrated (React's server render puts a
 * preload link for the logo into `<head>`; a client runtime that pairs `<head>` elements by
 * position dropped the stylesheet), and "Remove logo" works with JavaScript on. Settings are
 * global, so this runs on an app instance of its own.
 */
import type { Browser, Page } from "@playwright/test";
import { SIGNED_OUT_PAGES } from "../../bench/lib/page-js";
import { adminPage, expect, hydrated, newUserPage, registerAmbassador, registerClient, test } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { expectCleanHydration, expectStyled } from "./hydration";
import { configuredRoutes } from "./route-config";

/** A real 1×1 PNG. */
const TINY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==", "base64");
const ACCENT = "#0f5132";

type App = Awaited<ReturnType<typeof startIsolatedApp>>;
let app: App;

test.beforeAll(async ({}, testInfo) => {
  testInfo.setTimeout(120_000);
  app = await startIsolatedApp("brand");
});
test.afterAll(async () => app?.stop());

/** Every page (not resource) route of a role area, its parameters filled from `ids`. */
function areaPages(area: "client" | "ambassador" | "admin" | "account", ids: Record<string, number | string>): string[] {
  // Once per URL: the admin's index and dashboard routes are both /admin (a second load of the same
  // URL found the recorder's log empty once, on a busy machine).
  const paths = configuredRoutes
    .filter((r) => r.area === area && r.file.endsWith(".tsx"))
    .map((r) => r.path.replace(/:(\w+)/g, (_, name: string) => String(ids[name] ?? `missing-${name}`)));
  return [...new Set(paths)];
}

/** Expects the header to show the uploaded logo and the portal root to carry the accent colour. */
async function expectBrand(page: Page, logoPath: string) {
  await expect(page.getByTestId("portal-brand").locator("img"), page.url()).toHaveAttribute("src", logoPath);
  await expect(page.locator(".portal-root"), page.url()).toHaveAttribute("style", new RegExp(`--accent:\\s*(light-dark\\()?${ACCENT}`));
}

async function pageFor(browser: Browser): Promise<Page> {
  return newUserPage(browser, { baseURL: app.baseUrl });
}

test("with a logo and an accent colour every portal page keeps its stylesheet; Remove logo works with JavaScript on", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const admin = await adminPage(browser, { baseURL: app.baseUrl });

  // The admin sets the accent colour and uploads the logo through the settings page, JavaScript on.
  await admin.goto("/admin/settings/brand");
  await hydrated(admin);
  await admin.getByLabel("Accent colour (optional)").fill(ACCENT);
  await admin.getByRole("button", { name: "Save settings" }).click();
  await expect(admin.getByText("Settings saved.")).toBeVisible();
  await admin.getByLabel("Logo file").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: TINY_PNG });
  await admin.getByRole("button", { name: "Upload logo" }).click();
  await expect(admin.getByText("Logo saved.")).toBeVisible();
  const { rows } = await app.sql.query("select version from brand_logo");
  const logoPath = `/brand/logo/${rows[0].version}`;
  await expectStyled(admin);

  // Data behind the pages with an id: a client's open proposal, an invoiced one, a contact message.
  const client = await pageFor(browser);
  const account = await registerClient(client, { businessName: "Brand Test Co" });
  for (const projectName of ["Open brand project", "Invoiced brand project"]) {
    const posted = await client.request.post("/proposal-request", { form: { projectName, projectDetails: "A bakery site" } });
    expect(posted.status()).toBeLessThan(400);
  }
  const proposals = await app.sql.query(
    'select p.id, p.project_name from proposal p join "user" u on u.id = p.client_id where u.email = $1 order by p.id',
    [account.email],
  );
  const [open, invoiced] = proposals.rows as Array<{ id: number }>;
  const invoice = await app.sql.query(
    `insert into invoice (number, proposal_id, client_id, due_date, status, total_cents)
     select 'INV-BRAND-1', $1, client_id, current_date + 30, 'unpaid', 50000 from proposal where id = $1 returning id`,
    [invoiced!.id],
  );
  const invoiceId = invoice.rows[0].id as number;
  await app.sql.query("insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Website', 50000)", [
    invoiceId,
  ]);
  const message = await app.sql.query(
    "insert into contact_message (user_name, user_email, message) values ('Brand Sender', 'sender@example.org', 'Hello') returning id",
  );
  // A pending meeting far enough ahead to be rescheduled (the reschedule pages).
  const meeting = await app.sql.query(
    `insert into meeting (user_id, starts_at, ends_at, time_zone, status)
     select client_id, now() + interval '20 days', now() + interval '20 days 30 minutes', 'UTC', 'pending' from proposal where id = $1 returning id`,
    [open!.id],
  );
  // A testimonial asked of the client's organisation (its page, #40).
  const testimonial = await app.sql.query(
    "insert into testimonial (proposal_id, organisation_id) select id, organisation_id from proposal where id = $1 returning id",
    [open!.id],
  );
  // A billing plan of the client's organisation, starting next year (nothing is issued by it here).
  const plan = await app.sql.query(
    `insert into billing_plan (organisation_id, name, items, total_cents, frequency, start_date, due_days)
     select organisation_id, 'Brand retainer', '[{"description":"Hosting","amountCents":5000}]', 5000, 'monthly', current_date + 365, 14
     from proposal where id = $1 returning id, organisation_id`,
    [open!.id],
  );
  const ids = {
    testimonialId: testimonial.rows[0].id as number,
    organisationId: plan.rows[0].organisation_id as number,
    planId: plan.rows[0].id as number,
    // The first seeded case study (migration 0032).
    caseStudyId: 1,
    proposalId: open!.id,
    invoiceId,
    messageId: message.rows[0].id as number,
    meetingId: meeting.rows[0].id as number,
    // The reminders of a record (/admin/reminders/:recordKind/:recordId, #26).
    recordKind: "invoice",
    recordId: invoiceId,
  };
  const ambassador = await pageFor(browser);
  const ambassadorAccount = await registerAmbassador(ambassador);
  // The ambassador's own proposal (their proposal page).
  const submitted = await ambassador.request.post("/ambassador/submit-proposal", {
    form: { clientName: "Brand Client", clientEmail: `brand-client-${Date.now()}@example.org`, projectDetails: "A shop" },
  });
  expect(submitted.status()).toBeLessThan(400);
  const own = await app.sql.query(
    'select p.id from proposal p join "user" u on u.id = p.ambassador_id where u.email = $1 order by p.id desc limit 1',
    [ambassadorAccount.email],
  );

  // Every portal page of every role (and the signed-out sign-in pages): hydrated without a DOM
  // change, still styled, with the logo and the accent colour.
  const signedOut = await pageFor(browser);
  await expectCleanHydration(signedOut, SIGNED_OUT_PAGES);
  const byRole: Array<[Page, string[]]> = [
    [client, [...areaPages("client", ids), ...areaPages("account", ids)]],
    [ambassador, [...areaPages("ambassador", { ...ids, proposalId: own.rows[0].id as number }), ...areaPages("account", ids)]],
    [admin, [...areaPages("admin", ids), ...areaPages("account", ids)]],
  ];
  for (const [page, urls] of byRole) {
    expect(urls.join(" ")).not.toContain("missing-");
    for (const url of urls) {
      await expectCleanHydration(page, [url]);
      await expectBrand(page, logoPath);
    }
  }

  // Remove logo, JavaScript on: confirmed in the dialog, posted by React Router, gone everywhere.
  await admin.goto("/admin/settings/brand");
  await hydrated(admin);
  admin.once("dialog", (dialog) => void dialog.accept());
  await admin.getByRole("button", { name: "Remove logo" }).click();
  await expect(admin.getByText("Logo removed.")).toBeVisible();
  await expect(admin.getByRole("img", { name: "Current logo" })).toHaveCount(0);
  await expect(admin.getByTestId("portal-brand").locator("img")).toHaveCount(0);
  expect((await app.sql.query("select count(*)::int as n from brand_logo")).rows[0].n).toBe(0);
  await expectStyled(admin);
  await client.goto("/client-dashboard");
  await expect(client.getByTestId("portal-brand").locator("img")).toHaveCount(0);
  await expectStyled(client);
  for (const page of [admin, client, ambassador, signedOut]) await page.context().close();
});
