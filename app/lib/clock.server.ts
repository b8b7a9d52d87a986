/**
 * The one injectable clock of the background jobs (issue #26, docs/product.md#reminders): code that
 * decides by the time (the reminder sweep, "send reminder now") reads `clock.now()` instead of
 * `new Date()`, so tests can move time forward.
 */

/** A source of the current instant. */
export interface Clock {
  /** @returns the current instant (UTC). */
  now(): Date;
}

/** The real time of the process. */
export const systemClock: Clock = { now: () => new Date() };

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
