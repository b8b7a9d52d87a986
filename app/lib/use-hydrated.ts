import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * @returns false while rendering on the server and during hydration, true afterwards (so the
 *   first browser render matches the server's HTML, then browser-only values appear); true at
 *   once in components that mount later (after a client-side navigation). React renders the
 *   server snapshot while hydrating and the client one right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
