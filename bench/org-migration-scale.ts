/**
 * Migration 0029_organisations (issue #38, ADR 022) on a copy of the `seed:demo --scale` data, with
 * the data and the signed links made by THE CODE OF THE RELEASE BEFORE IT. Writes
 * bench/results/org-migration-scale.md.
 *
 * For each size (ORG_MIGRATION_SIZES, default `demo,scale`):
 * 1. the last commit before 0029 (the parent of the commit that added drizzle/0029_organisations.sql)
 *    is checked out into a temporary git worktree; its node_modules is a hard-linked copy of this
 *    one's when every package its lockfile names is installed here at the same version (else
 *    `npm ci` there);
 * 2. a fresh PostgreSQL database gets THAT commit's migrations and `seed:demo` (its CLI), then, with
 *    that commit's use-cases: offers sent and accepted (certificates), payments recorded (receipt
 *    mails in the outbox), a signed link to every invoice that has a client, each link's and
 *    certificate's verdict by that code (`openSignedInvoice`, `verifyCertificate`);
 * 3. per-table counts and id checksums are read; the database is copied (`create database … template`)
 *    and TODAY's migrations run on the copy;
 * 4. counts and checksums again; every client is a one-person organisation with themselves as owner;
 *    every link (those computed above and those in the queued mails) gets the same verdict from
 *    today's `openSignedInvoice` and opens its invoice for its person (`getInvoiceForClient`, what
 *    `/i/<token>` runs); every certificate verifies with the same facts and downloads for its signer;
 *    a sample goes through the real routes of today's build (`/i/<token>`, `/i/<token>/pdf`, `/verify/<id>`).
 *
 *   npm run build && npx tsx bench/org-migration-scale.ts
 *   ORG_MIGRATION_SIZES=demo npx tsx bench/org-migration-scale.ts          # the small size only (~2 min)
 *   ORG_MIGRATION_SIZES=300/3000/1500 …                                     # users/proposals/invoices
 *   ORG_MIGRATION_KEEP=1 …                                                  # keep the databases and the old worktree
 *
 * Exits 1 when any check fails (the results file says which).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { openDatabase, type Database } from "../app/db/client.server";
import { getCertificatePdf, verifyCertificate } from "../app/features/agreements/acceptance.server";
import { getInvoiceForClient } from "../app/features/invoices/invoices.server";
import { openSignedInvoice } from "../app/features/payments/invoice-link.server";
import { DEMO_SIZE, SCALE_SIZE, type SeedSize } from "../scripts/seed-demo";
import { git, releaseWorktree, sh } from "./lib/old-release";
import { startApp, writeResults } from "./lib/server";

const PG_URL = process.env.TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const SIZES = (process.env.ORG_MIGRATION_SIZES ?? "demo,scale").split(",").map((s) => s.trim());
const CERTIFICATES = Number(process.env.ORG_MIGRATION_CERTIFICATES ?? 100);
const RECEIPTS = Number(process.env.ORG_MIGRATION_RECEIPTS ?? 100);
const HTTP_SAMPLE = Number(process.env.ORG_MIGRATION_HTTP_SAMPLE ?? 200);
const KEEP = process.env.ORG_MIGRATION_KEEP === "1";
const MIGRATION = "drizzle/0029_organisations.sql";

/** What the old code recorded (the JSON the old-phase script writes). */
interface OldPhase {
  commit: string;
  links: { invoiceId: number; clientId: string; token: string; ok: boolean }[];
  mailed: { token: string; ok: boolean; invoiceId: number | null }[];
  certificates: {
    id: string;
    proposalId: number;
    userId: string;
    email: string;
    facts: { proposalName: string; version: number; sha256: string; state: string; acceptedAt: string };
  }[];
  made: { certificates: number; receipts: number };
  seconds: { offers: number; receipts: number; links: number };
}

function parseSize(name: string): SeedSize {
  if (name === "demo") return DEMO_SIZE;
  if (name === "scale") return SCALE_SIZE;
  const m = /^(\d+)\/(\d+)\/(\d+)$/.exec(name);
  if (!m) throw new Error(`ORG_MIGRATION_SIZES: "${name}" is not demo, scale or users/proposals/invoices`);
  return { users: Number(m[1]), proposals: Number(m[2]), invoices: Number(m[3]) };
}

function since(t: number): number {
  return (performance.now() - t) / 1000;
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: PG_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function dbUrl(name: string): string {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/**
 * The old commit in a worktree of its own, with its dependencies.
 *
 * @returns its directory, the commit and how its node_modules was made.
 */
async function oldTree(): Promise<{ dir: string; commit: string; modules: string; seconds: number }> {
  const t = performance.now();
  const added = (await git("log", "--diff-filter=A", "--format=%H", "--", MIGRATION)).split("\n").pop()!;
  if (!added) throw new Error(`No commit adds ${MIGRATION}`);
  const commit = await git("rev-parse", `${added}^`);
  const { dir, modules } = await releaseWorktree(commit, "org-migration-old");
  fs.writeFileSync(path.join(dir, "scripts", "org-migration-old-phase.ts"), OLD_PHASE);
  return { dir, commit, modules, seconds: since(t) };
}

/**
 * The old release's part, run with ITS code (written into the old worktree): offers accepted
 * (certificates), payments recorded (receipts), a signed link to every invoice, and each verdict.
 */
const OLD_PHASE = `
import fs from "node:fs";
import { sql, eq } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { user } from "../app/db/schema";
import { saveOffer } from "../app/features/agreements/offers.server";
import { acceptOffer, verifyCertificate } from "../app/features/agreements/acceptance.server";
import { recordPayment } from "../app/features/payments/record-payment.server";
import { openSignedInvoice, signedInvoicePath } from "../app/features/payments/invoice-link.server";
import { getSettings } from "../app/features/settings/settings.server";

const CERTIFICATES = Number(process.env.CERTIFICATES);
const RECEIPTS = Number(process.env.RECEIPTS);
const rows = (r: any) => (Array.isArray(r) ? r : r.rows) as any[];
const ipOf = (i: number) => \`10.\${(i >> 16) & 255}.\${(i >> 8) & 255}.\${i & 255}\`;
const handle = await openDatabase({ url: process.env.DATABASE_URL! });
const db = handle.db;
const [adminRow] = await db.select().from(user).where(eq(user.role, "admin")).limit(1);
const adminActor = { id: adminRow!.id, role: "admin" as const, email: adminRow!.email };
const seconds = { offers: 0, receipts: 0, links: 0 };
let t = performance.now();

// Offers sent by the admin and accepted by their client: certificates, as the signing page makes them.
const candidates = rows(await db.execute(sql\`
  select p.id, p.client_id, u.email from proposal p join "user" u on u.id = p.client_id
  where u.closed_at is null and u.banned is not true and u.email_verified and p.client_declined_at is null
    and p.status not in ('completed', 'closed') and p.ambassador_id is distinct from p.client_id
  order by p.id\`));
let certificates = 0;
for (let i = 0; i < candidates.length && certificates < CERTIFICATES; i += Math.max(1, Math.floor(candidates.length / CERTIFICATES))) {
  const p = candidates[i];
  try {
    const sent = await saveOffer(db, adminActor, p.id, {
      projectName: \`Migration check \${p.id}\`,
      scope: "The scope as offered before organisations.",
      items: [{ description: "Design and build", quantity: 1, unitPriceCents: 150000 + p.id }],
      timeline: "Four weeks",
      deposit: null,
      validUntil: null,
    }, "send");
    if (!sent.version) continue;
    await acceptOffer(db, { id: p.client_id, role: "client", email: p.email }, p.id, { typedName: "Scale Signer", version: sent.version },
      { ip: "198.51.100.7", userAgent: "org-migration-scale", timeZone: "UTC", origin: "http://localhost" });
    certificates++;
  } catch (e) {
    if (process.env.VERBOSE) console.log("offer", p.id, (e as Error).message);
  }
}
seconds.offers = (performance.now() - t) / 1000;

// Payments recorded by the admin: each queues a receipt mail with the invoice's signed link.
t = performance.now();
const currency = (await getSettings(db)).currency;
const unpaid = rows(await db.execute(sql\`
  select i.id from invoice i join "user" u on u.id = i.client_id
  where i.status = 'unpaid' and u.closed_at is null and u.banned is not true order by i.id\`));
let receipts = 0;
for (let i = 0; i < unpaid.length && receipts < RECEIPTS; i += Math.max(1, Math.floor(unpaid.length / RECEIPTS))) {
  try {
    await recordPayment(db, adminActor, unpaid[i].id, { amountCents: 100, currency, method: "bank_transfer", receivedAt: new Date(), reference: "migration check" });
    receipts++;
  } catch (e) {
    if (process.env.VERBOSE) console.log("payment", unpaid[i].id, (e as Error).message);
  }
}
seconds.receipts = (performance.now() - t) / 1000;

// A signed link to every invoice that has a client, and whether this code opens it.
t = performance.now();
const verdict = async (token: string) => {
  try {
    return { ok: true, invoiceId: (await openSignedInvoice(db, token)).invoiceId };
  } catch {
    return { ok: false, invoiceId: null };
  }
};
const links = [];
for (const r of rows(await db.execute(sql\`select id, client_id from invoice where client_id is not null order by id\`))) {
  const token = (await signedInvoicePath(db, r.id, r.client_id)).slice(3);
  links.push({ invoiceId: r.id, clientId: r.client_id, token, ok: (await verdict(token)).ok });
}
// The links in the mails queued so far (receipts, invoice notices).
const mailed = [];
for (const r of rows(await db.execute(sql\`select text from mail_outbox where text like '%/i/%'\`))) {
  for (const m of String(r.text).matchAll(/\\/i\\/([0-9]+\\.[0-9]+\\.[A-Za-z0-9_-]{32})/g)) mailed.push({ token: m[1], ...(await verdict(m[1])) });
}
seconds.links = (performance.now() - t) / 1000;

// Every certificate in the database, as /verify shows it now.
const certs = [];
let n = 0;
for (const a of rows(await db.execute(sql\`select certificate_id, proposal_id, user_id, email from proposal_acceptance order by id\`))) {
  const f = await verifyCertificate(db, a.certificate_id, ipOf(n++));
  certs.push({ id: a.certificate_id, proposalId: a.proposal_id, userId: a.user_id, email: a.email,
    facts: { proposalName: f.proposalName, version: f.version, sha256: f.sha256, state: f.state, acceptedAt: f.acceptedAt.toISOString() } });
}
fs.writeFileSync(process.env.OUT_FILE!, JSON.stringify({ commit: process.env.COMMIT, links, mailed, certificates: certs, made: { certificates, receipts }, seconds }));
await handle.close();
process.exit(0);
`;

/** Exact row counts of every table of the public schema. */
async function tableCounts(c: pg.Client): Promise<Map<string, number>> {
  const tables = (
    await c.query<{ t: string }>(
      `select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    )
  ).rows.map((r) => r.t);
  const out = new Map<string, number>();
  for (const t of tables) out.set(t, Number((await c.query<{ n: string }>(`select count(*) as n from "${t}"`)).rows[0]!.n));
  return out;
}

/** md5 over each table's ids and owner columns: equal before and after means no id or owner changed. */
const CHECKSUMS: Record<string, string> = {
  user: `select md5(string_agg(id || ':' || email || ':' || coalesce(role, ''), ',' order by id)) from "user"`,
  proposal: `select md5(string_agg(id || ':' || coalesce(client_id, '') || ':' || coalesce(ambassador_id, ''), ',' order by id)) from proposal`,
  invoice: `select md5(string_agg(id || ':' || number || ':' || coalesce(client_id, '') || ':' || coalesce(proposal_id::text, ''), ',' order by id)) from invoice`,
  meeting: `select md5(string_agg(id || ':' || user_id || ':' || coalesce(proposal_id::text, ''), ',' order by id)) from meeting`,
  payments: `select md5(string_agg(id || ':' || invoice_id || ':' || amount_cents, ',' order by id)) from payments`,
  proposal_acceptance: `select md5(string_agg(id || ':' || certificate_id || ':' || sha256 || ':' || user_id, ',' order by id)) from proposal_acceptance`,
};

async function checksums(c: pg.Client): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const [t, q] of Object.entries(CHECKSUMS)) out[t] = (await c.query<{ md5: string }>(q)).rows[0]!.md5;
  return out;
}

/** The organisation checks after the migration: each a count that must be 0 (or equal). */
const ORG_CHECKS: [string, string][] = [
  [
    "clients without exactly one organisation of their own",
    `select count(*) from "user" u where (u.role is null or u.role = 'client')
       and (select count(*) from organisation o where o.id in (select organisation_id from membership where user_id = u.id)) <> 1
       and u.closed_at is null`,
  ],
  [
    "open clients not the owner of their organisation",
    `select count(*) from "user" u where (u.role is null or u.role = 'client') and u.closed_at is null
       and not exists (select 1 from membership m where m.user_id = u.id and m.role = 'owner')`,
  ],
  [
    "organisations with more than one member",
    `select count(*) from (select organisation_id from membership group by 1 having count(*) > 1) x`,
  ],
  ["memberships that are not owner", `select count(*) from membership where role <> 'owner'`],
  [
    "proposals with a client outside that client's organisation",
    `select count(*) from proposal p join "user" u on u.id = p.client_id where u.closed_at is null
       and not exists (select 1 from membership m where m.organisation_id = p.organisation_id and m.user_id = p.client_id)`,
  ],
  ["proposals with a client and no organisation", `select count(*) from proposal where client_id is not null and organisation_id is null`],
  [
    "invoices in another organisation than their proposal",
    `select count(*) from invoice i join proposal p on p.id = i.proposal_id where i.organisation_id is distinct from p.organisation_id`,
  ],
  ["invoices with a client and no organisation", `select count(*) from invoice where client_id is not null and organisation_id is null`],
  ["meetings without an organisation", `select count(*) from meeting where organisation_id is null`],
];

interface SizeResult {
  name: string;
  size: SeedSize;
  before: Map<string, number>;
  after: Map<string, number>;
  checksumsEqual: string[];
  checksumsDiffer: string[];
  organisations: number;
  clients: number;
  owners: number;
  orgChecks: [string, number][];
  old: OldPhase;
  linksSame: number;
  linksOpened: number;
  linksRefused: number;
  mailedSame: number;
  certificatesSame: number;
  certificatesDownloaded: number;
  http: {
    links: number;
    linksOk: number;
    pdfs: number;
    pdfsOk: number;
    refused: number;
    refusedOk: number;
    verify: number;
    verifyOk: number;
  };
  failures: string[];
  seconds: Record<string, number>;
}

async function oneSize(name: string, tree: { dir: string; commit: string }): Promise<SizeResult> {
  const size = parseSize(name);
  const failures: string[] = [];
  const seconds: Record<string, number> = {};
  const stamp = `${Date.now()}_${Math.random().toString(16).slice(2, 6)}`;
  const beforeDb = `orgmig_before_${stamp}`;
  const afterDb = `orgmig_after_${stamp}`;
  const outFile = path.join(os.tmpdir(), `org-migration-old-${stamp}.json`);
  console.log(`\n== ${name}: ${size.users} users, ${size.proposals} proposals, ${size.invoices} invoices`);
  await admin((c) => c.query(`create database "${beforeDb}"`));
  try {
    // The old release: its migrations and seed (its CLI), then its use-cases.
    let t = performance.now();
    const oldEnv = { DATABASE_URL: dbUrl(beforeDb), NODE_ENV: "development", LOG_LEVEL: "warn" };
    await sh(
      "node_modules/.bin/tsx",
      ["scripts/seed-demo.ts", "--users", String(size.users), "--proposals", String(size.proposals), "--invoices", String(size.invoices)],
      tree.dir,
      { env: oldEnv, echo: "[old]" },
    );
    seconds["old migrations + seed:demo (old CLI)"] = since(t);
    t = performance.now();
    await sh("node_modules/.bin/tsx", ["scripts/org-migration-old-phase.ts"], tree.dir, {
      env: { ...oldEnv, OUT_FILE: outFile, COMMIT: tree.commit, CERTIFICATES: String(CERTIFICATES), RECEIPTS: String(RECEIPTS) },
      echo: "[old]",
    });
    seconds["old code: offers, payments, links, verdicts"] = since(t);
    const old = JSON.parse(fs.readFileSync(outFile, "utf8")) as OldPhase;

    const beforeClient = new pg.Client({ connectionString: dbUrl(beforeDb) });
    await beforeClient.connect();
    const before = await tableCounts(beforeClient);
    const sumsBefore = await checksums(beforeClient);
    const clients = Number(
      (await beforeClient.query<{ n: string }>(`select count(*) as n from "user" where role is null or role = 'client'`)).rows[0]!.n,
    );
    const openClients = Number(
      (
        await beforeClient.query<{ n: string }>(
          `select count(*) as n from "user" where (role is null or role = 'client') and closed_at is null`,
        )
      ).rows[0]!.n,
    );
    await beforeClient.end();

    // The copy, and today's migrations on it.
    t = performance.now();
    await admin((c) => c.query(`create database "${afterDb}" template "${beforeDb}"`));
    seconds["copy (create database … template)"] = since(t);
    const handle = await openDatabase({ url: dbUrl(afterDb) });
    const db: Database = handle.db;
    t = performance.now();
    await handle.migrate();
    seconds["today's migrations on the copy (0029 and later)"] = since(t);

    const afterClient = new pg.Client({ connectionString: dbUrl(afterDb) });
    await afterClient.connect();
    const after = await tableCounts(afterClient);
    const sumsAfter = await checksums(afterClient);
    const organisations = Number((await afterClient.query<{ n: string }>(`select count(*) as n from organisation`)).rows[0]!.n);
    const owners = Number((await afterClient.query<{ n: string }>(`select count(*) as n from membership where role = 'owner'`)).rows[0]!.n);
    const orgChecks: [string, number][] = [];
    for (const [label, q] of ORG_CHECKS) orgChecks.push([label, Number((await afterClient.query<{ count: string }>(q)).rows[0]!.count)]);
    await afterClient.end();

    for (const [table, n] of before) if (after.get(table) !== n) failures.push(`${table}: ${n} rows before, ${after.get(table)} after`);
    const checksumsEqual = Object.keys(sumsBefore).filter((k) => sumsBefore[k] === sumsAfter[k]);
    const checksumsDiffer = Object.keys(sumsBefore).filter((k) => sumsBefore[k] !== sumsAfter[k]);
    for (const k of checksumsDiffer) failures.push(`${k}: ids or owners changed`);
    if (organisations !== clients) failures.push(`${organisations} organisations for ${clients} clients`);
    if (owners !== openClients) failures.push(`${owners} owners for ${openClients} open clients`);
    for (const [label, n] of orgChecks) if (n !== 0) failures.push(`${label}: ${n}`);

    // Today's code on every link and certificate.
    t = performance.now();
    let linksSame = 0;
    let linksOpened = 0;
    let linksRefused = 0;
    const newVerdict = async (token: string) => {
      try {
        return await openSignedInvoice(db, token);
      } catch {
        return null;
      }
    };
    for (const link of old.links) {
      const opened = await newVerdict(link.token);
      if (!!opened !== link.ok || (opened && opened.invoiceId !== link.invoiceId)) {
        failures.push(
          `invoice ${link.invoiceId}: old ${link.ok ? "opened" : "refused"} its link, today ${opened ? "opens" : "refuses"} it`,
        );
        continue;
      }
      linksSame++;
      if (!opened) {
        linksRefused++;
        continue;
      }
      try {
        if ((await getInvoiceForClient(db, opened.client, link.invoiceId)).id === link.invoiceId) linksOpened++;
      } catch (e) {
        failures.push(
          `invoice ${link.invoiceId}: its link verifies but the invoice does not open for its client (${(e as Error).message})`,
        );
      }
    }
    let mailedSame = 0;
    for (const m of old.mailed) {
      const opened = await newVerdict(m.token);
      if (!!opened === m.ok) mailedSame++;
      else failures.push(`mailed link ${m.token}: old ${m.ok}, today ${!!opened}`);
    }
    seconds["today's code: every link verified and opened"] = since(t);
    t = performance.now();
    let certificatesSame = 0;
    let certificatesDownloaded = 0;
    for (const [i, c] of old.certificates.entries()) {
      const f = await verifyCertificate(db, c.id, `10.200.${(i >> 8) & 255}.${i & 255}`);
      const now = {
        proposalName: f.proposalName,
        version: f.version,
        sha256: f.sha256,
        state: f.state,
        acceptedAt: f.acceptedAt.toISOString(),
      };
      if (JSON.stringify(now) === JSON.stringify(c.facts)) certificatesSame++;
      else failures.push(`certificate ${c.id}: ${JSON.stringify(c.facts)} before, ${JSON.stringify(now)} after`);
      try {
        const pdf = await getCertificatePdf(db, { id: c.userId, role: "client", email: c.email }, c.proposalId, c.id, "http://localhost");
        if (pdf.bytes.subarray(0, 5).toString() === "%PDF-") certificatesDownloaded++;
      } catch (e) {
        failures.push(`certificate ${c.id}: its signer cannot download it (${(e as Error).message})`);
      }
    }
    seconds["today's code: every certificate verified and downloaded"] = since(t);

    // A sample through the real routes of today's build.
    t = performance.now();
    const http = { links: 0, linksOk: 0, pdfs: 0, pdfsOk: 0, refused: 0, refusedOk: 0, verify: 0, verifyOk: 0 };
    const app = await startApp({ DATABASE_URL: dbUrl(afterDb), WEB_CONCURRENCY: "1" });
    try {
      const good = old.links.filter((l) => l.ok);
      const step = Math.max(1, Math.floor(good.length / HTTP_SAMPLE));
      for (let i = 0; i < good.length; i += step) {
        const link = good[i]!;
        http.links++;
        const res = await fetch(`${app.baseUrl}/i/${link.token}`, { headers: { "x-forwarded-for": `10.1.${(i >> 8) & 255}.${i & 255}` } });
        const body = await res.text();
        if (res.status === 200 && body.includes("INV-")) http.linksOk++;
        else failures.push(`GET /i/<token> of invoice ${link.invoiceId}: ${res.status}`);
        if (http.pdfs < 20) {
          http.pdfs++;
          const pdf = await fetch(`${app.baseUrl}/i/${link.token}/pdf`, { headers: { "x-forwarded-for": `10.2.0.${http.pdfs}` } });
          const bytes = Buffer.from(await pdf.arrayBuffer());
          if (pdf.status === 200 && bytes.subarray(0, 5).toString() === "%PDF-") http.pdfsOk++;
          else failures.push(`GET /i/<token>/pdf of invoice ${link.invoiceId}: ${pdf.status}`);
        }
      }
      for (const link of old.links.filter((l) => !l.ok).slice(0, 20)) {
        http.refused++;
        const res = await fetch(`${app.baseUrl}/i/${link.token}`);
        await res.arrayBuffer();
        if (res.status === 404) http.refusedOk++;
        else failures.push(`GET /i/<token> of invoice ${link.invoiceId} (refused before): ${res.status}`);
      }
      const cstep = Math.max(1, Math.floor(old.certificates.length / HTTP_SAMPLE));
      for (let i = 0; i < old.certificates.length; i += cstep) {
        const c = old.certificates[i]!;
        http.verify++;
        const res = await fetch(`${app.baseUrl}/verify/${c.id}`, { headers: { "x-forwarded-for": `10.3.${(i >> 8) & 255}.${i & 255}` } });
        const body = await res.text();
        if (res.status === 200 && body.includes(c.facts.sha256)) http.verifyOk++;
        else failures.push(`GET /verify/${c.id}: ${res.status}`);
      }
    } finally {
      await app.stop();
    }
    seconds["today's build: the HTTP sample"] = since(t);
    await handle.close();
    return {
      name,
      size,
      before,
      after,
      checksumsEqual,
      checksumsDiffer,
      organisations,
      clients,
      owners,
      orgChecks,
      old,
      linksSame,
      linksOpened,
      linksRefused,
      mailedSame,
      certificatesSame,
      certificatesDownloaded,
      http,
      failures,
      seconds,
    };
  } finally {
    fs.rmSync(outFile, { force: true });
    if (!KEEP)
      await admin((c) =>
        c
          .query(`drop database if exists "${afterDb}" with (force)`)
          .then(() => c.query(`drop database if exists "${beforeDb}" with (force)`)),
      );
    else console.log(`kept databases ${beforeDb} and ${afterDb}`);
  }
}

function section(r: SizeResult): string {
  const rows = [...new Set([...r.before.keys(), ...r.after.keys()])].sort();
  const table = rows
    .map((t) => {
      const b = r.before.get(t);
      const a = r.after.get(t);
      const note = b === undefined ? "new table" : a === b ? "=" : "**changed**";
      return `| ${t} | ${b ?? "—"} | ${a ?? "—"} | ${note} |`;
    })
    .join("\n");
  const timing = Object.entries(r.seconds)
    .map(([k, v]) => `| ${k} | ${v.toFixed(1)} s |`)
    .join("\n");
  const mailedOk = r.old.mailed.filter((m) => m.ok).length;
  return `## ${r.name}: ${r.size.users.toLocaleString("en")} users, ${r.size.proposals.toLocaleString("en")} proposals, ${r.size.invoices.toLocaleString("en")} invoices

**${r.failures.length === 0 ? "PASS" : `FAIL (${r.failures.length})`}.**

Made by the old code (commit ${r.old.commit.slice(0, 10)}): ${r.old.made.certificates} offers sent and accepted (certificates), ${r.old.made.receipts} payments recorded (receipt mails), ${r.old.links.length.toLocaleString("en")} signed invoice links (${r.old.links.filter((l) => l.ok).length.toLocaleString("en")} opened by the old code; ${r.old.links.filter((l) => !l.ok).length.toLocaleString("en")} refused by it — their client is deactivated or closed), ${r.old.mailed.length} links found in the queued mails (${mailedOk} opened by the old code).

Verified with today's code after the migration:
- invoice links: **${r.linksSame.toLocaleString("en")} / ${r.old.links.length.toLocaleString("en")}** get the same verdict as before; ${r.linksOpened.toLocaleString("en")} open their invoice for their person (\`openSignedInvoice\` + \`getInvoiceForClient\`, what \`/i/<token>\` runs), ${r.linksRefused.toLocaleString("en")} still refused;
- links in the queued mails (receipts, invoice notices): **${r.mailedSame} / ${r.old.mailed.length}** same verdict;
- certificates: **${r.certificatesSame} / ${r.old.certificates.length}** verify with the same facts (proposal name, version, SHA-256, standing, accepted at); ${r.certificatesDownloaded} download as PDF for their signer;
- over HTTP on today's build: \`/i/<token>\` ${r.http.linksOk} / ${r.http.links} → 200 with the invoice, \`/i/<token>/pdf\` ${r.http.pdfsOk} / ${r.http.pdfs} → a PDF, refused links ${r.http.refusedOk} / ${r.http.refused} → 404, \`/verify/<id>\` ${r.http.verifyOk} / ${r.http.verify} → 200 with the hash;
- organisations: ${r.organisations.toLocaleString("en")} for ${r.clients.toLocaleString("en")} clients; ${r.owners.toLocaleString("en")} owner memberships (one per open client account);
${r.orgChecks.map(([label, n]) => `- ${label}: ${n}`).join("\n")}
- ids and owners unchanged (md5 over id and owner columns): ${r.checksumsEqual.join(", ")}${r.checksumsDiffer.length ? `; **changed: ${r.checksumsDiffer.join(", ")}**` : ""}.
${
  r.failures.length
    ? `\nFailures (first 20):\n${r.failures
        .slice(0, 20)
        .map((f) => `- ${f}`)
        .join("\n")}\n`
    : ""
}
| Table | Rows before | Rows after | |
|---|---:|---:|---|
${table}

| Step | Time |
|---|---:|
${timing}
`;
}

async function main() {
  if (!fs.existsSync("build/server/index.js")) throw new Error("Run `npm run build` first (the HTTP sample uses today's build).");
  const t = performance.now();
  const tree = await oldTree();
  console.log(`old commit ${tree.commit} in ${tree.dir}; node_modules: ${tree.modules}`);
  const results: SizeResult[] = [];
  try {
    for (const name of SIZES) results.push(await oneSize(name, tree));
  } finally {
    if (!KEEP) {
      await git("worktree", "remove", "--force", tree.dir).catch((e: Error) => console.error(e.message));
    }
  }
  const hash = createHash("sha256").update(fs.readFileSync(MIGRATION)).digest("hex").slice(0, 12);
  const file = writeResults(
    "org-migration-scale",
    "Migration 0029 (organisations) on a copy of the seeded data, links and certificates made by the release before it",
    `npm run build && ORG_MIGRATION_SIZES=${SIZES.join(",")} npx tsx bench/org-migration-scale.ts`,
    `Issue #38, ADR 022. The release before organisations is commit ${tree.commit.slice(0, 10)} (the parent of the commit that
added \`${MIGRATION}\`, sha256 ${hash}…); it runs from a temporary git worktree (node_modules: ${tree.modules}; ${tree.seconds.toFixed(0)} s to set up).
PostgreSQL ${await admin(async (c) => (await c.query<{ server_version: string }>("show server_version")).rows[0]!.server_version)} on the same machine (shared with other work: timings are indicative).

Method, per size: a fresh database gets the OLD commit's migrations and \`seed:demo\` (its own CLI, \`--users/--proposals/--invoices\`;
\`scale\` is what \`--scale\` seeds), then the OLD use-cases: offers sent and accepted (\`saveOffer\`, \`acceptOffer\`: certificates),
payments recorded (\`recordPayment\`: receipt mails with the invoice link), a signed link to every invoice that has a client
(\`signedInvoicePath\`) and each link's and certificate's verdict by the old code. Counts and id checksums are read, the database is copied
(\`create database … template …\`) and TODAY's migrations run on the copy; then the checks below, with TODAY's code, and a sample over HTTP
against today's production build (\`/i/<token>\`, \`/i/<token>/pdf\`, \`/verify/<id>\`). The script exits 1 on any failed check.

How to run it again:

    npm run build
    npx tsx bench/org-migration-scale.ts                          # demo, then scale (the --scale data)
    ORG_MIGRATION_SIZES=demo npx tsx bench/org-migration-scale.ts  # the small size only
    ORG_MIGRATION_SIZES=300/3000/1500 …                            # users/proposals/invoices
    # ORG_MIGRATION_CERTIFICATES (100), ORG_MIGRATION_RECEIPTS (100), ORG_MIGRATION_HTTP_SAMPLE (200), ORG_MIGRATION_KEEP=1, TEST_DATABASE_URL

Total time: ${since(t).toFixed(0)} s.

${results.map(section).join("\n")}`,
  );
  console.log(`wrote ${file}`);
  const failed = results.filter((r) => r.failures.length);
  for (const r of failed) console.error(`${r.name}: ${r.failures.length} failures, e.g. ${r.failures.slice(0, 5).join("; ")}`);
  process.exit(failed.length ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
