/**
 * The server's idea of "now", in one place so tests can move time (e.g. past a commission's
 * hold period) without waiting: use-cases that compare stored instants with the present read
 * {@link now}; tests call {@link setClock} and {@link resetClock}.
 */

let current: () => Date = () => new Date();

/** @returns the current instant (UTC), or the test's clock when one is set. */
export function now(): Date {
  return current();
}

/**
 * Replaces the clock (tests only).
 *
 * @param clock - a fixed instant, or a function returning the instant to use.
 */
export function setClock(clock: Date | (() => Date)): void {
  current = clock instanceof Date ? () => new Date(clock.getTime()) : clock;
}

/** Moves the clock forward by `ms` from what it reads now (tests only). */
export function advanceClock(ms: number): void {
  const base = now().getTime();
  const realAtSet = Date.now();
  current = () => new Date(base + ms + (Date.now() - realAtSet));
}

/** Back to the real clock. */
export function resetClock(): void {
  current = () => new Date();
}
