/**
 * Requests the router cancelled on purpose are not errors (issue #42).
 *
 * React Router aborts a page's data request when another navigation or revalidation replaces it
 * (`AbortController.abort()` without a reason). When the answer was already being read, the
 * router's stream decoder leaves a promise rejected with the abort (`AbortError: signal is aborted
 * without reason`) that nothing awaits, and the browser reports it as an uncaught error, though the
 * page moved on as intended. Seen on /client-dashboard when a live update's reload was replaced on
 * a busy machine (bench/results/test-speed.md, the fourth session).
 */

/** Whether an unhandled rejection's reason is a cancelled request (a DOMException named AbortError). */
export function isAbortRejection(reason: unknown): boolean {
  return typeof DOMException !== "undefined" && reason instanceof DOMException && reason.name === "AbortError";
}

/**
 * Keeps cancelled requests out of the browser's uncaught errors: an unhandled rejection whose
 * reason is an AbortError is marked handled; every other one is reported as before.
 *
 * @param target - the window to listen on.
 * @returns a function that removes the listener.
 */
export function ignoreAbortRejections(target: Window): () => void {
  const onRejection = (event: PromiseRejectionEvent) => {
    if (isAbortRejection(event.reason)) event.preventDefault();
  };
  target.addEventListener("unhandledrejection", onRejection);
  return () => target.removeEventListener("unhandledrejection", onRejection);
}
