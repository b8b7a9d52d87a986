/**
 * Bad input: every form posted with missing fields, over-long (1 MB) values,
 * repeated fields (wrong types), unicode, `<script>` and SQL fragments. Invalid input gets a
 * 4xx and writes nothing; hostile-but-valid text is stored as text and rendered escaped;
 * nothing ever gets a 500. Runs on an instance of its own (whole-table comparisons).
 */
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { ADMIN, PASSWORD, expect, givePaymentInstructions, test, uniqueEmail, uniqueIp } from "./fixtures";
import { startIsolatedApp } from "./global-setup";

type Role = "anonymous" | "client" | "ambassador" | "admin";
interface FormCase {
  name: string;
  role: Role;
  path: string | (() => string);
  /** Constant fields (intent, ids) — not varied. */
  fixed?: Record<string, string>;
  /** A valid submission; each field is varied in turn. */
  valid: Record<string, string>;
  /** Fields whose absence is allowed (optional fields). */
  optional?: string[];
}

const MEGABYTE = "x".repeat(1_000_000);
const HOSTILE = [
  `<script>alert("xss")</script>`,
  `'; drop table "user"; --`,
  `Robert'); DELETE FROM proposal WHERE ('1'='1`,
  "Ünïcødé ✓ 😀 \u202Eevil\u202C \u200B zero-width 中文",
];

test.describe("bad input", () => {
  test.describe.configure({ timeout: 300_000 });
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  const as = {} as Record<Role, APIRequestContext>;
  let proposalId = 0;

  test.beforeAll(async () => {
    app = await startIsolatedApp("badinput");
    await givePaymentInstructions(app.sql);
    for (const role of ["anonymous", "client", "ambassador", "admin"] as Role[]) {
      as[role] = await playwrightRequest.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    }
    await as.client.post("/register", {
      form: { businessName: "Bad Input Co", email: uniqueEmail("bad-client"), phone: "1", password: PASSWORD },
    });
    await as.ambassador.post("/register/ambassador", {
      form: { name: "Bad Amb", email: uniqueEmail("bad-amb"), phone: "1", password: PASSWORD, referralCode: `bad-${Date.now()}` },
    });
    await as.admin.post("/login", { form: { email: ADMIN.email, password: ADMIN.password } });
    const { rows } = await app.sql.query(
      `insert into proposal (client_id, source, status, project_details) select id, 'client', 'pending', 'Editable' from "user" where business_name = 'Bad Input Co' returning id`,
    );
    proposalId = rows[0].id;
  });

  test.afterAll(async () => {
    for (const context of Object.values(as)) await context.dispose();
    await app.stop();
  });

  const proposalFields = {
    projectName: "Site",
    projectDetails: "Details",
    timeline: "6 weeks",
    budget: "$5,000",
    targetAudience: "Locals",
    designInspiration: "https://example.com",
    numberOfPages: "5",
    websiteGoal: "Minimal",
  };
  const proposalOptional = ["projectName", "timeline", "budget", "targetAudience", "designInspiration", "numberOfPages", "websiteGoal"];
  const cases: FormCase[] = [
    {
      name: "contact",
      role: "anonymous",
      path: "/contact",
      valid: { user_name: "Ann", user_email: "ann@example.org", user_phone: "301 555 0100", message: "Hello" },
      optional: ["user_phone"],
    },
    { name: "login", role: "anonymous", path: "/login", valid: { email: "nobody@example.org", password: "wrong-password" } },
    {
      name: "register",
      role: "anonymous",
      path: "/register",
      valid: {
        businessName: "B",
        email: "b@example.org",
        phone: "1",
        password: "secret-pass",
        website: "https://b.example",
        referralCode: "",
      },
      // The phone is optional unless Settings ask for it (docs/product.md#registration).
      optional: ["phone", "website", "referralCode"],
    },
    {
      name: "register ambassador",
      role: "anonymous",
      path: "/register/ambassador",
      valid: { name: "N", email: "n@example.org", phone: "1", password: "secret-pass", referralCode: "code-1" },
    },
    { name: "forgot password", role: "anonymous", path: "/forgot-password", valid: { email: "f@example.org" } },
    {
      name: "reset password",
      role: "anonymous",
      path: "/reset-password",
      valid: { token: "not-a-real-token", password: "secret-pass", confirmPassword: "secret-pass" },
    },
    { name: "resend verification link", role: "anonymous", path: "/verify-email", valid: { email: "v@example.org" } },
    { name: "proposal request", role: "client", path: "/proposal-request", valid: proposalFields, optional: proposalOptional },
    {
      name: "edit proposal",
      role: "client",
      path: () => `/edit-proposal/${proposalId}`,
      valid: proposalFields,
      optional: proposalOptional,
    },
    {
      name: "book meeting",
      role: "client",
      path: "/meetings/book",
      valid: { slot: "2031-01-06T10:00:00.000Z", timeZone: "America/New_York", notes: "Hi", proposalId: "" },
      optional: ["notes", "timeZone", "proposalId"],
    },
    {
      name: "revision",
      role: "client",
      path: "/project-status",
      fixed: { intent: "submit-revision" },
      valid: { id: "1", comment: "Change" },
    },
    { name: "decline", role: "client", path: "/client-dashboard", fixed: { intent: "decline-proposal" }, valid: { id: "1", reason: "No" } },
    {
      name: "ambassador proposal",
      role: "ambassador",
      path: "/ambassador/submit-proposal",
      valid: { clientName: "C", clientEmail: "c@example.org", projectName: "P", projectDetails: "D", budget: "100" },
      optional: ["projectName", "budget"],
    },
    {
      name: "proposal status",
      role: "admin",
      path: "/admin/proposals",
      fixed: { intent: "set-status" },
      valid: { proposalId: "1", status: "planning" },
    },
    {
      name: "generate invoice",
      role: "admin",
      path: () => `/admin/generate-invoice/${proposalId}`,
      valid: { "items[0].description": "Design", "items[0].amount": "100", dueDate: "2031-01-31" },
    },
    {
      name: "offer",
      role: "admin",
      path: () => `/admin/proposals/${proposalId}/offer`,
      fixed: { form: "offer", intent: "save-offer" },
      valid: {
        scope: "Work",
        "items[0].description": "Design",
        "items[0].quantity": "2",
        "items[0].unitPrice": "100",
        timeline: "4 weeks",
        depositKind: "percent",
        depositValue: "30",
        validUntil: "2031-01-31",
      },
      optional: ["timeline", "depositKind", "depositValue", "validUntil"],
    },
    {
      name: "accept and sign",
      role: "client",
      path: () => `/proposals/${proposalId}/accept`,
      fixed: { intent: "accept-offer" },
      valid: { typedName: "Ann Baker", agree: "on", version: "1" },
    },
    {
      name: "settings",
      role: "admin",
      path: "/admin/settings",
      valid: {
        companyName: "Co",
        supportEmail: "s@example.org",
        defaultTimeline: "4 weeks",
        allowNewClients: "on",
        commissionRatePercent: "15",
      },
      optional: ["companyName", "supportEmail", "defaultTimeline", "allowNewClients"],
    },
    {
      name: "account settings",
      role: "client",
      path: "/account",
      fixed: { intent: "preferences" },
      valid: { notifyUpdates: "on" },
      optional: ["notifyUpdates"],
    },
    {
      name: "account profile",
      role: "client",
      path: "/account",
      fixed: { intent: "profile" },
      valid: { businessName: "Co", phone: "301 555 0100", website: "https://co.example" },
      optional: ["website"],
    },
  ];

  const snapshot = async () => {
    const parts: string[] = [];
    for (const table of ["user", "proposal", "meeting", "invoice", "invoice_item", "settings", "contact_message"]) {
      const { rows } = await app.sql.query(
        `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from "${table}" t`,
      );
      parts.push(`${table}:${rows[0].n}:${rows[0].h}`);
    }
    return parts;
  };

  for (const form of cases) {
    test(`${form.name}: missing and 1 MB fields get a 4xx with a message and write nothing; repeated fields and hostile text never 500`, async () => {
      const path = typeof form.path === "function" ? form.path() : form.path;
      // Anonymous posts use a fresh context each (a successful sign-up would sign it in).
      const client = async () =>
        form.role === "anonymous"
          ? playwrightRequest.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } })
          : as[form.role];
      const send = async (options: Parameters<APIRequestContext["post"]>[1]) => {
        const context = await client();
        const response = await context.post(path, { maxRedirects: 0, ...options });
        const result = { status: response.status(), body: await response.text() };
        if (context !== as[form.role]) await context.dispose();
        return result;
      };
      const post = (fields: Record<string, string>, multipart = false) =>
        send(multipart ? { multipart: { ...form.fixed, ...fields } } : { form: { ...form.fixed, ...fields } });
      const problems: string[] = [];
      const refused = async (label: string, fields: Record<string, string>) => {
        const before = await snapshot();
        const { status, body } = await post(fields);
        if (status < 400 || status >= 500) problems.push(`${label}: status ${status}`);
        else if (
          !/must be at most|is required|required\.|Enter |Invalid|Choose|Pick|not found|incomplete|too large|at least|Describe|Tell us|Wrong email|Too many|No proposal|closed|confirm|must|can only/i.test(
            body,
          )
        )
          problems.push(`${label}: ${status} without a clear message`);
        if (JSON.stringify(await snapshot()) !== JSON.stringify(before)) problems.push(`${label}: the database changed`);
      };

      // (A form whose fields are all optional, e.g. a lone checkbox, is valid when empty.)
      if (!Object.keys(form.valid).every((f) => form.optional?.includes(f))) await refused("all fields missing", {});
      for (const field of Object.keys(form.valid)) {
        if (!form.optional?.includes(field)) {
          const { [field]: _omit, ...rest } = form.valid;
          await refused(`${field} missing`, rest);
        }
        if (field !== "allowNewClients" && field !== "notifyUpdates")
          await refused(`${field} of 1 MB`, { ...form.valid, [field]: MEGABYTE });
      }
      // Wrong types: a field sent twice (an array), or as a file.
      for (const field of Object.keys(form.valid)) {
        const response = await send({
          headers: { "content-type": "application/x-www-form-urlencoded" },
          data: new URLSearchParams([...Object.entries({ ...form.fixed, ...form.valid }), [field, "second value"]]).toString(),
        });
        if (response.status >= 500) problems.push(`${field} repeated: ${response.status}`);
      }
      const multipart = await post(form.valid, true);
      if (multipart.status >= 500) problems.push(`multipart body: ${multipart.status}`);
      for (const text of HOSTILE) {
        const textFields = Object.fromEntries(
          Object.entries(form.valid).map(([k, v]) => [
            k,
            /email|date|time|timeZone|slot|status|amount|budget|number|Pages|id$|Id$|token|password|Percent|website|Inspiration|allow|notify|referralCode/i.test(
              k,
            )
              ? v
              : `${v} ${text}`,
          ]),
        );
        const { status, body } = await post(textFields);
        if (status >= 500) problems.push(`hostile text ${JSON.stringify(text.slice(0, 12))}: ${status}`);
        if (body.includes(`<script>alert("xss")</script>`)) problems.push("unescaped <script> in the response");
      }
      expect(problems).toEqual([]);
    });
  }

  test("stored hostile text renders escaped on the pages that show it", async ({ browser }) => {
    const marker = `<script>window.__xss = 1</script><img src=x onerror="window.__xss=2">`;
    await as.client.post("/proposal-request", { form: { projectName: `Name ${marker}`, projectDetails: `Details ${marker}` } });
    const context = await browser.newContext({ baseURL: app.baseUrl, storageState: await as.client.storageState() });
    const page = await context.newPage();
    for (const path of ["/project-status"]) {
      await page.goto(path);
      await expect(page.getByText(`Name ${marker}`).first()).toBeVisible();
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    }
    const adminContext = await browser.newContext({ baseURL: app.baseUrl, storageState: await as.admin.storageState() });
    const adminPage = await adminContext.newPage();
    await adminPage.goto("/admin/proposals");
    await expect(adminPage.getByText(`Name ${marker}`).first()).toBeVisible();
    expect(await adminPage.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await context.close();
    await adminContext.close();
  });
});
