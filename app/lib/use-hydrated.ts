import { useEffect, useState } from "react";

/** Set once the first render in the browser (the hydration) has committed. */
let hydratedOnce = false;

/**
 * @returns false while rendering on the server and during hydration, true afterwards (so the
 *   first browser render matches the server's HTML, then browser-only values appear); true at
 *   once in components that mount later (after a client-side navigation).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(hydratedOnce);
  useEffect(() => {
    hydratedOnce = true;
    setHydrated(true);
  }, []);
  return hydrated;
}
