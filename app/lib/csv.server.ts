/**
 * Streamed CSV downloads: rows are pulled from an async source in batches and
 * written through csv-stringify with back-pressure, so an export of any size never holds
 * more than one batch in memory.
 */
import { Readable } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { stringify } from "csv-stringify";
import { and, desc, type SQL } from "drizzle-orm";
import { keysetSeek, type KeysetColumns, type KeysetQuery } from "#app/lib/pagination";

export interface CsvColumn<T> {
  header: string;
  value: (row: T) => string | number | boolean | null | undefined;
}

/**
 * Pulls pages from `fetchBatch` until one comes back shorter than `batchSize`.
 *
 * @param fetchBatch - gets the next batch after the last row of the previous one (`null` first):
 *   keyset pagination, so each batch is an index range scan.
 */
export async function* inBatches<T>(fetchBatch: (after: T | null, limit: number) => Promise<T[]>, batchSize = 1_000): AsyncGenerator<T> {
  let after: T | null = null;
  for (;;) {
    const batch = await fetchBatch(after, batchSize);
    yield* batch;
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1]!;
  }
}

/** Neutralises spreadsheet formula injection (a cell starting with = + - @ is prefixed with '). */
function safeCell(value: string | number | boolean | null | undefined): string | number | boolean | null | undefined {
  return typeof value === "string" && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * A streamed CSV response.
 *
 * @param filename - download name, e.g. `invoices-2026-11-22.csv`.
 * @param columns - header and value getter of each column.
 * @param rows - async source of rows (e.g. {@link inBatches}).
 */
export function csvResponse<T>(filename: string, columns: CsvColumn<T>[], rows: AsyncIterable<T>): Response {
  const records = Readable.from(
    (async function* () {
      for await (const row of rows) yield columns.map((c) => safeCell(c.value(row)));
    })(),
  );
  const csv = records.pipe(stringify({ header: true, columns: columns.map((c) => c.header), bom: true }));
  records.on("error", (error) => csv.destroy(error));
  return new Response(createReadableStreamFromReadable(csv), {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "_")}"`,
      "Cache-Control": "no-store",
    },
  });
}

/** Maps each row of an async source (e.g. {@link keysetBatches}) as it is read, one row at a time. */
export async function* mapRows<T, R>(rows: AsyncIterable<T>, map: (row: T) => R): AsyncGenerator<R> {
  for await (const row of rows) yield map(row);
}

/** Rows per batch of a streamed CSV export. */
export const EXPORT_BATCH_SIZE = 1_000;

/**
 * Every row of a list, newest first, read in keyset batches: the list's own fetch
 * function (same select, joins and filters as its pages) is called with the filters AND
 * "older than the last row of the previous batch", `batchSize` rows at a time, so an export
 * holds one batch in memory and each batch is one index range scan.
 *
 * @param where - the list's filters (from the same builder its pages use).
 * @param fetch - the list's fetch function (must select `cursorKeySql(order)` as `cursorKey`).
 * @returns the rows without `cursorKey`, as an async generator.
 */
export async function* keysetBatches<T extends { cursorKey: string; id: number | string }>(
  order: KeysetColumns,
  where: SQL | undefined,
  fetch: (query: KeysetQuery) => Promise<T[]>,
  batchSize: number = EXPORT_BATCH_SIZE,
): AsyncGenerator<Omit<T, "cursorKey">> {
  const orderBy = [desc(order.sort), desc(order.id)];
  const batches = inBatches<T>(
    (after, limit) =>
      fetch({ where: and(where, after ? keysetSeek(order, { key: after.cursorKey, id: after.id }, "older") : undefined), orderBy, limit }),
    batchSize,
  );
  for await (const { cursorKey: _cursorKey, ...rest } of batches) yield rest;
}
