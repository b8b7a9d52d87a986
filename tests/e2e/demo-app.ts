/**
 * An app instance filled with the demo data (scripts/seed-demo.ts) plus a few hostile-length
 * records (a very long project name, a very long e-mail address), and every page of each role
 * area with its route parameters filled in from that data — read from app/routes.ts, so a new
 * page is covered without being listed here (docs/product.md#phone-layouts).
 */
import type { Browser, BrowserContext, Page } from "@playwright/test";
import type pg from "pg";
import { openDatabase } from "../../app/db/client.server";
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from "../../scripts/seed-demo";
import { startIsolatedApp } from "./global-setup";
import { configuredRoutes } from "./route-config";

export type Role = "admin" | "client" | "ambassador";

export interface DemoApp {
  baseUrl: string;
  sql: pg.Pool;
  /** Every page of each role (paths with ids filled in), and the public and sign-in pages. */
  pages: Record<Role | "public", string[]>;
  stop(): Promise<void>;
}

const LONG_NAME = `A very long project name ${"without-any-natural-break-".repeat(4)}that goes on and on`;
const LONG_EMAIL = `someone.with.an.exceptionally.long.address.for.testing.wrapping@${"subdomain.".repeat(3)}example.com`;

/** Starts an isolated app, seeds the demo data, and lists the pages to visit. */
export async function startDemoApp(label: string): Promise<DemoApp> {
  const app = await startIsolatedApp(label);
  const handle = await openDatabase({ url: app.databaseUrl });
  try {
    await seedDemo(handle.db, { users: 60, proposals: 300, invoices: 120 });
  } finally {
    await handle.close();
  }
  const one = async (query: string, params: unknown[] = []) => (await app.sql.query(query, params)).rows[0] as Record<string, unknown>;
  const client = await one(`select id from "user" where email = $1`, [DEMO_ACCOUNTS.client]);
  const ambassador = await one(`select id from "user" where email = $1`, [DEMO_ACCOUNTS.ambassador]);
  // Hostile lengths, on records at the top of the admin lists (newest first).
  await app.sql.query(
    `update "user" set email = $1 where id = (select id from "user" where role = 'client' and id <> $2 order by created_at desc, id desc limit 1)`,
    [LONG_EMAIL, client!.id],
  );
  await app.sql.query(
    `update proposal set project_name = $1, created_at = now() where id = (select id from proposal where client_id = $2 order by id limit 1)`,
    [LONG_NAME, client!.id],
  );
  const clientInvoice = await one(`select id from invoice where client_id = $1 order by id limit 1`, [client!.id]);
  // A request the client can still edit (the seed's random statuses may leave the demo client none).
  const editable =
    (await one(`select id from proposal where client_id = $1 and source = 'client' and status = 'pending' order by id limit 1`, [
      client!.id,
    ])) ??
    (await one(
      `insert into proposal (client_id, source, status, project_details, project_name) values ($1, 'client', 'pending', 'A new site for the demo client', 'Demo request') returning id`,
      [client!.id],
    ));
  const uninvoiced = await one(
    `select p.id from proposal p left join invoice i on i.proposal_id = p.id where i.id is null and p.client_id is not null order by p.id limit 1`,
  );
  const anyInvoice = await one(`select id from invoice order by id limit 1`);
  // A meeting still ahead, pending or accepted, for the reschedule pages.
  const upcomingMeeting = await one(
    `select id from meeting where user_id = $1 and status in ('pending', 'accepted') and starts_at > now() + interval '2 days' order by starts_at limit 1`,
    [client!.id],
  );
  const anyUpcoming = await one(
    `select id from meeting where status in ('pending', 'accepted') and starts_at > now() order by starts_at limit 1`,
  );
  const ids: Record<string, unknown> = {
    ":invoiceId": clientInvoice?.id,
    ":proposalId": editable?.id,
    ":meetingId": upcomingMeeting?.id,
  };
  const adminIds: Record<string, unknown> = { ":invoiceId": anyInvoice?.id, ":proposalId": uninvoiced?.id, ":meetingId": anyUpcoming?.id };

  const pagesOf = (area: Role, values: Record<string, unknown>) =>
    configuredRoutes
      .filter((r) => r.area === area && r.file.endsWith(".tsx") && !r.path.includes("*"))
      .map((r) => r.path.replace(/:[A-Za-z]+/g, (param) => String(values[param] ?? "")))
      .filter((path) => !path.endsWith("/") || path === "/")
      .filter((path) => path !== "/ambassador");
  // The account's pages (/account and each section's page, issue #41), for every role.
  const accountPages = configuredRoutes.filter((r) => r.area === "account" && r.file.endsWith(".tsx")).map((r) => r.path);
  const pages: DemoApp["pages"] = {
    admin: [...pagesOf("admin", adminIds), `/admin/ambassadors?ambassador=${ambassador!.id}`, ...accountPages],
    client: [...pagesOf("client", ids), ...accountPages],
    ambassador: [...pagesOf("ambassador", {}), ...accountPages],
    public: ["/", "/about", "/projects", "/project1", "/contact", "/login", "/register", "/register/ambassador", "/forgot-password"],
  };
  return {
    baseUrl: app.baseUrl,
    sql: app.sql,
    pages,
    stop: () => app.stop(),
  };
}

/** The demo account of a role. */
export const ACCOUNT: Record<Role, string> = DEMO_ACCOUNTS;

/**
 * A browser context at a viewport, signed in as `role` (or signed out), reduced motion on.
 *
 * @param opts.javaScript - false renders the pages without JavaScript.
 */
export async function contextFor(
  browser: Browser,
  app: DemoApp,
  role: Role | null,
  opts: { width: number; height?: number; javaScript?: boolean; timezoneId?: string },
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: app.baseUrl,
    viewport: { width: opts.width, height: opts.height ?? 844 },
    reducedMotion: "reduce",
    javaScriptEnabled: opts.javaScript ?? true,
    timezoneId: opts.timezoneId,
    extraHTTPHeaders: { "x-forwarded-for": `10.77.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250) + 1}` },
  });
  if (role) {
    const response = await context.request.post("/login", { form: { email: ACCOUNT[role], password: DEMO_PASSWORD } });
    if (!/\/(admin|ambassador\/dashboard|client-dashboard)$/.test(new URL(response.url()).pathname)) {
      throw new Error(`sign-in as ${role} ended at ${response.url()}`);
    }
  }
  return context;
}

/** Loads a page and fails on an error status. */
export async function visit(page: Page, path: string): Promise<void> {
  const response = await page.goto(path);
  if (!response || response.status() >= 400) throw new Error(`${path} answered ${response?.status()}`);
}
