import { useEffect, useState } from "react";

/** Set once the first render in the browser (the hydration) has committed. */
let hydratedOnce = false;

/**
 * @returns false while rendering on the server and during hydration, true afterwards (so the
 *   first browser render matches the server's HTML, then browser-only values appear); true at
 *   once in components that mount later (after a client-side navigation).
 *
 * A state set by an effect rather than `useSyncExternalStore` with a server snapshot: the browser
 * bundle hydrates with Preact (vite.config.ts), whose `useSyncExternalStore` reads the client
 * snapshot in parts of a hydration that resumed after suspending, so a browser-only element would
 * be created while Preact claims the server's elements in order.
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
