/**
 * Server-side list helpers shared by every admin list: keyset ("seek")
 * pagination and case-insensitive substring search.
 *
 * Keyset pagination orders a list by `(sortColumn DESC, id DESC)` and asks for the rows
 * after (or before) the boundary row's key, so any page costs one index range scan of
 * `size + 1` rows whatever its depth — OFFSET would read and discard every earlier row.
 * The cursor carries the boundary's sort key as PostgreSQL text (microsecond precision,
 * which a JavaScript Date would lose) and its id.
 *
 * Search uses `ILIKE '%term%'`, served by pg_trgm GIN indexes (ADR 005).
 *
 * Short per-user lists (a client's own proposals) use numbered pages: {@link NumberedPage}.
 */
import { and, asc, count, desc, inArray, sql, type AnyColumn, type SQL, type SQLWrapper } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import type { Queryable } from "#app/db/client.server";
import { invalidInput } from "./errors";
import { parseId, parseUserId } from "./ids";

/** Rows per page of an admin list. */
export const DEFAULT_PAGE_SIZE = 25;
/** Longest search term accepted; longer input is cut. */
export const MAX_SEARCH_LENGTH = 100;

/** The boundary row of a page: its sort key as PostgreSQL text, and its id. */
export interface Cursor {
  key: string;
  id: number | string;
}

/** Which page to read: the rows after `after`, the rows before `before`, or the first page. */
export interface PageRequest {
  after?: Cursor;
  before?: Cursor;
  /** Rows per page, 1–100. */
  size: number;
}

/** One page of a list, newest first, with opaque cursors to its neighbours. */
export interface Page<T> {
  items: T[];
  /** Rows matching the filters, all pages together (a lower bound when `totalIsLowerBound`). */
  total: number;
  /** True when counting stopped at a cap: there are more than `total` rows. */
  totalIsLowerBound: boolean;
  /** Cursor of the next (older) page, or null on the last page. */
  next: string | null;
  /** Cursor of the previous (newer) page, or null on the first page. */
  prev: string | null;
}

/** The columns a list is ordered by (both descending): a sort column and a unique id. */
export interface KeysetColumns {
  /** A timestamptz column (e.g. `createdAt`). */
  sort: AnyColumn;
  /** The primary key (serial or text). */
  id: AnyColumn;
}

/** @returns the cursor as an opaque URL-safe string. */
export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id]), "utf8").toString("base64url");
}

const TIMESTAMP_TEXT = /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.\d{1,6})?(?:[+-]\d\d(?::?\d\d)?)?$/;

/** True for a real instant written as PostgreSQL writes `timestamptz::text` (month 1–12, …). */
function isTimestampText(value: string): boolean {
  const m = TIMESTAMP_TEXT.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(Date.UTC(year, month - 1, day));
  return (
    year >= 1 &&
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}

/**
 * @returns the decoded cursor, or undefined for a missing or malformed one (first page): the key
 *   must be a real timestamp, the id a valid serial or user id.
 */
export function decodeCursor(value: string | null | undefined): Cursor | undefined {
  if (!value || value.length > 200) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64url").toString("utf8"));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [key, id] = parsed as [unknown, unknown];
    if (typeof key !== "string" || !isTimestampText(key)) return undefined;
    if (typeof id === "number" && parseId(id) !== null) return { key, id };
    if (typeof id === "string" && parseUserId(id) !== null) return { key, id };
    return undefined;
  } catch {
    return undefined;
  }
}

/** Message of a page link whose cursor is not one the app made. */
export const BAD_PAGE_LINK = "This page link is not valid. Go back to the first page of the list.";

/**
 * Reads `?after=` / `?before=` (or `?<prefix>After=` …) from a URL's search parameters.
 *
 * @param options.prefix - for a second paginated list on the same page (e.g. `"p"`).
 * @param options.size - rows per page (default {@link DEFAULT_PAGE_SIZE}).
 * @throws {AppError} INVALID_INPUT ({@link BAD_PAGE_LINK}) when a cursor parameter is present
 *   but malformed (forged, or with an impossible date or id).
 */
export function pageRequestFrom(params: URLSearchParams, options: { prefix?: string; size?: number } = {}): PageRequest {
  const names = cursorParamNames(options.prefix);
  const cursor = (name: string) => {
    const value = params.get(name);
    if (!value) return undefined;
    const decoded = decodeCursor(value);
    if (!decoded) throw invalidInput(BAD_PAGE_LINK);
    return decoded;
  };
  const before = cursor(names.before);
  const after = before ? undefined : cursor(names.after);
  return { after, before, size: Math.min(100, Math.max(1, options.size ?? DEFAULT_PAGE_SIZE)) };
}

/** The search-parameter names holding a list's cursors. */
export function cursorParamNames(prefix?: string): { after: string; before: string } {
  return prefix ? { after: `${prefix}After`, before: `${prefix}Before` } : { after: "after", before: "before" };
}

/** The SQL expression to select as a row's `cursorKey` (its sort key as text). */
export function cursorKeySql(columns: KeysetColumns): SQL<string> {
  return sql<string>`${columns.sort}::text`;
}

/**
 * The keyset predicate: rows strictly older (or newer) than `cursor` in the list's
 * `(sort DESC, id DESC)` order. Shared by {@link keysetPage} and the CSV exports'
 * batches (`keysetBatches` in csv.server.ts).
 */
export function keysetSeek(order: KeysetColumns, cursor: Cursor, direction: "older" | "newer"): SQL {
  const id = typeof cursor.id === "number" ? sql`${cursor.id}::integer` : sql`${cursor.id}::text`;
  return direction === "newer"
    ? sql`(${order.sort}, ${order.id}) > (${cursor.key}::timestamptz, ${id})`
    : sql`(${order.sort}, ${order.id}) < (${cursor.key}::timestamptz, ${id})`;
}

/** The query parts {@link keysetPage} hands to a list's fetch function. */
export interface KeysetQuery {
  /** The list's filters AND the keyset predicate. */
  where: SQL | undefined;
  orderBy: SQL[];
  limit: number;
}

/** What a list is: its order, which page, and what it counts. */
export interface KeysetSpec {
  /** The sort column and id (the list must select `cursorKeySql(order)` as `cursorKey`). */
  order: KeysetColumns;
  /** From {@link pageRequestFrom}. */
  request: PageRequest;
  /** The table whose rows the list shows (what is counted). */
  table: PgTable;
  /** The list's filters (without the keyset predicate). */
  where: SQL | undefined;
  /**
   * Count at most this many rows (`total` is then a lower bound): for searches, whose exact
   * count over a large table costs more than the page itself. Default: exact.
   */
  countCap?: number;
  /** The number of rows matching `where` when the caller already knows it (e.g. from the tally): nothing is counted. */
  total?: number;
}

/**
 * Counting cap for searched lists: "100+ proposals". Counting a common term's matches to
 * 1,000 read ~16k rows with three ILIKEs each (~20 ms at 100k proposals); past a few
 * pages the useful answer is "refine the search", not the exact number.
 */
export const SEARCH_COUNT_CAP = 100;

/**
 * Reads one page of a list with keyset pagination, and counts the rows matching its
 * filters; the list's select and joins stay in its use-case (`fetch`).
 *
 * @returns the page, rows newest first, and cursors to its neighbours.
 */
export async function keysetPage<T extends { cursorKey: string; id: number | string }>(
  db: Queryable,
  spec: KeysetSpec,
  fetch: (query: KeysetQuery) => Promise<T[]>,
): Promise<Page<Omit<T, "cursorKey">>> {
  const { order, request } = spec;
  const backwards = request.before !== undefined;
  const cursor = request.before ?? request.after;
  const seek = cursor ? keysetSeek(order, cursor, backwards ? "newer" : "older") : undefined;
  const orderBy = backwards ? [asc(order.sort), asc(order.id)] : [desc(order.sort), desc(order.id)];
  // Sequential on purpose: PGlite runs one query at a time anyway, and one pooled
  // PostgreSQL connection per request keeps the pool free for other requests.
  const rows = await fetch({ where: and(spec.where, seek), orderBy, limit: request.size + 1 });
  const counted =
    spec.total !== undefined ? { total: spec.total, capped: false } : await countRows(db, spec.table, spec.where, spec.countCap);
  const more = rows.length > request.size;
  const items = rows.slice(0, request.size);
  if (backwards) items.reverse();
  const first = items[0];
  const last = items[items.length - 1];
  const hasNewer = backwards ? more : request.after !== undefined;
  const hasOlder = backwards ? true : more;
  return {
    items: items.map(({ cursorKey: _cursorKey, ...rest }) => rest),
    total: counted.total,
    totalIsLowerBound: counted.capped,
    next: hasOlder && last ? encodeCursor({ key: last.cursorKey, id: last.id }) : null,
    prev: hasNewer && first ? encodeCursor({ key: first.cursorKey, id: first.id }) : null,
  };
}

/**
 * Counts the rows of `table` matching `where`, exactly or up to `cap`.
 *
 * @returns `total` (at most `cap` when capped) and whether more rows exist than `total`.
 */
export async function countRows(
  db: Queryable,
  table: PgTable,
  where: SQL | undefined,
  cap?: number,
): Promise<{ total: number; capped: boolean }> {
  if (cap === undefined) {
    const [row] = await db.select({ n: count() }).from(table).where(where);
    return { total: row!.n, capped: false };
  }
  const matching = db
    .select({ one: sql`1`.as("one") })
    .from(table)
    .where(where)
    .limit(cap + 1)
    .as("matching");
  const [row] = await db.select({ n: count() }).from(matching);
  return { total: Math.min(row!.n, cap), capped: row!.n > cap };
}

/**
 * Normalises a search box value: trimmed, inner whitespace collapsed, at most
 * {@link MAX_SEARCH_LENGTH} characters.
 *
 * @returns the term, or undefined when empty.
 */
export function normalizeSearch(value: string | null | undefined): string | undefined {
  const term = (value ?? "")
    .replace(/[\u0000-\u001F\u007F-\u009F]/g, " ")
    .trim()
    .replace(/\s+/g, " ")
    .slice(0, MAX_SEARCH_LENGTH);
  return term === "" ? undefined : term;
}

/** The `?q=` search of a list that has no other filter, normalised by {@link normalizeSearch}. */
export function searchFiltersFrom(params: URLSearchParams): { q?: string } {
  return { q: normalizeSearch(params.get("q")) };
}

/**
 * A pattern for `ILIKE` that matches `term` anywhere, with `%`, `_` and `\` taken literally.
 *
 * @example containsPattern("50%_off") → "%50\\%\\_off%"
 */
export function containsPattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Most ids {@link matchingIdsCondition} inlines as constants. */
export const MAX_INLINE_IDS = 2_000;

/**
 * `column IN (ids of the rows a search matched in another table)`, built for the planner:
 * when the search matched at most {@link MAX_INLINE_IDS} rows, their ids are inlined as
 * constants (an index scan per id, OR-able with the list's own trigram indexes); when it
 * matched more, the term is so common that the subquery itself is used (hashed, while the
 * list is read in its index order until a page is full).
 *
 * @param subquery - builds `select id from … where <search>` (called twice at most).
 * @returns the condition (`false` when nothing matched).
 */
export async function matchingIdsCondition(
  column: AnyColumn,
  subquery: () => SQLWrapper & { limit(n: number): PromiseLike<{ id: string | number }[]> },
): Promise<SQL> {
  const ids = (await subquery().limit(MAX_INLINE_IDS + 1)).map((row) => row.id);
  if (ids.length === 0) return sql`false`;
  // One array parameter rather than one parameter per id: building and binding hundreds of
  // parameters cost ~15 % of a search request's CPU in drizzle alone.
  if (ids.length <= MAX_INLINE_IDS)
    return sql`${column} = any(${sql.param(ids)}::${sql.raw(typeof ids[0] === "number" ? "integer" : "text")}[])`;
  return inArray(column, subquery());
}

/**
 * A numbered page (OFFSET pagination) — for short per-user lists such as a client's own
 * proposals, where page numbers read better than cursors and the rows are few.
 */
export interface NumberedPage<T> {
  items: T[];
  /** 1-based page number actually served (clamped to the last page). */
  page: number;
  pageSize: number;
  /** Rows in the whole (filtered) list. */
  total: number;
  /** At least 1, even for an empty list. */
  pageCount: number;
}

/**
 * @param value - the `page` query parameter.
 * @returns a page number ≥ 1 (anything unparsable → 1, capped at 10 000).
 */
export function parsePageParam(value: string | null | undefined): number {
  if (!value || !/^\d{1,9}$/.test(value)) return 1;
  return Math.min(Math.max(Number(value), 1), 10_000);
}

/** @returns the number of pages for `total` rows (at least 1). */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/** A window count of every row a numbered list's statement matches, before its limit (`count(*) over ()`). */
export const totalOverSql = (): SQL<number> => sql<number>`count(*) over ()`.mapWith(Number);

/**
 * A numbered page read in one statement: `read` selects the page's rows with {@link totalOverSql} as
 * `total` (the whole list's count beside each row). A page past the end has no rows to carry the
 * count: then `count` counts the list and the last page is read instead (the clamp of
 * {@link NumberedPage}).
 *
 * @param page - 1-based, as asked (clamped here).
 * @param read - the rows of a 1-based page, each with the list's `total`.
 * @param count - the list's count (only for a page past the end).
 */
export async function numberedPage<Row extends { total: number }>(
  page: number,
  pageSize: number,
  read: (page: number) => Promise<Row[]>,
  count: () => Promise<number>,
): Promise<NumberedPage<Row>> {
  let served = Math.max(1, page);
  let items = await read(served);
  let total = items[0]?.total ?? 0;
  if (items.length === 0 && served > 1) {
    total = await count();
    served = pageCountOf(total, pageSize);
    if (served > 1) {
      items = await read(served);
      total = items[0]?.total ?? total;
    }
  }
  return { items, page: served, pageSize, total, pageCount: pageCountOf(total, pageSize) };
}
