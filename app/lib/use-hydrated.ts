import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * @returns false while rendering on the server and during hydration, true afterwards (so the
 *   first browser render matches the server's HTML, then browser-only values appear).
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
