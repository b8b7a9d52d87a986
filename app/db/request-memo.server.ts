/**
 * A request-scoped memo of reads (issue #30): a page's loaders often call several use-cases that
 * each read the same small fact (the settings row, the unread badge). {@link withRequestMemo} gives
 * one request its own view of the database; {@link memoRead} on that view runs a read once and
 * shares its answer with the rest of the request. Nothing outlives the request (no process-wide
 * cache: several processes serve the same database), and a transaction is never memoised, so a
 * read inside a write sees the write.
 */
import type { Database, Queryable } from "./client.server";

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * @returns a view of `db` for one request: the same database and pool (every method is `db`'s),
 *   with its own empty memo. Use it for reads that may be shared — a GET's loaders — not across
 *   an action and the loaders after it.
 */
export function withRequestMemo(db: Database): Database {
  const view = Object.create(db) as Database;
  memos.set(view, new Map());
  return view;
}

/**
 * Runs `read` once per request view and key: later calls with the same key get the first call's
 * answer (a failed read is forgotten, so the next call reads again). Without a request view
 * (plain database, transaction, tests), it simply runs `read`.
 *
 * @param key - what is read, including every argument that changes the answer (e.g. the user id).
 */
export function memoRead<T>(q: Queryable, key: string, read: () => Promise<T>): Promise<T> {
  const memo = memos.get(q);
  if (!memo) return read();
  const known = memo.get(key) as Promise<T> | undefined;
  if (known) return known;
  const promise = read();
  memo.set(key, promise);
  promise.catch(() => memo.delete(key));
  return promise;
}

/**
 * Gives the request view the answer of the read `key` when another statement of the same request
 * already brought it (e.g. the session's statement brings the person's organisations): a later
 * {@link memoRead} with that key gets `value` and sends nothing. A key already read is kept.
 * Without a request view it does nothing.
 *
 * @param key - the key {@link memoRead} uses for that read, with every argument (e.g. the user id).
 */
export function memoPrime<T>(q: Queryable, key: string, value: T): void {
  const memo = memos.get(q);
  if (memo && !memo.has(key)) memo.set(key, Promise.resolve(value));
}

/**
 * The answer of the read `key` when this request already ran it (or is running it), without
 * reading: for a use-case whose own check another read of the same request already implies (e.g. a
 * proposal the actor may read is one whose conversation they take part in).
 *
 * @returns the first call's promise, or undefined when nothing was read under `key` (or without a
 *   request view: plain database, transaction, tests).
 */
export function memoPeek<T>(q: Queryable, key: string): Promise<T> | undefined {
  return memos.get(q)?.get(key) as Promise<T> | undefined;
}

/**
 * @returns whether `q` is a request view ({@link withRequestMemo}): whether a read primed on it
 *   ({@link memoPrime}) will be used — so that a statement brings such facts only when they serve.
 */
export function isRequestView(q: Queryable): boolean {
  return memos.has(q);
}
