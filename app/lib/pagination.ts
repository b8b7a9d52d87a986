/**
 * Server-side pagination of lists (page numbers start at 1).
 */

/** A page of rows and where it sits in the whole list. */
export interface Page<T> {
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
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 ? Math.min(n, 10_000) : 1;
}

/** @returns the number of pages for `total` rows (at least 1). */
export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}
