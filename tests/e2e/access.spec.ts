/**
 * Access matrix (issues #23, #25, #38): every route of the route config and every URL outside it ×
 * ten identities — anonymous, client A (the owner of the records' organisation), client B (another
 * organisation's owner), ambassador A (who referred A and submitted A's proposal), ambassador B
 * (another ambassador), the admin, a deactivated user, and the people A invited into A's
 * organisation: a billing person, a member, and a member A removed since (docs/product.md#organisations)
 * — against the product rules (docs/product.md#roles,
 * #conversations, #files, #invoice-link, #commissions-ledger, #certificates, #download-my-data):
 *
 * - Routes without a parameter: the page for the route's role (any role for /account), the
 *   identity's home for another role, /login?redirectTo=… for anonymous and deactivated users.
 * - Routes with a parameter: one row of {@link RECORD_MATRIX} each, opened with REAL ids of client
 *   A's records seeded in `beforeAll` (a conversation with a shared message, a file uploaded
 *   through the upload endpoint, an agency reply and an internal note, status events, an accepted
 *   offer and its certificate, an invoice with a payment, ambassador A's commission entries and
 *   payout, meetings, a contact message, the logo, a data export, a signed invoice link made by
 *   the app's own `signedInvoicePath`). Every parameterised route of app/routes.ts must have a row
 *   and every parameter a real-id provider, or the first test fails: a new route cannot escape.
 *   Besides the status or redirect, no response but the owner's and the admin's may carry A's
 *   messages or files, and none but the admin's the internal note.
 * - Outside the route config: the signed link /i/:token (and /pdf) opens its one invoice and
 *   nothing else (another id, another MAC → 404; no session cookie), /events, the webhooks.
 *   Receipts have no URL of their own: they are mail attachments, and their link is /i/:token.
 * - Writes: a POST of each wrong role to each guarded route is redirected by the guard; posting a
 *   message, uploading a file, writing an internal note, recording a payment or creating a payout
 *   as a non-admin, accepting or declining A's offer as anyone but A are refused — and the
 *   database is unchanged (whole-table snapshots).
 *
 * Routes are enumerated from app/routes.ts (tests/e2e/route-config.ts).
 */
import crypto from "node:crypto";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import { openDatabase } from "../../app/db/client.server";
import { signedInvoicePath } from "../../app/features/payments/invoice-link.server";
import { ADMIN, PASSWORD, expect, test, uniqueEmail, uniqueIp } from "./fixtures";
import { startIsolatedApp } from "./global-setup";
import { configuredRoutes, type ConfiguredRoute } from "./route-config";
import { openSse } from "../helpers/sse";

type Area = "client" | "ambassador" | "admin" | "account";
type Role = Exclude<Area, "account">;
/** The ten identities, in the order of the matrix's columns. */
const IDENTITIES = [
  "anonymous",
  "clientA",
  "clientB",
  "ambassadorA",
  "ambassadorB",
  "admin",
  "deactivated",
  "billingA",
  "memberA",
  "removedA",
] as const;
type Identity = (typeof IDENTITIES)[number];
/** The role an identity is signed in with (null: not signed in, or deactivated — the guard treats both as signed out). */
const ROLE: Record<Identity, Role | null> = {
  anonymous: null,
  clientA: "client",
  clientB: "client",
  ambassadorA: "ambassador",
  ambassadorB: "ambassador",
  admin: "admin",
  deactivated: null,
  billingA: "client",
  memberA: "client",
  removedA: "client",
};

/**
 * Client pages a role in the organisation does not cover (docs/product.md#organisations): a 404.
 * (`/messages` is everyone's: a billing person lists the conversations an owner added them to.)
 */
const PROJECT_PAGES = ["/project-status", "/proposal-request", "/meetings", "/meetings/book"];
const MONEY_PAGES = ["/invoices", "/payment-method"];
const HOME: Record<Role, string> = {
  admin: "/admin",
  ambassador: "/ambassador/dashboard",
  client: "/client-dashboard",
};

/** A guarded route without a parameter: the page, or the guard's redirect. */
function expected(identity: Identity, area: Area, path: string): { redirect: string } | { allowed: true } | { status: number } {
  const role = ROLE[identity];
  if (role === null) return { redirect: `/login?redirectTo=${encodeURIComponent(path)}` };
  if (area === "client" && identity === "removedA") return { status: 403 };
  if (area === "client" && identity === "billingA" && PROJECT_PAGES.includes(path)) return { status: 404 };
  if (area === "client" && identity === "memberA" && MONEY_PAGES.includes(path)) return { status: 404 };
  if (role === area || area === "account") return { allowed: true };
  return { redirect: HOME[role] };
}

/** Texts of client A's records (unique per run): where each may appear is what the matrix checks. */
const stamp = Date.now().toString(36);
const SECRET = {
  project: `A-PROJECT-${stamp}`,
  message: `A-MESSAGE-${stamp}`,
  reply: `A-AGENCY-REPLY-${stamp}`,
  note: `A-INTERNAL-NOTE-${stamp}`,
  file: `a-brief-${stamp}.pdf`,
  line: `A-INVOICE-LINE-${stamp}`,
  invoice: `INV-A-${stamp}`,
  payout: `A-PAYOUT-${stamp}`,
  contact: `A-CONTACT-${stamp}`,
};
const PDF = Buffer.from(
  "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
);
/** A valid 1×1 PNG (the PDFs draw the logo: a PNG whose zlib data is corrupt must not be seeded, see the report). */
const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63304e9bf91f00043402325b2d0ae00000000049454e44ae426082",
  "hex",
);

/** The real ids of the seeded records, filled in `beforeAll`. */
interface Ids {
  /** A's proposal, submitted by ambassador A: conversation, files, accepted offer, invoice, payment. */
  proposal: number;
  /** A's own request, still pending (editable). */
  request: number;
  /** A's proposal awaiting acceptance of its offer version 1 (no invoice yet). */
  offered: number;
  invoice: number;
  file: number;
  message: number;
  meeting: number;
  certificate: string;
  payout: number;
  contactMessage: number;
  logoVersion: string;
  /** The token of A's data export (/account/my-data/:token). */
  exportToken: string;
  /** The token of the signed link to A's invoice (/i/:token). */
  linkToken: string;
  /** Another invoice of A, and one of B (for the link's id swap). */
  secondInvoice: number;
  invoiceB: number;
  /** Client B's own proposal (for ids mixed across owners). */
  proposalB: number;
  /** A's organisation, and the token of an invitation into it nobody accepted yet. */
  organisation: number;
  invitationToken: string;
  /** A testimonial asked of A's organisation (issue #40). */
  testimonial: number;
  /** A paused billing plan of A's organisation (issue #39; paused: it issues nothing during the run). */
  billingPlan: number;
}

/**
 * Each parameter's real-id provider: the value a route's parameter takes (a row may name another
 * record of the same kind). A route whose parameter has no provider fails the coverage test.
 */
const PARAM: Record<string, (ids: Ids) => string> = {
  proposalId: (ids) => String(ids.proposal),
  invoiceId: (ids) => String(ids.invoice),
  meetingId: (ids) => String(ids.meeting),
  fileId: (ids) => String(ids.file),
  certificateId: (ids) => ids.certificate,
  recordKind: () => "invoice",
  recordId: (ids) => String(ids.invoice),
  payoutId: (ids) => String(ids.payout),
  messageId: (ids) => String(ids.contactMessage),
  organisationId: (ids) => String(ids.organisation),
  planId: (ids) => String(ids.billingPlan),
  // Issue #40: the first seeded case study (migration 0030), no uploaded screenshot, A's testimonial.
  slug: () => "project1",
  caseStudyId: () => "1",
  imageId: () => "1",
  variant: () => "640.webp",
  testimonialId: (ids) => String(ids.testimonial),
  version: (ids) => ids.logoVersion,
  // /passkey/:step: a step name, not a record; its GET is a 404 for everyone (the steps are JSON posts).
  step: () => "sign-in-options",
  "*": () => `no-such-page-${stamp}`,
};

/**
 * The record matrix: one row per parameterised route of app/routes.ts (path pattern), the outcome
 * per identity in the order of {@link IDENTITIES}, and the parameters that name another record
 * than {@link PARAM}'s. Outcomes: a status (200, 404); `L` a 302 to /login?redirectTo=<path>;
 * `H` a 302 to the identity's home (its role's area guard).
 */
// prettier-ignore
const RECORD_MATRIX: [pattern: string, outcomes: string, params?: Partial<Record<string, (ids: Ids) => string>>][] = [
  //                                                           anon A    B    ambA ambB admin gone  bill mem  rem
  // Public site: a certificate is checked by anyone holding it; a signed link opens its invoice for anyone.
  ["/verify/:certificateId",                                  "200  200  200  200  200  200  200  200  200  200"],
  ["/i/:token",                                               "200  200  200  200  200  200  200  200  200  200", { token: (ids) => ids.linkToken }],
  ["/i/:token/pdf",                                           "200  200  200  200  200  200  200  200  200  200", { token: (ids) => ids.linkToken }],
  ["/*",                                                      "404  404  404  404  404  404  404  404  404  404"],
  ["/passkey/:step",                                          "404  404  404  404  404  404  404  404  404  404"],
  ["/brand/logo/:version",                                    "200  200  200  200  200  200  200  200  200  200"],
  // Client area: the owner; another client 404; other roles home. The upload endpoint has no GET (404).
  ["/proposals/:proposalId",                                  "L    200  404  H    H    H    L  404  200  403"],
  ["/proposals/:proposalId/accept",                           "L    200  404  H    H    H    L  404  200  403", { proposalId: (ids) => String(ids.offered) }],
  ["/proposals/:proposalId/messages",                         "L    404  404  H    H    H    L  404  404  403"],
  ["/proposals/:proposalId/files",                            "L    200  404  H    H    H    L  404  200  403"],
  ["/proposals/:proposalId/files/:fileId",                    "L    200  404  H    H    H    L  404  200  403"],
  ["/proposals/:proposalId/certificate/:certificateId",       "L    200  404  H    H    H    L  404  200  403"],
  ["/edit-proposal/:proposalId",                              "L    200  404  H    H    H    L  404  200  403", { proposalId: (ids) => String(ids.request) }],
  ["/view-invoice/:invoiceId",                                "L    200  404  H    H    H    L  200  404  403"],
  ["/view-invoice/:invoiceId/pdf",                            "L    200  404  H    H    H    L  200  404  403"],
  ["/client-dashboard/meetings/:meetingId/ics",               "L    200  404  H    H    H    L  404  200  403"],
  ["/meetings/:meetingId/reschedule",                         "L    200  404  H    H    H    L  404  200  403"],
  // Ambassador area: the status events of a proposal the ambassador submitted; another ambassador 404.
  ["/ambassador/proposals/:proposalId",                       "L    H    H    200  404  H    L  H    H    H"],
  // Admin console: the admin; every other role home.
  ["/admin/proposals/:proposalId",                            "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/proposals/:proposalId/offer",                      "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/proposals/:proposalId/messages",                   "L    H    H    H    H    404  L  H    H    H"],
  ["/admin/proposals/:proposalId/files",                      "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/proposals/:proposalId/files/:fileId",              "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/proposals/:proposalId/certificate/:certificateId", "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/invoices/edit/:invoiceId",                         "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/invoices/:invoiceId/payments",                     "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/invoices/:invoiceId/pdf",                          "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/generate-invoice/:proposalId",                     "L    H    H    H    H    200  L  H    H    H", { proposalId: (ids) => String(ids.offered) }],
  ["/admin/meetings/:meetingId/reschedule",                   "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/ambassadors/payouts/:payoutId/export.csv",         "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/messages/:messageId",                              "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/reminders/:recordKind/:recordId",                  "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/organisations/:organisationId",                    "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/billing-plans/:planId",                            "L    H    H    H    H    200  L  H    H    H"],
  // Issue #40, the portfolio: a published case study and its link preview image are public; an
  // uploaded screenshot of no published case study is nobody's (none is seeded); the draft's
  // preview, editor and "Make a case study draft" are the admin's; a testimonial is its organisation owner's.
  ["/:slug",                                                  "200  200  200  200  200  200  200  200  200  200"],
  ["/portfolio/og/:caseStudyId",                              "200  200  200  200  200  200  200  200  200  200"],
  ["/portfolio/images/:imageId/:variant",                     "404  404  404  404  404  404  404  404  404  404"],
  ["/portfolio/preview/:caseStudyId",                         "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/case-studies/:caseStudyId",                        "L    H    H    H    H    200  L  H    H    H"],
  ["/admin/proposals/:proposalId/case-study",                 "L    H    H    H    H    200  L  H    H    H"],
  ["/testimonials/:testimonialId",                            "L    200  404  H    H    H    L  404  404  403"],
  // An invitation into A's organisation: a public page for whoever holds the link.
  ["/invitations/:token",                                     "200  200  200  200  200  200  200  200  200  200", { token: (ids) => ids.invitationToken }],
  // Any signed-in user's data export: its owner only (everyone else, the admin too, 404).
  ["/account/my-data/:token",                                 "L    200  404  404  404  404  L  404  404  404", { token: (ids) => ids.exportToken }],
];

/** What a 200 response of a row must show (the record itself), besides what it must not. */
const SHOWS: Record<string, string> = {
  "/:slug": "Internship Hub",
  "/admin/case-studies/:caseStudyId": "Edit: Internship Hub",
  "/testimonials/:testimonialId": `${SECRET.project} request`,
  "/verify/:certificateId": "This acceptance stands.",
  "/i/:token": SECRET.invoice,
  "/i/:token/pdf": "%PDF",
  "/proposals/:proposalId": SECRET.message,
  "/proposals/:proposalId/files": SECRET.file,
  "/proposals/:proposalId/accept": SECRET.line,
  "/invitations/:token": "You are invited to",
  "/admin/organisations/:organisationId": "Matrix A Co",
  "/admin/billing-plans/:planId": "Matrix retainer",
  "/proposals/:proposalId/files/:fileId": "%PDF",
  "/view-invoice/:invoiceId": SECRET.line,
  "/client-dashboard/meetings/:meetingId/ics": "BEGIN:VCALENDAR",
  "/ambassador/proposals/:proposalId": "changed the status from Submitted to Planning",
  "/admin/proposals/:proposalId": SECRET.note,
  "/admin/proposals/:proposalId/files": SECRET.file,
  "/admin/proposals/:proposalId/offer": "Version 2",
  "/admin/ambassadors/payouts/:payoutId/export.csv": SECRET.payout,
  "/admin/messages/:messageId": SECRET.contact,
};

/** The parameter names of a path pattern (`*` for a splat). */
function paramsOf(pattern: string): string[] {
  return [...pattern.matchAll(/:(\w+)|(\*)/g)].map((m) => m[1] ?? "*");
}

/** A pattern with its parameters replaced by real ids; throws when a parameter has no provider. */
function fill(pattern: string, ids: Ids, overrides: Partial<Record<string, (ids: Ids) => string>> = {}): string {
  return pattern.replace(/:(\w+)|\*/g, (whole, name: string | undefined) => {
    const provider = overrides[name ?? "*"] ?? PARAM[name ?? "*"];
    if (!provider) throw new Error(`no real-id provider for ${whole} in ${pattern}`);
    return encodeURIComponent(provider(ids));
  });
}

/**
 * Checks one answer against its outcome and the leak rules.
 * @returns the failures (empty when it is as expected).
 */
function judge(
  identity: Identity,
  path: string,
  want: string,
  answer: { status: number; location: string; body: string },
  shows?: string,
): string[] {
  const failures: string[] = [];
  const got = `${answer.status}${answer.location ? ` → ${answer.location}` : ""}`;
  if (want === "L" || want === "H") {
    const role = ROLE[identity];
    const target = want === "L" ? `/login?redirectTo=${encodeURIComponent(path)}` : role ? HOME[role] : "(no home)";
    if (answer.status !== 302 || answer.location !== target) failures.push(`${identity} GET ${path}: ${got}, want 302 → ${target}`);
  } else if (answer.status !== Number(want)) {
    failures.push(`${identity} GET ${path}: ${got}, want ${want}`);
  } else if (answer.status === 200 && shows && !answer.body.includes(shows)) {
    failures.push(`${identity} GET ${path}: 200 without "${shows}"`);
  }
  // Leaks: the note is the agency's; A's messages and files are A's and the agency's.
  if (identity !== "admin" && answer.body.includes(SECRET.note)) failures.push(`${identity} GET ${path}: shows the internal note`);
  // A's member sees A's conversation (a member of A's organisation); the billing person does not.
  if (identity !== "admin" && identity !== "clientA" && identity !== "memberA") {
    for (const secret of [SECRET.message, SECRET.reply, SECRET.file]) {
      if (answer.body.includes(secret)) failures.push(`${identity} GET ${path}: shows ${secret}`);
    }
    // A refusal shows nothing of A's at all.
    if (answer.status !== 200) {
      for (const secret of Object.values(SECRET)) {
        if (answer.body.includes(secret)) failures.push(`${identity} GET ${path} (${answer.status}): shows ${secret}`);
      }
    }
  }
  return failures;
}

/**
 * The rows a snapshot compares: the whole table, except the mail outbox, whose delivery columns
 * (attempts, next try, sent time) the outbox worker updates at any moment — there only what a
 * request could write (which mails exist, to whom, with what content) counts.
 */
function rowsOf(table: string): string {
  return table === "mail_outbox" ? `(select id, "to", reply_to, subject, text, html, created_at from mail_outbox)` : `"${table}"`;
}

/** Tables a refused write must leave as they were. */
const WRITTEN_TABLES = [
  "user",
  "account",
  "proposal",
  "proposal_message",
  "proposal_thread",
  "file",
  "file_object",
  "meeting",
  "invoice",
  "invoice_item",
  "payments",
  "settings",
  "contact_message",
  "mail_outbox",
  "commission_entries",
  "payouts",
  "proposal_version",
  "proposal_acceptance",
  "audit_event",
  "reminders_sent",
];

/** One hash per table (row count and an MD5 of its rows in order). */
async function snapshot(sql: import("pg").Pool, tables: string[]): Promise<string[]> {
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql.query(
      `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${rowsOf(table)} t`,
    );
    parts.push(`${table}:${rows[0].n}:${rows[0].h}`);
  }
  return parts;
}

test.describe("access matrix", () => {
  test.describe.configure({ mode: "serial", timeout: 180_000 });
  const contexts = {} as Record<Identity, APIRequestContext>;
  const ids = {} as Ids;
  const emails = {} as Record<Identity, string>;
  const userIds = {} as Record<Identity, string>;
  // An instance of its own: the write check compares whole tables, which other tests change.
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;

  const guarded = () =>
    configuredRoutes
      .filter((r): r is ConfiguredRoute & { area: Area } => r.area !== undefined)
      .map(({ area, path }) => ({
        area,
        pattern: path,
        path: fill(path, ids, path.startsWith("/account/my-data/") ? { token: (i) => i.exportToken } : {}),
      }));

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    app = await startIsolatedApp("access");
    const q = (text: string, values: unknown[] = []) => app.sql.query(text, values).then((r) => r.rows);
    for (const identity of IDENTITIES) {
      contexts[identity] = await playwrightRequest.newContext({
        baseURL: app.baseUrl,
        extraHTTPHeaders: { "x-forwarded-for": uniqueIp() },
      });
    }
    const ok = (r: { url(): string }) => expect(new URL(r.url()).pathname).not.toBe("/login");
    const referralA = `mx-a-${stamp}`;
    const register = async (identity: Identity, path: string, form: Record<string, string>) => {
      emails[identity] = uniqueEmail(`mx-${identity.toLowerCase()}`);
      ok(await contexts[identity].post(path, { form: { phone: "1", password: PASSWORD, ...form, email: emails[identity] } }));
    };
    await register("ambassadorA", "/register/ambassador", { name: "Amb A", referralCode: referralA });
    await register("ambassadorB", "/register/ambassador", { name: "Amb B", referralCode: `mx-b-${stamp}` });
    await register("clientA", "/register", { businessName: "Matrix A Co", referralCode: referralA });
    await register("clientB", "/register", { businessName: "Matrix B Co" });
    await register("deactivated", "/register", { businessName: "Gone Co" });
    ok(await contexts.admin.post("/login", { form: { email: ADMIN.email, password: ADMIN.password } }));
    emails.admin = ADMIN.email;
    for (const identity of ["clientA", "clientB", "ambassadorA", "ambassadorB", "deactivated", "admin"] as const) {
      userIds[identity] = (await q(`select id from "user" where email = $1`, [emails[identity]]))[0].id;
    }
    const a = userIds.clientA;
    const ambA = userIds.ambassadorA;
    await q(`update "user" set email_verified = true where id = $1`, [a]);
    ids.organisation = (await q(`select organisation_id from membership where user_id = $1`, [a]))[0].organisation_id;
    ids.billingPlan = (
      await q(
        `insert into billing_plan (organisation_id, name, items, total_cents, frequency, start_date, due_days, status, next_cycle_on)
         values ($1, 'Matrix retainer', '[{"description":"Care","amountCents":1000}]', 1000, 'monthly', '2099-01-01', 14, 'paused', '2099-01-01') returning id`,
        [ids.organisation],
      )
    )[0].id;
    // A invites a billing person, a member and a member removed later; each creates their login from the mail's link.
    const tokenFor = async (email: string) =>
      /\/invitations\/([\w-]+)/.exec(
        (await q(`select text from mail_outbox where "to" = $1 order by id desc limit 1`, [email]))[0].text,
      )![1]!;
    for (const [identity, role] of [
      ["billingA", "billing"],
      ["memberA", "member"],
      ["removedA", "member"],
    ] as const) {
      emails[identity] = uniqueEmail(`mx-${identity.toLowerCase()}`);
      const invited = await contexts.clientA.post("/organisation", { form: { intent: "invite", email: emails[identity], role } });
      expect(invited.status(), await invited.text()).toBe(200);
      ok(
        await contexts[identity].post(`/invitations/${await tokenFor(emails[identity])}`, {
          form: { intent: "create-account", name: `Matrix ${role}`, password: PASSWORD },
        }),
      );
      userIds[identity] = (await q(`select id from "user" where email = $1`, [emails[identity]]))[0].id;
    }
    // An invitation nobody accepted yet (its page is public for whoever holds the link).
    const pending = uniqueEmail("mx-pending");
    expect((await contexts.clientA.post("/organisation", { form: { intent: "invite", email: pending, role: "member" } })).status()).toBe(
      200,
    );
    ids.invitationToken = await tokenFor(pending);

    // A's proposal, submitted by ambassador A (approved at 10 %), now Planning; A's pending request; an offer awaiting A.
    const proposal = async (values: string, params: unknown[]) =>
      (
        await q(
          `insert into proposal (client_id, ambassador_id, client_email, source, status, project_name, project_details, commission_rate_bps, client_approved_at)
           values ${values} returning id`,
          params,
        )
      )[0].id as number;
    ids.proposal = await proposal(`($1, $2, $3, 'ambassador', 'planning', $4, 'A brief', 1000, now())`, [
      a,
      ambA,
      emails.clientA,
      SECRET.project,
    ]);
    ids.request = await proposal(`($1, null, null, 'client', 'pending', $2, 'A request', null, null)`, [a, `${SECRET.project} request`]);
    ids.offered = await proposal(`($1, null, null, 'client', 'awaiting_acceptance', $2, 'A offer', null, null)`, [
      a,
      `${SECRET.project} offer`,
    ]);
    // Issue #40: a testimonial asked of A's organisation about A's request.
    ids.testimonial = (
      await q(`insert into testimonial (proposal_id, organisation_id) values ($1, $2) returning id`, [ids.request, ids.organisation])
    )[0].id;
    await q(
      `insert into audit_event (actor_id, actor_email, entity, entity_id, action, before, after, proposal_id)
       values ($1, $2, 'proposal', $3, 'status-changed', '{"status":"submitted"}', '{"status":"planning"}', $4)`,
      [userIds.admin, ADMIN.email, String(ids.proposal), ids.proposal],
    );
    // The conversation: A posts a message with a file through the upload endpoint; the agency replies and writes a note.
    const form = new FormData();
    form.append("text", SECRET.message);
    form.append("files", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), SECRET.file);
    const posted = await contexts.clientA.post(`/proposals/${ids.proposal}/messages`, { multipart: form });
    expect(posted.status(), await posted.text()).toBe(200);
    ids.message = (await q(`select id from proposal_message where proposal_id = $1`, [ids.proposal]))[0].id;
    ids.file = (await q(`select id from file where proposal_id = $1`, [ids.proposal]))[0].id;
    await q(
      `insert into proposal_message (proposal_id, author_id, author_name, author_role, body, visibility)
       values ($1, $2, 'Agency', 'agency', $3, 'shared'), ($1, $2, 'Agency', 'agency', $4, 'internal')`,
      [ids.proposal, userIds.admin, SECRET.reply, SECRET.note],
    );
    // Offer version 1 of both proposals; A accepted the first (its certificate).
    const terms = (proposalId: number) =>
      JSON.stringify({
        proposalId,
        version: 1,
        projectName: SECRET.project,
        scope: "A scope",
        items: [{ description: SECRET.line, quantity: 1, unitPriceCents: 100_000, lineTotalCents: 100_000 }],
        totalCents: 100_000,
        currency: "USD",
        timeline: "",
        deposit: null,
        validUntil: null,
        termsAndConditions: null,
      });
    const version = async (proposalId: number) =>
      (
        await q(`insert into proposal_version (proposal_id, number, terms, sha256) values ($1, 1, $2, $3) returning id`, [
          proposalId,
          terms(proposalId),
          "a".repeat(64),
        ])
      )[0].id as number;
    const versionId = await version(ids.proposal);
    await version(ids.offered);
    ids.certificate = `mxCertificate${stamp}`;
    await q(
      `insert into proposal_acceptance (proposal_id, version_id, version_number, user_id, typed_name, email, sha256, ip, user_agent, certificate_id)
       values ($1, $2, 1, $3, 'A Signer', $4, $5, '203.0.113.1', 'UA', $6)`,
      [ids.proposal, versionId, a, emails.clientA, "a".repeat(64), ids.certificate],
    );
    // The invoice, its line and a payment; ambassador A's commission on it, paid out, and one more payable entry.
    const invoice = async (number: string, proposalId: number, clientId: string) =>
      (
        await q(
          `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ($1, $2, $3, '2031-01-01', 100000) returning id`,
          [number, proposalId, clientId],
        )
      )[0].id as number;
    ids.invoice = await invoice(SECRET.invoice, ids.proposal, a);
    await q(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, $2, 100000)`, [
      ids.invoice,
      SECRET.line,
    ]);
    ids.secondInvoice = await invoice(`${SECRET.invoice}-2`, ids.request, a);
    ids.proposalB = await proposal(`($1, null, null, 'client', 'planning', 'B project', 'B brief', null, null)`, [userIds.clientB]);
    ids.invoiceB = await invoice(`INV-B-${stamp}`, ids.proposalB, userIds.clientB);
    const [{ id: paymentId }] = await q(
      `insert into payments (invoice_id, amount_cents, currency, method, received_at, recorded_by) values ($1, 10000, 'USD', 'bank_transfer', now(), $2) returning id`,
      [ids.invoice, userIds.admin],
    );
    ids.payout = (
      await q(
        `insert into payouts (ambassador_id, total_cents, currency, reference, method, paid_at, created_by) values ($1, 1000, 'USD', $2, 'bank_transfer', now(), $3) returning id`,
        [ambA, SECRET.payout, userIds.admin],
      )
    )[0].id;
    await q(
      `insert into commission_entries (ambassador_id, proposal_id, invoice_id, payment_id, kind, base_cents, rate_bps, amount_cents, currency, payable_at, payout_id)
       values ($1, $2, $3, $4, 'payment', 10000, 1000, 1000, 'USD', now() - interval '1 day', $5),
              ($1, $2, $3, null, 'historical', 5000, 1000, 500, 'USD', now() - interval '1 day', null)`,
      [ambA, ids.proposal, ids.invoice, paymentId, ids.payout],
    );
    // A's meeting, a contact message, the agency's logo, A's data export.
    ids.meeting = (
      await q(
        `insert into meeting (user_id, starts_at, ends_at, time_zone, status, proposal_id)
         values ($1, now() + interval '3 days', now() + interval '3 days 1 hour', 'UTC', 'accepted', $2) returning id`,
        [a, ids.proposal],
      )
    )[0].id;
    ids.contactMessage = (
      await q(`insert into contact_message (user_name, user_email, message) values ('A', $1, $2) returning id`, [
        emails.clientA,
        SECRET.contact,
      ])
    )[0].id;
    ids.logoVersion = crypto.createHash("sha256").update(PNG).digest("hex").slice(0, 20);
    await q(`insert into brand_logo (id, content_type, data_base64, version) values (1, 'image/png', $1, $2)`, [
      PNG.toString("base64"),
      ids.logoVersion,
    ]);
    ids.exportToken = crypto.randomBytes(24).toString("base64url");
    await q(
      `insert into data_export (user_id, status, token_hash, archive, size_bytes, ready_at, expires_at)
       values ($1, 'ready', $2, $3, 4, now(), now() + interval '1 day')`,
      [a, crypto.createHash("sha256").update(ids.exportToken).digest("hex"), Buffer.from("PK\u0005\u0006")],
    );
    // The signed link of A's invoice, made by the app's own code (as the invoice and receipt mails do).
    const handle = await openDatabase({ url: app.databaseUrl });
    try {
      ids.linkToken = (await signedInvoicePath(handle.db, ids.invoice, a)).slice("/i/".length);
    } finally {
      await handle.close();
    }
    // The deactivated user: signed in before, deactivated since.
    await q(`update "user" set banned = true where id = $1`, [userIds.deactivated]);
    // The removed member: signed in before, removed from A's organisation by A since.
    const removed = await contexts.clientA.post("/organisation", { form: { intent: "remove", id: userIds.removedA, confirm: "yes" } });
    expect(removed.status(), await removed.text()).toBe(200);
  });

  test.afterAll(async () => {
    for (const context of Object.values(contexts)) await context.dispose();
    await app.stop();
  });

  test("every parameterised route has a row and every parameter a real-id provider", () => {
    const parameterised = configuredRoutes.filter((r) => paramsOf(r.path).length > 0).map((r) => r.path);
    const rows = RECORD_MATRIX.map(([pattern]) => pattern);
    expect(
      parameterised.filter((p) => !rows.includes(p)),
      "parameterised routes without a row in RECORD_MATRIX",
    ).toEqual([]);
    expect(
      rows.filter((p) => !parameterised.includes(p)),
      "rows of routes no longer in app/routes.ts",
    ).toEqual([]);
    const missing = RECORD_MATRIX.flatMap(([pattern, , overrides]) =>
      paramsOf(pattern)
        .filter((name) => !(overrides ?? {})[name] && !PARAM[name])
        .map((name) => `${pattern}: ${name}`),
    );
    expect(missing, "parameters without a real-id provider").toEqual([]);
    for (const [pattern, outcomes] of RECORD_MATRIX) {
      expect(outcomes.trim().split(/\s+/), pattern).toHaveLength(IDENTITIES.length);
    }
    expect(guarded().filter((r) => r.area === "client").length).toBeGreaterThanOrEqual(5);
    expect(guarded().filter((r) => r.area === "ambassador").length).toBeGreaterThanOrEqual(3);
    expect(guarded().filter((r) => r.area === "admin").length).toBeGreaterThanOrEqual(8);
    expect(guarded().filter((r) => r.area === "account").length).toBeGreaterThanOrEqual(1);
  });

  test("GET, routes without a parameter: each identity gets the page or the spec's redirect", async () => {
    const failures: string[] = [];
    for (const { area, path } of guarded().filter((r) => paramsOf(r.pattern).length === 0)) {
      for (const identity of IDENTITIES) {
        const response = await contexts[identity].get(path, { maxRedirects: 0 });
        const want = expected(identity, area, path);
        const status = response.status();
        const location = response.headers()["location"] ?? "";
        if ("redirect" in want) {
          if (status !== 302 || location !== want.redirect)
            failures.push(`${identity} GET ${path}: ${status} ${location}, want 302 ${want.redirect}`);
        } else if ("status" in want) {
          failures.push(...judge(identity, path, String(want.status), { status, location, body: await response.text() }));
        } else if (
          status !== 200 &&
          !(status === 302 && path === "/ambassador" && location === HOME.ambassador) &&
          // The organisation switcher is a form's target: a GET goes to the dashboard.
          !(status === 302 && path === "/organisation/switch" && location === HOME.client) &&
          // "Download my data" is a form's target (a POST answers the ZIP): a GET goes to its section.
          !(status === 302 && path === "/account/my-data" && location === "/account/privacy#my-data")
        ) {
          failures.push(`${identity} GET ${path}: ${status} ${location}, want the page`);
        } else {
          failures.push(...judge(identity, path, String(status), { status, location, body: await response.text() }));
        }
      }
    }
    expect(failures).toEqual([]);
  });

  test("GET, routes with a parameter: the record matrix with real ids of A's records", async () => {
    const failures: string[] = [];
    for (const [pattern, outcomes, overrides] of RECORD_MATRIX) {
      const path = fill(pattern, ids, overrides);
      const wants = outcomes.trim().split(/\s+/);
      for (const [n, identity] of IDENTITIES.entries()) {
        const response = await contexts[identity].get(path, { maxRedirects: 0 });
        const answer = { status: response.status(), location: response.headers()["location"] ?? "", body: await response.text() };
        failures.push(...judge(identity, path, wants[n]!, answer, SHOWS[pattern]));
      }
    }
    expect(failures).toEqual([]);
  });

  test("ledger and payouts: ambassador A sees its own commission and payout, ambassador B nothing of them", async () => {
    const earningsA = await (await contexts.ambassadorA.get("/ambassador/earnings")).text();
    expect(earningsA).toContain(SECRET.invoice);
    expect(earningsA).toContain("Paid out");
    for (const identity of ["ambassadorB"] as const) {
      for (const path of ["/ambassador/earnings", "/ambassador/dashboard"]) {
        const body = await (await contexts[identity].get(path)).text();
        for (const secret of Object.values(SECRET)) expect(body, `${identity} ${path}`).not.toContain(secret);
      }
    }
    // Ambassador A's dashboard names its client's proposal, never the conversation.
    const dashboardA = await (await contexts.ambassadorA.get("/ambassador/dashboard")).text();
    for (const secret of [SECRET.message, SECRET.reply, SECRET.note, SECRET.file]) expect(dashboardA).not.toContain(secret);
    // Client B's own pages name nothing of A's.
    for (const path of ["/client-dashboard", "/project-status?completed=1", "/invoices", "/messages", "/meetings"]) {
      const body = await (await contexts.clientB.get(path)).text();
      for (const secret of Object.values(SECRET)) expect(body, `clientB ${path}`).not.toContain(secret);
    }
  });

  test("ids mixed across owners: B's own proposal with A's file or certificate, A's request for ambassador A, are 404s", async () => {
    const b = ids.proposalB;
    // prettier-ignore
    const mixed: [Identity, string][] = [
      ["clientB",     `/proposals/${b}/files/${ids.file}`],
      ["clientB",     `/proposals/${b}/certificate/${ids.certificate}`],
      ["clientA",     `/proposals/${b}/files/${ids.file}`],
      ["clientA",     `/proposals/${ids.request}/files/${ids.file}`],
      ["clientA",     `/proposals/${ids.request}/certificate/${ids.certificate}`],
      ["admin",       `/admin/proposals/${b}/files/${ids.file}`],
      ["admin",       `/admin/proposals/${b}/certificate/${ids.certificate}`],
      // Ambassador A referred A, but did not submit A's own request: no view of it.
      ["ambassadorA", `/ambassador/proposals/${ids.request}`],
      ["ambassadorA", `/ambassador/proposals/${b}`],
    ];
    const failures: string[] = [];
    for (const [identity, path] of mixed) {
      const response = await contexts[identity].get(path, { maxRedirects: 0 });
      failures.push(...judge(identity, path, "404", { status: response.status(), location: "", body: await response.text() }));
    }
    expect(failures).toEqual([]);
  });

  test("the signed invoice link opens its one invoice: another id or MAC is a 404, no session, no other page", async () => {
    const [id, expires, mac] = ids.linkToken.split(".") as [string, string, string];
    expect(Number(id)).toBe(ids.invoice);
    const otherMac = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const forged = [
      `/i/${ids.secondInvoice}.${expires}.${mac}`,
      `/i/${ids.invoiceB}.${expires}.${mac}`,
      `/i/${id}.${Number(expires) + 1}.${mac}`,
      `/i/${id}.${expires}.${otherMac}`,
      `/i/${ids.secondInvoice}.${expires}.${mac}/pdf`,
      `/i/${ids.invoiceB}.${expires}.${mac}/pdf`,
      `/i/${id}.${expires}.${otherMac}/pdf`,
      `/i/${id}`,
      `/i/${ids.linkToken}.x`,
    ];
    const failures: string[] = [];
    for (const identity of IDENTITIES) {
      for (const path of forged) {
        const response = await contexts[identity].get(path, { maxRedirects: 0 });
        failures.push(...judge(identity, path, "404", { status: response.status(), location: "", body: await response.text() }));
      }
    }
    expect(failures).toEqual([]);
    // The link signs no one in: a visitor holding it is still anonymous everywhere else.
    const visitor = await playwrightRequest.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    try {
      const page = await visitor.get(`/i/${ids.linkToken}`);
      expect(page.status()).toBe(200);
      expect(page.headers()["set-cookie"] ?? "").not.toMatch(/session/i);
      const body = await page.text();
      expect(body).toContain(SECRET.invoice);
      expect(body).not.toContain(`${SECRET.invoice}-2`);
      // The invoice names its project (as on /view-invoice), never the conversation.
      for (const secret of [SECRET.message, SECRET.reply, SECRET.note, SECRET.file]) expect(body).not.toContain(secret);
      for (const path of [
        `/view-invoice/${ids.invoice}`,
        `/view-invoice/${ids.secondInvoice}`,
        "/invoices",
        `/proposals/${ids.proposal}`,
      ]) {
        const response = await visitor.get(path, { maxRedirects: 0 });
        expect(response.status(), path).toBe(302);
        expect(response.headers()["location"], path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      }
    } finally {
      await visitor.dispose();
    }
  });

  test("the live-update stream and the inbound-mail and Stripe webhooks (outside the route config)", async () => {
    // docs/product.md#live-updates: a signed-in, active user gets a stream; anyone else 204 (do not reconnect).
    const failures: string[] = [];
    for (const identity of IDENTITIES) {
      const cookie = (await contexts[identity].storageState()).cookies.map((c) => `${c.name}=${c.value}`).join("; ");
      const stream = openSse(`${app.baseUrl}/events`, cookie ? { cookie } : {});
      const { status, headers } = await stream.status;
      stream.close();
      // A member removed from their last organisation has nothing to follow: no stream (204), as signed out.
      const want = ROLE[identity] === null || identity === "removedA" ? 204 : 200;
      if (status !== want) failures.push(`${identity} GET /events: ${status}, want ${want}`);
      if (want === 200 && headers["content-type"] !== "text/event-stream; charset=utf-8")
        failures.push(`${identity}: ${headers["content-type"]}`);
      const post = await contexts[identity].post("/events", { form: { x: "1" }, maxRedirects: 0 });
      if (post.status() !== 405) failures.push(`${identity} POST /events: ${post.status()}, want 405`);
      // docs/product.md#email-replies: off without INBOUND_WEBHOOK_TOKEN, whatever the session.
      const webhook = await contexts[identity].post("/webhooks/inbound-mail", { data: "From: a@b.c\r\n\r\nhi", maxRedirects: 0 });
      if (webhook.status() !== 404) failures.push(`${identity} POST /webhooks/inbound-mail: ${webhook.status()}, want 404`);
      // docs/product.md#card-payments: off without STRIPE_SECRET_KEY + STRIPE_WEBHOOK_SECRET, whatever the session.
      const stripeHook = await contexts[identity].post("/webhooks/stripe", { data: "{}", maxRedirects: 0 });
      if (stripeHook.status() !== 404) failures.push(`${identity} POST /webhooks/stripe: ${stripeHook.status()}, want 404`);
    }
    expect(failures).toEqual([]);
  });

  test("POST: a wrong role is redirected by the guard and nothing is written", async () => {
    // Seven intents × ten identities × every guarded route (some thousands of posts): a budget for a busy machine.
    test.setTimeout(420_000);
    const before = await snapshot(app.sql, WRITTEN_TABLES);
    const failures: string[] = [];
    const intents = ["delete", "approve", "save", "create-payout", "record-payment", "accept-offer", "send-now"];
    for (const { area, path } of guarded()) {
      for (const identity of IDENTITIES) {
        const want = expected(identity, area, path);
        if (!("redirect" in want)) continue;
        for (const intent of intents) {
          const response = await contexts[identity].post(path, {
            form: {
              intent,
              proposalId: String(ids.proposal),
              invoiceId: String(ids.invoice),
              meetingId: String(ids.meeting),
              id: String(ids.proposal),
              userId: userIds.clientA,
              status: "completed",
              projectDetails: "hack",
              allowNewClients: "off",
              ambassadorId: userIds.ambassadorA,
              reference: "hack",
              method: "cash",
              amount: "10.00",
              receivedOn: "2026-01-01",
              paidAt: "2026-01-01",
              typedName: "Hijacker",
              agree: "on",
              version: "1",
              confirm: "yes",
            },
            maxRedirects: 0,
          });
          if (response.status() !== 302 || response.headers()["location"] !== want.redirect) {
            failures.push(`${identity} POST ${path} (${intent}): ${response.status()} ${response.headers()["location"] ?? ""}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(app.sql, WRITTEN_TABLES)).toEqual(before);
  });

  test("POST: messages, files, notes, payments, payouts and A's offer by the wrong identities are refused", async () => {
    const before = await snapshot(app.sql, WRITTEN_TABLES);
    const message =
      (fields: Record<string, string>, file = true) =>
      () => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        if (file) form.append("files", new Blob([new Uint8Array(PDF)], { type: "application/pdf" }), "hijack.pdf");
        return form;
      };
    const today = new Date().toISOString().slice(0, 10);
    const p = ids.proposal;
    const note = message({ text: "Hijacked", visibility: "internal" }, false);
    const accept = { intent: "accept-offer", typedName: "Hijacker", agree: "on", version: "1", sha256: "a".repeat(64) };
    const payment = { intent: "record-payment", amount: "10.00", method: "cash", receivedOn: today };
    const refund = { intent: "record-refund", paymentId: "1", amount: "1.00", receivedOn: today };
    const payout = { intent: "create-payout", ambassadorId: userIds.ambassadorA, reference: "Hijack", method: "cash", paidAt: today };
    const edit = { intent: "edit-message", messageId: String(ids.message), text: "Hijacked" };
    const remove = { intent: "delete-message", messageId: String(ids.message), confirm: "yes" };
    const decline = { intent: "decline-offer", reason: "Hijacked" };
    /** What, where, the body (a form, or a multipart builder), the outcome per identity as in RECORD_MATRIX (`-`: not tried). */
    // prettier-ignore
    const writes: [string, string, Record<string, string> | (() => FormData), string][] = [
      //                                                                                                                   anon A    B    ambA ambB admin gone  bill mem  rem
      ["post a message",                  `/proposals/${p}/messages`,               message({ text: "Hijacked" }, false), "L    -    404  H    H    H    L  404  -    403"],
      ["upload a file",                   `/proposals/${p}/messages`,               message({ text: "Hijacked" }),        "L    -    404  H    H    H    L  404  -    403"],
      ["upload a file, no JavaScript",    `/proposals/${p}`,                        message({ text: "Hijacked" }),        "L    -    404  H    H    H    L  404  -    403"],
      ["edit A's message",                `/proposals/${p}`,                        edit,                                 "L    -    404  H    H    H    L  404  403  403"],
      ["delete A's message",              `/proposals/${p}`,                        remove,                               "L    -    404  H    H    H    L  404  403  403"],
      ["accept A's offer",                `/proposals/${ids.offered}/accept`,       accept,                               "L    -    404  H    H    H    L  403  403  403"],
      ["decline A's offer",               `/proposals/${ids.offered}/accept`,       decline,                              "L    -    404  H    H    H    L  403  403  403"],
      ["agency message with a file",      `/admin/proposals/${p}/messages`,         message({ text: "Hijacked" }),        "L    H    H    H    H    -    L  H    H    H"],
      ["internal note",                   `/admin/proposals/${p}`,                  note,                                 "L    H    H    H    H    -    L  H    H    H"],
      ["record a payment",                `/admin/invoices/${ids.invoice}/payments`, payment,                             "L    H    H    H    H    -    L  H    H    H"],
      ["record a refund",                 `/admin/invoices/${ids.invoice}/payments`, refund,                              "L    H    H    H    H    -    L  H    H    H"],
      ["create a payout",                 "/admin/ambassadors",                     payout,                               "L    H    H    H    H    -    L  H    H    H"],
      ["send a reminder",                 `/admin/reminders/invoice/${ids.invoice}`, { intent: "send-now" },              "L    H    H    H    H    -    L  H    H    H"],
      ["post to the ambassador's view",   `/ambassador/proposals/${p}`,             { text: "Hijacked" },                 "L    H    H    405  405  H    L  H    H    H"],
    ];

    const failures: string[] = [];
    for (const [what, path, body, outcomes] of writes) {
      const wants = outcomes.trim().split(/\s+/);
      for (const [n, identity] of IDENTITIES.entries()) {
        const want = wants[n]!;
        if (want === "-") continue;
        const response = await contexts[identity].post(path, {
          ...(typeof body === "function" ? { multipart: body() } : { form: body }),
          maxRedirects: 0,
        });
        const status = response.status();
        const location = response.headers()["location"] ?? "";
        const role = ROLE[identity];
        const target = want === "L" ? `/login?redirectTo=${encodeURIComponent(path)}` : want === "H" && role ? HOME[role] : null;
        const good = target ? status === 302 && location === target : status === Number(want);
        if (!good) failures.push(`${identity} ${what} (POST ${path}): ${status} ${location}, want ${target ? `302 → ${target}` : want}`);
        const text = await response.text();
        // A's member is refused these writes on pages of A's organisation they may read: only what
        // their role does not cover (the internal note, the invoice) must not show.
        const hidden = identity === "memberA" ? [SECRET.note, SECRET.invoice] : Object.values(SECRET);
        for (const secret of hidden) if (text.includes(secret)) failures.push(`${identity} ${what}: the answer shows ${secret}`);
      }
    }
    expect(failures).toEqual([]);
    expect(await snapshot(app.sql, WRITTEN_TABLES)).toEqual(before);
  });
});

/**
 * Records of one client or ambassador are out of reach of another: client B asks
 * for client A's proposal, invoice, PDF and calendar invite, and posts every intent against A's
 * ids; ambassador B cannot act for ambassador A. Reads answer 404, writes are refused, and
 * the database is unchanged.
 */
test.describe("one user's records are out of reach of another", () => {
  test.describe.configure({ mode: "serial", timeout: 120_000 });
  let app: Awaited<ReturnType<typeof startIsolatedApp>>;
  const ctx = {} as Record<"clientA" | "clientB" | "ambassadorA" | "ambassadorB", APIRequestContext>;
  const ids = { proposal: 0, review: 0, offered: 0, invoice: 0, meeting: 0, pendingMeeting: 0 };
  const certificateId = `idorCertificate${Date.now()}`;

  test.beforeAll(async () => {
    app = await startIsolatedApp("idor");
    for (const name of Object.keys({ clientA: 1, clientB: 1, ambassadorA: 1, ambassadorB: 1 }) as (keyof typeof ctx)[]) {
      ctx[name] = await playwrightRequest.newContext({ baseURL: app.baseUrl, extraHTTPHeaders: { "x-forwarded-for": uniqueIp() } });
    }
    const emailA = uniqueEmail("idor-a");
    await ctx.clientA.post("/register", { form: { businessName: "A Co", email: emailA, phone: "1", password: PASSWORD } });
    await ctx.clientB.post("/register", { form: { businessName: "B Co", email: uniqueEmail("idor-b"), phone: "1", password: PASSWORD } });
    await ctx.ambassadorA.post("/register/ambassador", {
      form: { name: "Amb A", email: uniqueEmail("idor-amb-a"), phone: "1", password: PASSWORD, referralCode: `idor-a-${Date.now()}` },
    });
    await ctx.ambassadorB.post("/register/ambassador", {
      form: { name: "Amb B", email: uniqueEmail("idor-amb-b"), phone: "1", password: PASSWORD, referralCode: `idor-b-${Date.now()}` },
    });
    const q = (text: string, values: unknown[] = []) => app.sql.query(text, values).then((r) => r.rows);
    const [{ id: a }] = await q(`select id from "user" where email = $1`, [emailA]);
    const [{ id: ambA }] = await q(`select id from "user" where name = 'Amb A'`);
    ids.proposal = (
      await q(
        `insert into proposal (client_id, source, status, project_details) values ($1, 'client', 'pending', 'A pending') returning id`,
        [a],
      )
    )[0].id;
    ids.review = (
      await q(
        `insert into proposal (client_id, source, status, project_details) values ($1, 'client', 'review', 'A review') returning id`,
        [a],
      )
    )[0].id;
    ids.offered = (
      await q(
        `insert into proposal (client_id, ambassador_id, client_email, source, status, project_details) values ($1, $2, $3, 'ambassador', 'submitted', 'A offered') returning id`,
        [a, ambA, emailA],
      )
    )[0].id;
    // An accepted offer of A's own request (docs/product.md#accept-and-sign): its certificate and History.
    const terms = {
      proposalId: ids.proposal,
      version: 1,
      projectName: "A secret project",
      scope: "A secret scope",
      items: [{ description: "Secret line", quantity: 1, unitPriceCents: 1000, lineTotalCents: 1000 }],
      totalCents: 1000,
      currency: "USD",
      timeline: "",
      deposit: null,
      validUntil: null,
      termsAndConditions: null,
    };
    const [{ id: versionId }] = await q(
      `insert into proposal_version (proposal_id, number, terms, sha256) values ($1, 1, $2, $3) returning id`,
      [ids.proposal, JSON.stringify(terms), "a".repeat(64)],
    );
    await q(
      `insert into proposal_acceptance (proposal_id, version_id, version_number, user_id, typed_name, email, sha256, ip, user_agent, certificate_id)
       values ($1, $2, 1, $3, 'A Signer', $4, $5, '203.0.113.1', 'UA', $6)`,
      [ids.proposal, versionId, a, emailA, "a".repeat(64), certificateId],
    );
    ids.invoice = (
      await q(
        `insert into invoice (number, proposal_id, client_id, due_date, total_cents) values ('INV-IDOR-1', $1, $2, '2031-01-01', 1000) returning id`,
        [ids.review, a],
      )
    )[0].id;
    await q(`insert into invoice_item (invoice_id, position, description, amount_cents) values ($1, 0, 'Secret line', 1000)`, [
      ids.invoice,
    ]);
    ids.meeting = (
      await q(
        `insert into meeting (user_id, starts_at, time_zone, status) values ($1, now() + interval '3 days', 'UTC', 'accepted') returning id`,
        [a],
      )
    )[0].id;
    ids.pendingMeeting = (
      await q(
        `insert into meeting (user_id, starts_at, time_zone, status) values ($1, now() + interval '4 days', 'UTC', 'pending') returning id`,
        [a],
      )
    )[0].id;
  });

  test.afterAll(async () => {
    for (const context of Object.values(ctx)) await context.dispose();
    await app.stop();
  });

  const snapshot = async () => {
    const parts: string[] = [];
    for (const table of ["proposal", "meeting", "invoice", "invoice_item", "mail_outbox", "proposal_acceptance", "proposal_version"]) {
      const { rows } = await app.sql.query(
        `select count(*)::int as n, coalesce(md5(string_agg(t::text, '|' order by t::text)), '') as h from ${rowsOf(table)} t`,
      );
      parts.push(`${table}:${rows[0].n}:${rows[0].h}`);
    }
    return parts;
  };

  test("reads: the owner gets the page, another client 404 without the data", async () => {
    const reads = [
      `/edit-proposal/${ids.proposal}`,
      `/view-invoice/${ids.invoice}`,
      `/view-invoice/${ids.invoice}/pdf`,
      `/client-dashboard/meetings/${ids.meeting}/ics`,
      `/meetings/${ids.meeting}/reschedule`,
      `/proposals/${ids.proposal}`,
      `/proposals/${ids.proposal}/certificate/${certificateId}`,
    ];
    for (const path of reads) {
      expect((await ctx.clientA.get(path)).status(), `A ${path}`).toBe(200);
      const other = await ctx.clientB.get(path);
      expect(other.status(), `B ${path}`).toBe(404);
      const body = await other.text();
      expect(body).not.toContain("Secret line");
      expect(body).not.toContain("A pending");
      expect(body).not.toContain("A secret scope");
    }
    // The ambassador is sent home by the client area's guard.
    const ambassadorRead = await ctx.ambassadorB.get(`/proposals/${ids.proposal}/certificate/${certificateId}`, { maxRedirects: 0 });
    expect(ambassadorRead.status()).toBe(302);
    // The public check shows the acceptance's public facts only: no terms, e-mail, IP or name.
    const verify = await ctx.clientB.get(`/verify/${certificateId}`);
    expect(verify.status()).toBe(200);
    const verifyBody = await verify.text();
    expect(verifyBody).toContain("This acceptance stands.");
    for (const secret of ["A secret scope", "Secret line", "A Signer", "203.0.113.1", "idor-a-"]) expect(verifyBody).not.toContain(secret);
    const status = await (await ctx.clientB.get("/project-status?completed=1")).text();
    expect(status).not.toContain("A pending");
    expect(status).not.toContain("A review");
  });

  test("writes: every intent against another client's ids is refused and changes nothing", async () => {
    const before = await snapshot();
    const attempts: [string, Record<string, string>][] = [
      [`/edit-proposal/${ids.proposal}`, { projectDetails: "Hijacked" }],
      ["/project-status", { intent: "delete-proposal", id: String(ids.proposal), confirm: "yes" }],
      ["/project-status", { intent: "submit-revision", id: String(ids.review), comment: "Hijacked" }],
      ["/client-dashboard", { intent: "approve-proposal", id: String(ids.offered) }],
      [`/proposals/${ids.proposal}/accept`, { intent: "accept-offer", typedName: "Hijacker", agree: "on", version: "1" }],
      [`/proposals/${ids.proposal}/accept`, { intent: "decline-offer", reason: "Hijacked" }],
      ["/client-dashboard", { intent: "decline-proposal", id: String(ids.offered), reason: "Hijacked" }],
      ["/client-dashboard", { intent: "cancel-meeting", id: String(ids.pendingMeeting), confirm: "yes" }],
      ["/meetings", { intent: "cancel-meeting", id: String(ids.pendingMeeting), confirm: "yes" }],
      [`/meetings/${ids.pendingMeeting}/reschedule`, { slot: "2031-01-06T10:00:00.000Z", timeZone: "UTC" }],
    ];
    for (const [path, form] of attempts) {
      const response = await ctx.clientB.post(path, { form, maxRedirects: 0 });
      expect([404, 403], `${path} ${form.intent ?? ""}`).toContain(response.status());
    }
    // An ambassador cannot use client actions at all, nor another ambassador's records.
    for (const [path, form] of attempts) {
      const response = await ctx.ambassadorB.post(path, { form, maxRedirects: 0 });
      expect(response.status(), `ambassador ${path}`).toBe(302);
      expect(response.headers()["location"]).toBe("/ambassador/dashboard");
    }
    const dashboardB = await (await ctx.ambassadorB.get("/ambassador/dashboard")).text();
    expect(dashboardB).not.toContain("A offered");
    expect(await snapshot()).toEqual(before);
  });
});
