/**
 * Playwright fixtures: the app's base URL, a per-test client IP (sent as
 * X-Forwarded-For, trusted from loopback) so rate limits of one test do not leak into
 * another, SQL access to the app's database, and the mails the SMTP server received.
 */
import fs from "node:fs";
import path from "node:path";
import { test as base, expect, type Browser, type BrowserContext, type Locator } from "@playwright/test";
import { simpleParser, type ParsedMail } from "mailparser";
import type pg from "pg";
import { testPool } from "../helpers/test-database";

export { expect };

let ipCounter = 0;
/** A unique address string per call in this worker (only ever sent as a header). */
export function uniqueIp(): string {
  ipCounter++;
  return `10.${process.pid % 250}.${Math.floor(ipCounter / 250) % 250}.${(ipCounter % 250) + 1}`;
}

/**
 * Mails of this worker's run parsed once each: a late test of a full run looks through hundreds of
 * them every 200 ms, which parsed afresh took longer than the wait on a busy machine.
 */
const parsedMails = new Map<string, ParsedMail>();

/** Every mail the SMTP test server has received so far in the run, oldest first. */
export async function receivedMails(): Promise<ParsedMail[]> {
  const dir = process.env.E2E_MAIL_DIR!;
  const mails: ParsedMail[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!file.endsWith(".eml")) continue; // still being written (global-setup renames it when complete)
    let mail = parsedMails.get(file);
    if (!mail) {
      mail = await simpleParser(fs.readFileSync(path.join(dir, file)));
      parsedMails.set(file, mail);
    }
    mails.push(mail);
  }
  return mails;
}

/** Waits for a mail received by the SMTP server during the run that passes `predicate`. */
export async function waitForMail(predicate: (mail: ParsedMail) => boolean, timeoutMs = 30_000): Promise<ParsedMail> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const found = (await receivedMails()).find(predicate);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("expected mail did not arrive");
}

/** Mail addresses of a parsed header (`to`, `cc`, …) as a flat list. */
export function addressesOf(field: ParsedMail["to"]): string[] {
  const list = Array.isArray(field) ? field : field ? [field] : [];
  return list.flatMap((a) => a.value.map((v) => v.address ?? ""));
}

/**
 * Waits for a mail to `address` with the given subject (a string must match exactly) other than
 * `except`: a text the mail must not contain (e.g. the link of a mail read before), or a mail read
 * before (compared by Message-ID: two e-mail verification links asked for within the same second
 * are the same signed token, so only the mail itself tells them apart).
 */
export async function mailTo(address: string, subject: string | RegExp, except?: string | ParsedMail): Promise<ParsedMail> {
  return waitForMail(
    (m) =>
      addressesOf(m.to).includes(address) &&
      (typeof subject === "string" ? m.subject === subject : subject.test(m.subject ?? "")) &&
      (except === undefined ||
        (typeof except === "string" ? !(m.text ?? "").includes(except) : m.messageId !== undefined && m.messageId !== except.messageId)),
  );
}

/** The e-mail verification mail sent to `email` (other than `previous`, a verification mail read before). */
export async function verificationMail(email: string, previous?: ParsedMail): Promise<ParsedMail> {
  return mailTo(email, /^Verify your e-mail address/, previous);
}

/** The path (with token) of the verification link in a verification mail. */
export function verificationPath(mail: ParsedMail): string {
  return /(\/verify-email\?token=[^\s]+)/.exec(mail.text ?? "")![1]!;
}

/** Fills each field found by its exact label text (within `scope`, a page or a section of one) with the given value. */
export async function fillFields(scope: Page | Locator, values: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(values)) await scope.getByLabel(label, { exact: true }).fill(value);
}

/**
 * For an `expect` that waits on the server's answer to a form, above all a password check (a
 * sign-in, a two-factor step, a setting guarded by the password): no time limit of its own, only
 * the test's budget. On a
 * busy machine with three workers the password hash alone took longer than `expect`'s 7 s, and the
 * tests failed though nothing was wrong (issue #42). The assertion is the same; only its wait changes.
 */
export const SERVER_ANSWER = { timeout: 0 } as const;

/** Waits until React has hydrated the page (root sets `html[data-hydrated]`). */
export async function hydrated(page: import("@playwright/test").Page): Promise<void> {
  await page.locator("html[data-hydrated]").waitFor({ state: "attached" });
}

// ---------------------------------------------------------------------------------------
// Browser problems. Every browser context of the run — the `page`/`context` fixtures and every
// `browser.newContext()` a test, a `beforeAll` or a helper makes — is watched, and a test fails
// when any page it drove logged a console error, a React hydration warning or an uncaught
// error, or got an error answer to a subresource or a 5xx answer (docs/architecture.md#tests).
// ---------------------------------------------------------------------------------------

/** What a test expects to go wrong in the browser (rare: a 500 page, a refused upload …). */
export interface ConsoleErrors {
  /** Accepts the browser problems whose text matches `pattern` for the rest of the test. */
  allow(pattern: RegExp): void;
}

/** The test collecting problems right now (null between tests: problems then wait for the next one). */
let collector: string[] | null = null;
/**
 * Browser contexts opened during the running test (null between tests): closed when it ends, so that
 * a page left open — whose live-update stream (docs/product.md#live-updates) would keep trying to
 * reach a server the test has stopped — cannot report problems into the next test. Contexts a
 * `beforeAll` opens are left to its `afterAll`.
 */
let testContexts: BrowserContext[] | null = null;
const orphans: string[] = [];

function report(problem: string) {
  (collector ?? orphans).push(problem);
}

/** A console warning that React prints about hydration (development) or React itself. */
const REACT_WARNING = /hydrat|^Warning: |react/i;

/** Watches one browser context (idempotent). */
const watched = new WeakSet<BrowserContext>();
function watch(context: BrowserContext) {
  if (watched.has(context)) return;
  watched.add(context);
  context.on("console", (message) => {
    const text = message.text();
    const where = message.page()?.url() ?? message.location().url;
    // The network log ("Failed to load resource: …") is judged by the response itself, below:
    // a 4xx answer to a navigation or a form post is the app refusing as designed.
    if (message.type() === "error" && /^Failed to load resource: the server responded with a status of \d+/.test(text)) return;
    if (message.type() === "error" && text === "Failed to load resource: net::ERR_ABORTED") return;
    if (message.type() === "error" || (message.type() === "warning" && REACT_WARNING.test(text))) {
      report(`${where}: console ${message.type()}: ${text}`);
    }
  });
  context.on("weberror", (error) => report(`${error.page()?.url() ?? "?"}: uncaught: ${error.error().message || String(error.error())}`));
  context.on("response", (response) => {
    const status = response.status();
    if (status < 400) return;
    const type = response.request().resourceType();
    const answer = type === "document" || type === "fetch" || type === "xhr";
    if (status >= 500 || !answer) report(`${response.url()}: ${type} answered ${status}`);
  });
}

/**
 * Sends every page this test opened on `origin` to about:blank: call it before stopping a server
 * of the test's own, or an open page's route discovery would fetch from the stopped server and
 * fail the test with console errors.
 */
export async function leaveServer(origin: string): Promise<void> {
  for (const context of testContexts ?? []) {
    for (const page of context.pages()) if (page.url().startsWith(origin)) await page.goto("about:blank").catch(() => {});
  }
}

interface Fixtures {
  ip: string;
  sql: pg.Pool;
  /** Fails the test on browser problems (auto); `consoleErrors.allow(/…/)` accepts an expected one. */
  consoleErrors: ConsoleErrors;
}

export const test = base.extend<Fixtures, { sqlPool: pg.Pool; watchContexts: void }>({
  baseURL: async ({}, use) => use(process.env.E2E_BASE_URL),
  sqlPool: [
    async ({}, use) => {
      const pool = testPool(process.env.E2E_DATABASE_URL!);
      await use(pool);
      await pool.end();
    },
    { scope: "worker" },
  ],
  // Every context this worker's browser opens is watched, whoever opens it.
  watchContexts: [
    async ({ browser }, use) => {
      const newContext = browser.newContext.bind(browser);
      browser.newContext = async (...args) => {
        const context = await newContext(...args);
        watch(context);
        testContexts?.push(context);
        return context;
      };
      await use();
      browser.newContext = newContext;
    },
    { scope: "worker", auto: true },
  ],
  consoleErrors: [
    async ({}, use) => {
      const problems: string[] = orphans.splice(0);
      const allowed: RegExp[] = [];
      collector = problems;
      testContexts = [];
      await use({ allow: (pattern) => void allowed.push(pattern) });
      const opened = testContexts;
      testContexts = null;
      await Promise.all(opened.map((context) => context.close().catch(() => {})));
      collector = null;
      const unexpected = problems.filter((p) => !allowed.some((a) => a.test(p)));
      expect(unexpected, "browser console errors, hydration warnings, uncaught errors or failed subresources").toEqual([]);
    },
    { auto: true },
  ],
  context: async ({ context }, use) => {
    watch(context);
    await use(context);
  },
  sql: async ({ sqlPool }, use) => use(sqlPool),
  ip: async ({}, use) => use(uniqueIp()),
  extraHTTPHeaders: async ({ ip }, use) => use({ "x-forwarded-for": ip }),
});

/** Fails with the page's widest elements when it scrolls sideways. */
export async function expectNoSidewaysScroll(page: Page, path: string, width: number) {
  const { scrollWidth, culprits } = await page.evaluate((w) => {
    const wide = [...document.querySelectorAll("body *")]
      .filter((el) => el.getBoundingClientRect().right > w + 0.5)
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${(el.getAttribute("class") ?? "").split(" ").slice(0, 3).join(".")}`);
    return { scrollWidth: document.documentElement.scrollWidth, culprits: wide };
  }, width);
  expect(scrollWidth, `${path} is ${scrollWidth}px wide: ${culprits.join(", ")}`).toBeLessThanOrEqual(width);
}

/** What the e2e agency tells clients to pay with (Settings → Payments). */
export const E2E_PAYMENT_INSTRUCTIONS = "Bank transfer to IBAN GB00 TEST 0000 0000 0000 00, with the invoice number as the reference.";

/**
 * #37: without card payments an invoice is sent (and an offer asking a deposit or a schedule) only
 * when the agency wrote its payment instructions. Writes them on the app behind `sql` unless some are
 * there already (specs that share the app do not overwrite each other's).
 */
export async function givePaymentInstructions(sql: pg.Pool, text: string = E2E_PAYMENT_INSTRUCTIONS): Promise<void> {
  await sql.query(
    `insert into settings (id, payment_instructions) values (1, $1)
     on conflict (id) do update set payment_instructions = excluded.payment_instructions where settings.payment_instructions = ''`,
    [text],
  );
}

// ---------------------------------------------------------------------------------------
// Accounts. Requests made with `page.request` share the page's cookies, so these sign the
// page in. The first admin is created at server start from ADMIN_EMAIL / ADMIN_PASSWORD.
// ---------------------------------------------------------------------------------------

export const ADMIN = { email: "admin@portfolio.test", password: "admin-e2e-password" } as const;
export const PASSWORD = "secret-pass-1";

let emailCounter = 0;
/** A unique e-mail for this run. */
export function uniqueEmail(prefix = "user"): string {
  return `${prefix}-${Date.now().toString(36)}-${process.pid}-${++emailCounter}@example.com`;
}

type Page = import("@playwright/test").Page;

async function postForm(page: Page, path: string, form: Record<string, string>, expectPath?: RegExp) {
  const response = await page.request.post(path, { form });
  if (expectPath && !expectPath.test(new URL(response.url()).pathname)) {
    throw new Error(`POST ${path} ended at ${response.url()} (${response.status()})`);
  }
  return response;
}

/** Registers (and signs in) a client. */
export async function registerClient(
  page: Page,
  opts: { email?: string; businessName?: string; referralCode?: string; website?: string } = {},
) {
  const account = { email: opts.email ?? uniqueEmail("client"), password: PASSWORD, businessName: opts.businessName ?? "Acme Bakery" };
  await postForm(
    page,
    "/register",
    {
      businessName: account.businessName,
      email: account.email,
      phone: "301 555 0100",
      password: PASSWORD,
      website: opts.website ?? "",
      referralCode: opts.referralCode ?? "",
    },
    /^\/client-dashboard$/,
  );
  return account;
}

/** Registers (and signs in) an ambassador. */
export async function registerAmbassador(page: Page, opts: { email?: string; referralCode?: string; name?: string } = {}) {
  const account = {
    email: opts.email ?? uniqueEmail("amb"),
    password: PASSWORD,
    name: opts.name ?? "Ann Bassador",
    referralCode: (opts.referralCode ?? `ref-${Date.now().toString(36)}-${++emailCounter}`).toLowerCase(),
  };
  await postForm(
    page,
    "/register/ambassador",
    { name: account.name, email: account.email, phone: "301 555 0101", password: PASSWORD, referralCode: account.referralCode },
    /^\/ambassador\/dashboard$/,
  );
  return account;
}

/** Signs the page in (any role). */
export async function login(page: Page, email: string, password: string = PASSWORD) {
  await postForm(page, "/login", { email, password }, /^\/(admin|ambassador\/dashboard|client-dashboard)$/);
}

/** Signs the page in as the first admin. */
export async function loginAsAdmin(page: Page) {
  await login(page, ADMIN.email, ADMIN.password);
}

/** Options of a new browser context: another app (`baseURL`, default the shared one), no JavaScript, downloads. */
export type PageOptions = { javaScriptEnabled?: boolean; baseURL?: string; acceptDownloads?: boolean };

/** A new signed-out browser context with its own client IP (on the shared app unless `baseURL`). @returns its first page. */
export async function newUserPage(browser: Browser, { baseURL = process.env.E2E_BASE_URL, ...options }: PageOptions = {}): Promise<Page> {
  const context = await browser.newContext({ baseURL, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() }, ...options });
  return context.newPage();
}

/** The admin's signed-in cookies per app, shared by every admin context of this worker (sign-in is rate limited per account). */
const adminStates = new Map<string, Awaited<ReturnType<BrowserContext["storageState"]>>>();

/**
 * A page signed in as the first admin, in its own browser context with its own client IP; the
 * admin signs in once per app and worker and later contexts reuse the cookies.
 * @returns the new context's first page.
 */
export async function adminPage(browser: Browser, { baseURL = process.env.E2E_BASE_URL!, ...options }: PageOptions = {}): Promise<Page> {
  if (!adminStates.has(baseURL)) {
    const page = await newUserPage(browser, { baseURL });
    await loginAsAdmin(page);
    adminStates.set(baseURL, await page.context().storageState());
    await page.context().close();
  }
  const context = await browser.newContext({
    baseURL,
    extraHTTPHeaders: { "x-forwarded-for": uniqueIp() },
    storageState: adminStates.get(baseURL),
    ...options,
  });
  return context.newPage();
}

/** Signs the page out (drops its cookies). */
export async function logout(page: Page) {
  await page.request.post("/logout");
  await page.context().clearCookies();
}

/**
 * Books a meeting for the signed-in client in one of the agency's free slots (a random day and
 * slot, so that tests running at once rarely want the same one; a taken slot is tried again).
 *
 * @returns the booked slot (ISO instant).
 */
export async function bookFreeSlot(page: Page, notes = ""): Promise<string> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const html = await (await page.request.get("/meetings/book?tz=UTC")).text();
    const days = [...html.matchAll(/\?day=(\d{4}-\d{2}-\d{2})/g)].map((m) => m[1]!);
    const day = days[Math.floor(Math.random() * days.length)];
    if (!day) throw new Error("no free day to book");
    const dayHtml = await (await page.request.get(`/meetings/book?tz=UTC&day=${day}`)).text();
    const slots = [...dayHtml.matchAll(/name="slot" value="([^"]+)"/g)].map((m) => m[1]!);
    const slot = slots[Math.floor(Math.random() * slots.length)];
    if (!slot) continue;
    const response = await page.request.post("/meetings/book", { form: { slot, timeZone: "UTC", notes }, maxRedirects: 0 });
    if (response.status() === 302) return slot;
  }
  throw new Error("could not book a free slot");
}
