/**
 * The naive baseline of bench/csv-export.ts: loads every invoice row (the admin
 * export's select, rows and columns) into memory in one query, builds the whole CSV as one string,
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
import { adminInvoiceColumns, toAdminInvoiceRow } from "../app/features/invoices/invoices.admin.server";
import { INVOICES_EXPORT } from "../app/routes/admin/csv-exports.server";

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
  .select(adminInvoiceColumns)
  .from(invoice)
  .innerJoin(proposal, eq(proposal.id, invoice.proposalId))
  .leftJoin(user, eq(user.id, invoice.clientId))
  .orderBy(desc(invoice.createdAt), desc(invoice.id));
const { columns } = INVOICES_EXPORT;
const now = new Date();
const csv = stringify(
  rows.map((r) => {
    const row = toAdminInvoiceRow(r, now);
    return columns.map((c) => c.value(row));
  }),
  { header: true, columns: columns.map((c) => c.header), bom: true },
);
const ms = performance.now() - started;
const after = memory();
await handle.close();
console.log(JSON.stringify({ rows: rows.length, bytes: Buffer.byteLength(csv), ms, rssBeforeKiB: before.rssKiB, peakKiB: after.hwmKiB }));
