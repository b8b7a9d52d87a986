/**
 * The naive baseline of bench/csv-export.ts: loads every invoice row (the same
 * columns as the admin export) into memory in one query, builds the whole CSV as one string,
 * and prints its own resident memory before and at peak (from /proc/self/status) as JSON.
 *
 *   tsx bench/csv-export-naive.ts --url postgres://…   |   --pglite <dir>
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { stringify } from "csv-stringify/sync";
import { desc, eq, sql } from "drizzle-orm";
import { openDatabase } from "../app/db/client.server";
import { invoice, proposal, user } from "../app/db/schema";

/** @returns VmRSS and VmHWM of this process, in KiB. */
function memory(): { rssKiB: number; hwmKiB: number } {
  const status = fs.readFileSync("/proc/self/status", "utf8");
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssKiB: kib("VmRSS"), hwmKiB: kib("VmHWM") };
}

const { values } = parseArgs({ options: { url: { type: "string" }, pglite: { type: "string" } } });
const handle = values.url ? await openDatabase({ url: values.url }) : await openDatabase({ pgliteDir: values.pglite! });
await handle.db
  .select({ n: sql`1` })
  .from(invoice)
  .limit(1); // warm up the driver
const before = memory();
const started = performance.now();
const rows = await handle.db
  .select({
    number: invoice.number,
    proposalId: invoice.proposalId,
    projectName: proposal.projectName,
    clientName: sql<string | null>`coalesce(${user.businessName}, ${user.name}, ${proposal.clientName})`,
    clientEmail: sql<string | null>`coalesce(${user.email}, ${proposal.clientEmail})`,
    dueDate: invoice.dueDate,
    status: invoice.status,
    totalCents: invoice.totalCents,
    createdAt: invoice.createdAt,
    paidAt: invoice.paidAt,
  })
  .from(invoice)
  .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
  .leftJoin(user, eq(user.id, invoice.clientId))
  .orderBy(desc(invoice.createdAt), desc(invoice.id));
const csv = stringify(
  rows.map((r) => [
    r.number,
    r.proposalId,
    r.projectName,
    r.clientName,
    r.clientEmail,
    r.dueDate,
    r.status,
    r.totalCents,
    r.createdAt?.toISOString(),
    r.paidAt?.toISOString() ?? "",
  ]),
  {
    header: true,
    columns: [
      "Number",
      "Proposal ID",
      "Project",
      "Client",
      "Client e-mail",
      "Due date",
      "Status",
      "Total (cents)",
      "Created at (UTC)",
      "Paid at (UTC)",
    ],
    bom: true,
  },
);
const ms = performance.now() - started;
const after = memory();
await handle.close();
console.log(JSON.stringify({ rows: rows.length, bytes: Buffer.byteLength(csv), ms, rssBeforeKiB: before.rssKiB, peakKiB: after.hwmKiB }));
