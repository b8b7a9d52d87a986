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

/*
 * The injectable clock of the background jobs (issue #26, docs/product.md#reminders): code that
 * decides by the time (the reminder sweep, "send reminder now") reads `clock.now()` instead of
 * `new Date()`, so tests can move time forward.
 */

/** A source of the current instant. */
export interface Clock {
  /** @returns the current instant (UTC). */
  now(): Date;
}

/** The process's time ({@link now}: the real time, or the one a test set with {@link setClock}). */
export const systemClock: Clock = { now: () => now() };

/** A clock tests set and move by hand. */
export interface ManualClock extends Clock {
  /** Sets the current instant. */
  set(at: Date | string): void;
  /** Moves the current instant forward by `ms` milliseconds. */
  advance(ms: number): void;
}

/** @returns a {@link ManualClock} starting at `start`. */
export function manualClock(start: Date | string): ManualClock {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set: (at) => void (current = new Date(at)),
    advance: (ms) => void (current = new Date(current.getTime() + ms)),
  };
}
