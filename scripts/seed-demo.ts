/**
 * Fills a database with realistic demo data through the app's schema.
 *
 *   npm run seed:demo                  # ~100 users, 1,000 proposals, 500 invoices
 *   npm run seed:demo -- --scale       # 10,000 users, 100,000 proposals, 50,000 invoices
 *   npm run seed:demo -- --users 500 --proposals 5000 --invoices 2000
 *
 * Uses the same configuration as the server: DATABASE_URL, else PGlite in DATA_DIR (stop
 * the server first: PGlite allows one process). Migrations are applied first. Rows are
 * inserted in batches inside one transaction, so a failed run leaves nothing behind. Every
 * demo account's password is DEMO_PASSWORD; the admin, client and ambassador below are
 * ready to sign in with.
 */
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { hashPassword } from "better-auth/crypto";
import { sql } from "drizzle-orm";
import { openDatabase, type Database } from "../app/db/client.server";
import {
  account,
  invoice,
  invoiceCounter,
  invoiceItem,
  meeting,
  membership,
  organisation,
  proposal,
  proposalMessage,
  proposalThread,
  settings,
  user,
  type MeetingStatus,
  type ProposalStatus,
} from "../app/db/schema";
import { parseEnv } from "../app/lib/env.server";
import { openSlots } from "../app/features/meetings/slots";
import { DEFAULT_WEEKLY_HOURS } from "../app/db/enums";
import { seedCommissionLedger } from "./seed-commissions";

export const DEMO_PASSWORD = "demo-password-123";
export const DEMO_ACCOUNTS = { admin: "admin@demo.local", client: "client@demo.local", ambassador: "ambassador@demo.local" } as const;

/** How much to create. */
export interface SeedSize {
  users: number;
  proposals: number;
  invoices: number;
}

export const DEMO_SIZE: SeedSize = { users: 100, proposals: 1_000, invoices: 500 };
export const SCALE_SIZE: SeedSize = { users: 10_000, proposals: 100_000, invoices: 50_000 };

/** A small deterministic PRNG (mulberry32), so two runs produce the same data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    chance: (p: number) => next() < p,
  };
}

const FIRST = [
  "Ada",
  "Grace",
  "Alan",
  "Maya",
  "Omar",
  "Lena",
  "Kofi",
  "Sofia",
  "Ravi",
  "Chen",
  "Lucia",
  "Noah",
  "Amara",
  "Ivan",
  "Yuki",
  "Elena",
  "Diego",
  "Fatima",
  "Jonas",
  "Priya",
];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Okafor",
  "Haddad",
  "Novak",
  "Mensah",
  "Rossi",
  "Patel",
  "Wang",
  "Garcia",
  "Smith",
  "Diallo",
  "Petrov",
  "Sato",
  "Kowalski",
  "Silva",
  "Khan",
  "Berg",
  "Nair",
];
const BIZ_A = [
  "Sunrise",
  "Blue",
  "Harbor",
  "Maple",
  "Golden",
  "Urban",
  "Green",
  "Copper",
  "Silver",
  "Northside",
  "Riverside",
  "Lakeside",
  "Summit",
  "Cedar",
  "Bright",
  "Old Town",
];
const BIZ_B = [
  "Bakery",
  "Cafe",
  "Dental",
  "Fitness",
  "Florist",
  "Realty",
  "Plumbing",
  "Bookshop",
  "Barbers",
  "Kitchen",
  "Studio",
  "Law Office",
  "Pet Care",
  "Yoga",
  "Garage",
  "Tailors",
];
const PROJECTS = [
  "Website redesign",
  "Online store",
  "Booking system",
  "Landing page",
  "Menu and ordering site",
  "Portfolio site",
  "Member portal",
  "Blog relaunch",
  "Event site",
  "Rental listings",
];
const STATUSES: ProposalStatus[] = ["pending", "planning", "in_progress", "review", "completed", "completed", "pending", "planning"];
const ZONES = ["America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles", "Europe/London", "Europe/Berlin"];
const ITEMS = [
  "Design",
  "Development",
  "Content migration",
  "Hosting (12 months)",
  "SEO setup",
  "Training session",
  "Copywriting",
  "Domain",
];

const DAY = 86_400_000;

/** The demo agency's availability: the defaults of migration 0016, in New York. */
const DEMO_AVAILABILITY = {
  timeZone: "America/New_York",
  weeklyHours: DEFAULT_WEEKLY_HOURS,
  meetingMinutes: 30,
  meetingBufferMinutes: 0,
  minNoticeHours: 24,
  bookingHorizonDays: 60,
  datesOff: [],
};

async function insertBatches<T>(rows: T[], size: number, insert: (batch: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/**
 * Seeds `size` rows into an empty-of-demo database.
 *
 * @param db - an open, migrated database.
 * @param options.now - the instant the data is relative to (createdAt spread over the two years before it).
 * @param options.log - progress lines.
 * @returns what was created.
 * @throws {Error} when demo data is already present (an account @demo.local exists).
 */
/** seed:demo refused to write: the database is in use. The message is one sentence for the console. */
export class SeedRefusedError extends Error {
  override name = "SeedRefusedError";
}

/**
 * Why seed:demo must not write to this database, or null when it may (issue #41): a database is
 * in use when it has proposals, invoices, meetings, organisations or any account other than
 * admins (a fresh install's first admin is fine), or already has the demo accounts. Reads only:
 * nothing is inserted and no sequence moves.
 *
 * @returns one sentence naming what was found and what to do instead, or null.
 */
export async function seedRefusal(db: Database): Promise<string | null> {
  const result = (await db.execute(sql`select
      (select count(*)::int from "user" where coalesce(role, '') <> 'admin' or email like '%@demo.local') as users,
      (select count(*)::int from proposal) as proposals,
      (select count(*)::int from invoice) as invoices,
      (select count(*)::int from meeting) as meetings,
      (select count(*)::int from organisation) as organisations`)) as unknown as {
    rows: { users: number; proposals: number; invoices: number; meetings: number; organisations: number }[];
  };
  const counts = result.rows[0]!;
  const found = Object.entries(counts)
    .filter(([, n]) => n > 0)
    .map(([what, n]) => `${n.toLocaleString("en-US")} ${n === 1 ? what.replace(/s$/, "") : what}`);
  if (found.length === 0) return null;
  return `This database is in use (${found.join(", ")}), so seed:demo wrote nothing: point DATA_DIR or DATABASE_URL at an empty database to try the demo.`;
}

export async function seedDemo(db: Database, size: SeedSize, options: { now?: Date; log?: (line: string) => void } = {}) {
  const log = options.log ?? (() => {});
  const now = options.now ?? new Date();
  const refusal = await seedRefusal(db);
  if (refusal) throw new SeedRefusedError(refusal);
  const rnd = prng(20_260_101);
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const start = now.getTime() - 730 * DAY;
  const spread = (i: number, n: number) => new Date(start + Math.floor(((i + rnd.next() * 0.5) / n) * 730 * DAY));

  const created = await db.transaction(async (tx) => {
    // ---- users: 1 admin, ~10 % ambassadors, the rest clients -------------------------
    const userRows: (typeof user.$inferInsert)[] = [];
    const ambassadors: string[] = [];
    const clients: { id: string; ambassadorId: string | null; email: string; name: string }[] = [];
    const total = Math.max(3, size.users);
    for (let i = 0; i < total; i++) {
      const id = `demo${i.toString(36).padStart(6, "0")}${Math.floor(rnd.next() * 1e9).toString(36)}`;
      const first = rnd.pick(FIRST);
      const last = rnd.pick(LAST);
      const createdAt = spread(i, total);
      const base = {
        id,
        emailVerified: true,
        createdAt,
        updatedAt: createdAt,
        phone: `301 555 ${String(1000 + (i % 9000)).padStart(4, "0")}`,
        banned: rnd.chance(0.03),
        lastLoginAt: rnd.chance(0.85) ? new Date(createdAt.getTime() + rnd.next() * (now.getTime() - createdAt.getTime())) : null,
      };
      if (i === 0) {
        userRows.push({ ...base, banned: false, name: "Demo Admin", email: DEMO_ACCOUNTS.admin, role: "admin" });
      } else if (i === 1 || (i > 2 && rnd.chance(0.1))) {
        const email = i === 1 ? DEMO_ACCOUNTS.ambassador : `${first}.${last}.${i}@ambassadors.example`.toLowerCase();
        userRows.push({
          ...base,
          banned: i === 1 ? false : base.banned,
          name: `${first} ${last}`,
          email,
          role: "ambassador",
          referralCode: i === 1 ? "demo-ambassador" : `${first}-${last}-${i}`.toLowerCase(),
        });
        ambassadors.push(id);
      } else {
        const businessName = `${rnd.pick(BIZ_A)} ${rnd.pick(BIZ_B)}${i % 7 === 0 ? ` ${last}` : ""}`;
        const email =
          i === 2
            ? DEMO_ACCOUNTS.client
            : `${first}.${last}.${i}@${businessName.toLowerCase().replace(/[^a-z]+/g, "")}.example`.toLowerCase();
        const ambassadorId = ambassadors.length && rnd.chance(0.3) ? rnd.pick(ambassadors) : null;
        userRows.push({
          ...base,
          banned: i === 2 ? false : base.banned,
          name: businessName,
          businessName,
          email,
          role: "client",
          referredById: ambassadorId,
          website: rnd.chance(0.5) ? `https://${businessName.toLowerCase().replace(/[^a-z]+/g, "")}.example` : null,
        });
        clients.push({ id, ambassadorId, email, name: businessName });
      }
    }
    await insertBatches(userRows, 1_000, (batch) => tx.insert(user).values(batch));
    await insertBatches(userRows, 2_000, (batch) =>
      tx.insert(account).values(
        batch.map((u) => ({
          id: `acc-${u.id}`,
          accountId: u.id!,
          providerId: "credential",
          userId: u.id!,
          password: passwordHash,
          createdAt: u.createdAt,
          updatedAt: u.createdAt,
        })),
      ),
    );
    log(`users: ${userRows.length} (${ambassadors.length} ambassadors, ${clients.length} clients)`);
    // Each client's business is a one-person organisation, the client its owner (migration 0029);
    // the proposals, invoices and meetings below take their client's organisation (its triggers).
    const organisationIds: { id: number }[] = [];
    await insertBatches(clients, 1_000, async (batch) =>
      organisationIds.push(
        ...(await tx
          .insert(organisation)
          .values(batch.map((c) => ({ name: c.name, referredById: c.ambassadorId })))
          .returning({ id: organisation.id })),
      ),
    );
    await insertBatches(
      clients.map((c, i) => ({ organisationId: organisationIds[i]!.id, userId: c.id, role: "owner" as const })),
      2_000,
      (batch) => tx.insert(membership).values(batch),
    );

    // ---- proposals: 70 % by clients, 30 % by ambassadors (some for unregistered clients)
    const proposalRows: (typeof proposal.$inferInsert)[] = [];
    for (let i = 0; i < size.proposals; i++) {
      const createdAt = spread(i, size.proposals);
      const client = rnd.pick(clients);
      const budgetCents = rnd.chance(0.9) ? rnd.int(5, 200) * 10_000 : null;
      const projectName = `${rnd.pick(PROJECTS)} for ${client.name}`;
      const details = `${projectName}: ${rnd.int(3, 25)} pages, mobile-first, contact form and analytics.`;
      if (ambassadors.length && rnd.chance(0.3)) {
        const ambassadorId = client.ambassadorId ?? rnd.pick(ambassadors);
        const registered = rnd.chance(0.8);
        const approved = registered && rnd.chance(0.6);
        proposalRows.push({
          source: "ambassador",
          ambassadorId,
          clientId: registered ? client.id : null,
          clientName: registered ? client.name : `${rnd.pick(BIZ_A)} ${rnd.pick(BIZ_B)} ${i}`,
          clientEmail: registered ? client.email : `owner${i}@prospect.example`,
          projectName,
          projectDetails: details,
          budgetCents,
          status: approved ? rnd.pick(STATUSES) : "submitted",
          clientApprovedAt: approved ? new Date(createdAt.getTime() + DAY) : null,
          createdAt,
          updatedAt: createdAt,
        });
      } else {
        proposalRows.push({
          source: "client",
          clientId: client.id,
          projectName,
          projectDetails: details,
          timeline: rnd.pick(["2 weeks", "1 month", "6 weeks", "3 months"]),
          budgetCents,
          numberOfPages: rnd.int(1, 25),
          websiteGoal: rnd.pick(["Minimal", "Corporate", "Creative"] as const),
          status: rnd.pick(STATUSES),
          createdAt,
          updatedAt: createdAt,
        });
      }
    }
    const proposalIds: { id: number; clientId: string | null; createdAt: Date; budgetCents: number | null }[] = [];
    await insertBatches(proposalRows, 1_000, async (batch) => {
      const ids = await tx
        .insert(proposal)
        .values(batch)
        .returning({ id: proposal.id, clientId: proposal.clientId, createdAt: proposal.createdAt, budgetCents: proposal.budgetCents });
      proposalIds.push(...ids);
    });
    log(`proposals: ${proposalIds.length}`);

    // ---- invoices for proposals that have a client account, numbered per year ----------
    const eligible = proposalIds.filter((p) => p.clientId);
    const count = Math.min(size.invoices, eligible.length);
    const step = eligible.length / Math.max(1, count);
    const chosen = Array.from({ length: count }, (_, i) => eligible[Math.floor(i * step)]!);
    const perYear = new Map<number, number>();
    const invoiceRows: (typeof invoice.$inferInsert)[] = [];
    const itemsByNumber = new Map<string, { description: string; amountCents: number }[]>();
    for (const p of chosen) {
      const createdAt = new Date(p.createdAt.getTime() + rnd.int(1, 20) * DAY);
      const year = createdAt.getUTCFullYear();
      const n = (perYear.get(year) ?? 0) + 1;
      perYear.set(year, n);
      const number = `INV-${year}-${String(n).padStart(4, "0")}`;
      const lines = Array.from({ length: rnd.int(1, 4) }, () => ({
        description: rnd.pick(ITEMS),
        amountCents: rnd.int(1, 500) * 1_000 + rnd.pick([0, 0, 50, 99]),
      }));
      itemsByNumber.set(number, lines);
      const dueDate = new Date(createdAt.getTime() + 30 * DAY).toISOString().slice(0, 10);
      const paid = createdAt.getTime() < now.getTime() - 45 * DAY ? rnd.chance(0.85) : rnd.chance(0.3);
      invoiceRows.push({
        number,
        proposalId: p.id,
        clientId: p.clientId,
        dueDate,
        status: paid ? "paid" : "unpaid",
        totalCents: lines.reduce((sum, l) => sum + l.amountCents, 0),
        paidAt: paid ? new Date(createdAt.getTime() + rnd.int(1, 40) * DAY) : null,
        createdAt,
        updatedAt: createdAt,
      });
    }
    invoiceRows.sort((a, b) => a.createdAt!.getTime() - b.createdAt!.getTime());
    let items = 0;
    await insertBatches(invoiceRows, 1_000, async (batch) => {
      const ids = await tx.insert(invoice).values(batch).returning({ id: invoice.id, number: invoice.number });
      const lines = ids.flatMap(({ id, number }) => itemsByNumber.get(number)!.map((l, position) => ({ invoiceId: id, position, ...l })));
      items += lines.length;
      await insertBatches(lines, 2_000, (chunk) => tx.insert(invoiceItem).values(chunk));
    });
    for (const [year, lastNumber] of perYear) {
      await tx
        .insert(invoiceCounter)
        .values({ year, lastNumber })
        .onConflictDoUpdate({
          target: invoiceCounter.year,
          set: { lastNumber: sql`greatest(${invoiceCounter.lastNumber}, ${lastNumber})` },
        });
    }
    log(`invoices: ${invoiceRows.length} with ${items} items`);

    // ---- payments (docs/product.md#payments): each paid invoice has a payment of its total (some by card),
    // every fifth unpaid one a 30 % deposit paid, every tenth paid one a 10 % refund. Deterministic by id.
    await tx.execute(sql`
      insert into payments (invoice_id, amount_cents, currency, method, received_at, reference)
      select i.id, i.total_cents, coalesce((select currency from settings where id = 1), 'USD'),
             case when i.id % 3 = 0 then 'card' else 'bank_transfer' end, coalesce(i.paid_at, i.created_at), 'Demo payment'
      from invoice i where i.status = 'paid' and i.total_cents > 0
        and not exists (select 1 from payments p where p.invoice_id = i.id)`);
    await tx.execute(sql`
      insert into payments (invoice_id, amount_cents, currency, method, received_at, reference)
      select i.id, (i.total_cents * 3) / 10, coalesce((select currency from settings where id = 1), 'USD'), 'bank_transfer',
             i.created_at + interval '2 days', 'Demo deposit'
      from invoice i where i.status = 'unpaid' and i.id % 5 = 0 and (i.total_cents * 3) / 10 > 0
        and not exists (select 1 from payments p where p.invoice_id = i.id)`);
    await tx.execute(sql`
      insert into payments (invoice_id, amount_cents, currency, method, received_at, reference, refund_of)
      select p.invoice_id, -(p.amount_cents / 10), p.currency, p.method, p.received_at + interval '5 days', 'Demo refund', p.id
      from payments p join invoice i on i.id = p.invoice_id
      where i.status = 'paid' and i.id % 10 = 0 and p.amount_cents >= 10 and p.reference = 'Demo payment'
        and not exists (select 1 from payments r where r.refund_of = p.id)`);
    log("payments: one per paid invoice, deposits on some unpaid ones, a few partial refunds");

    // ---- meetings: booked on the agency's free slots (docs/product.md#availability) -------
    // Past ones on the weekly hours of the last 120 days, upcoming ones in the 60 days ahead,
    // every slot used once (30 minutes, no buffer), so the exclusion constraint holds. Should a
    // large seed need more meetings than slots, the extra ones hold no calendar time
    // (blocked_until null, like meetings from before availability existed).
    const meetingRows: (typeof meeting.$inferInsert)[] = [];
    const meetings = Math.max(5, Math.floor(clients.length / 2));
    const agency = { ...DEMO_AVAILABILITY, minNoticeHours: 0, bookingHorizonDays: 119 };
    const pastSlots = openSlots(agency, [], new Date(now.getTime() - 120 * DAY)).filter((d) => d.getTime() < now.getTime() - DAY);
    const futureSlots = openSlots(DEMO_AVAILABILITY, [], now);
    const upcoming = Math.max(3, Math.floor(meetings / 3));
    const pick = (slots: Date[], i: number, n: number) =>
      slots[Math.floor((i * slots.length) / Math.max(n, 1)) % Math.max(slots.length, 1)];
    const usedSlots = new Set<number>();
    for (let i = 0; i < meetings; i++) {
      const future = i < upcoming;
      const startsAt = future ? pick(futureSlots, i, upcoming)! : pick(pastSlots, i - upcoming, meetings - upcoming)!;
      const endsAt = new Date(startsAt.getTime() + DEMO_AVAILABILITY.meetingMinutes * 60_000);
      // A slot already taken (more meetings than slots): this one holds no calendar time.
      const unique = !usedSlots.has(startsAt.getTime());
      usedSlots.add(startsAt.getTime());
      meetingRows.push({
        userId: i === 0 || i === 1 || i === upcoming ? clients[0]!.id : rnd.pick(clients).id,
        startsAt,
        endsAt,
        blockedUntil: unique ? endsAt : null,
        timeZone: rnd.pick(ZONES),
        notes: rnd.chance(0.6)
          ? rnd.pick(["Discuss the homepage", "Budget questions", "Review the mock-ups", "Launch checklist", "Kick-off call"])
          : null,
        status: (future ? rnd.pick(["pending", "pending", "accepted"]) : rnd.pick(["accepted", "accepted", "declined"])) as MeetingStatus,
        createdAt: new Date(startsAt.getTime() - rnd.int(2, 14) * DAY),
      });
    }
    await insertBatches(meetingRows, 1_000, (batch) => tx.insert(meeting).values(batch));
    log(`meetings: ${meetingRows.length}`);

    // ---- conversations: a third of the client-owned proposals, 1–4 messages each ------------
    // (docs/product.md#conversations; one batch of rows per table, so --scale stays linear)
    const adminId = userRows[0]!.id!;
    const clientName = new Map(clients.map((c) => [c.id, c.name]));
    const MESSAGES = [
      "Could the contact page show a map?",
      "Yes — we will embed one under the address. See https://example.com/map-demo",
      "Here is our logo and brand guide.",
      "Thanks, received. We will send the first mock-ups next week.",
    ];
    const messageRows: (typeof proposalMessage.$inferInsert)[] = [];
    for (const p of proposalIds) {
      if (!p.clientId || !rnd.chance(0.33)) continue;
      const n = rnd.int(1, 4);
      for (let k = 0; k < n; k++) {
        const byClient = k % 2 === 0;
        messageRows.push({
          proposalId: p.id,
          authorId: byClient ? p.clientId : adminId,
          authorName: byClient ? (clientName.get(p.clientId) ?? "Client") : "Demo Admin",
          authorRole: byClient ? "client" : "agency",
          body: MESSAGES[k % MESSAGES.length]!,
          visibility: !byClient && rnd.chance(0.2) ? "internal" : "shared",
          createdAt: new Date(Math.min(now.getTime(), p.createdAt.getTime() + (k + 1) * 3 * 3600_000)),
        });
      }
    }
    const threads = new Map<number, typeof proposalThread.$inferInsert>();
    await insertBatches(messageRows, 1_000, async (batch) => {
      const ids = await tx.insert(proposalMessage).values(batch).returning({
        id: proposalMessage.id,
        proposalId: proposalMessage.proposalId,
        role: proposalMessage.authorRole,
        visibility: proposalMessage.visibility,
        createdAt: proposalMessage.createdAt,
      });
      for (const m of ids) {
        const t = threads.get(m.proposalId) ?? {
          proposalId: m.proposalId,
          lastActivityAt: m.createdAt,
          lastMessageId: 0,
          lastClientMessageId: 0,
          lastAgencyMessageId: 0,
        };
        t.lastActivityAt = m.createdAt > t.lastActivityAt! ? m.createdAt : t.lastActivityAt;
        t.lastMessageId = Math.max(t.lastMessageId!, m.id);
        if (m.role === "client") t.lastClientMessageId = Math.max(t.lastClientMessageId ?? 0, m.id);
        else if (m.visibility === "shared") t.lastAgencyMessageId = Math.max(t.lastAgencyMessageId ?? 0, m.id);
        threads.set(m.proposalId, t);
      }
    });
    await insertBatches([...threads.values()], 1_000, (batch) => tx.insert(proposalThread).values(batch));
    log(`conversations: ${threads.size} with ${messageRows.length} messages`);

    // ---- the commission ledger and payouts of the payments above (issue #25) ------------------
    const ledger = await seedCommissionLedger(tx, now);
    log(`commissions: ${ledger.entries} ledger entries, ${ledger.payouts} payouts`);

    await tx
      .insert(settings)
      .values({
        id: 1,
        companyName: "Demo Web Studio",
        supportEmail: "support@demo.local",
        defaultTimeline: "4–6 weeks",
        timeZone: DEMO_AVAILABILITY.timeZone,
      })
      .onConflictDoNothing();
    return {
      users: userRows.length,
      ambassadors: ambassadors.length,
      clients: clients.length,
      proposals: proposalIds.length,
      invoices: invoiceRows.length,
      items,
      meetings: meetingRows.length,
      messages: messageRows.length,
      commissionEntries: ledger.entries,
      payouts: ledger.payouts,
    };
  });
  // Planner statistics and the visibility map after a bulk load (autovacuum would get there later).
  await db.execute(sql`vacuum analyze`);
  return created;
}

async function main() {
  if (fs.existsSync(".env")) process.loadEnvFile(".env");
  const { values } = parseArgs({
    options: { scale: { type: "boolean" }, users: { type: "string" }, proposals: { type: "string" }, invoices: { type: "string" } },
  });
  const base = values.scale ? SCALE_SIZE : DEMO_SIZE;
  const size: SeedSize = {
    users: values.users ? Number(values.users) : base.users,
    proposals: values.proposals ? Number(values.proposals) : base.proposals,
    invoices: values.invoices ? Number(values.invoices) : base.invoices,
  };
  if (Object.values(size).some((n) => !Number.isSafeInteger(n) || n < 0))
    throw new Error("--users, --proposals and --invoices take whole numbers.");
  const env = parseEnv();
  const handle = env.DATABASE_URL ? await openDatabase({ url: env.DATABASE_URL }) : await openDatabase({ pgliteDir: env.pgliteDir });
  try {
    await handle.migrate();
    console.log(
      `Seeding ${handle.driver === "postgres" ? "the PostgreSQL database" : `PGlite in ${env.pgliteDir}`}: ${size.users} users, ${size.proposals} proposals, ${size.invoices} invoices…`,
    );
    const started = performance.now();
    const created = await seedDemo(handle.db, size, { log: (line) => console.log(`  ${line}`) });
    console.log(`Done in ${((performance.now() - started) / 1000).toFixed(1)} s: ${JSON.stringify(created)}`);
    console.log(`Sign in with ${DEMO_ACCOUNTS.admin}, ${DEMO_ACCOUNTS.client} or ${DEMO_ACCOUNTS.ambassador}, password ${DEMO_PASSWORD}`);
  } finally {
    await handle.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    // One line, never the failed statement and its parameters (a query error's message is the whole SQL).
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
    const message = cause instanceof Error ? cause.message : String(cause);
    console.error(error instanceof SeedRefusedError ? error.message : `seed:demo failed: ${message.split("\n")[0]!.slice(0, 300)}`);
    process.exit(1);
  });
}
