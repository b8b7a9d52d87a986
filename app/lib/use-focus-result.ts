/**
 * Shows the result of a form where the user is (docs/product.md#form-messages): when `result`
 * appears (a reply, or a message a redirect brought), the element holding it is scrolled into view
 * and focused, so a phone user sees it and a screen reader reads it — not above the screen.
 */
import { useEffect, useRef } from "react";

/**
 * @param result - the message shown now (null when none); a new value moves focus again.
 * @returns a ref for the element holding the message (give it `tabIndex={-1}`).
 */
export function useFocusOnArrival<T extends HTMLElement>(result: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const element = ref.current;
    if (!result || !element) return;
    element.scrollIntoView({ block: "center", behavior: "instant" });
    element.focus({ preventScroll: true });
  }, [result]);
  return ref;
}
