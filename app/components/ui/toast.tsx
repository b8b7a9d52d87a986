/**
 * The page's toast (docs/product.md#proposals-admin-status): a fixed box at the bottom of the
 * screen, so showing or hiding it never moves the page's layout. Its live region is always in
 * the document (empty when there is nothing to say), so screen readers announce what appears.
 * With JavaScript the message hides itself after `seconds`; without, it stays until the next page.
 */
import { useEffect, useState, type ReactNode } from "react";

/**
 * @param message - the text; null shows nothing.
 * @param messageKey - an object that changes with each new message (e.g. the action's reply), restarting the timer.
 * @param action - e.g. the Undo form, shown next to the message.
 * @param seconds - how long the toast stays (with JavaScript).
 */
export function Toast({
  message,
  messageKey,
  action,
  tone = "success",
  seconds = 8,
}: {
  message: string | null;
  messageKey?: object | null;
  action?: ReactNode;
  tone?: "success" | "error";
  seconds?: number;
}) {
  const [hiddenKey, setHiddenKey] = useState<object | string | null>(null);
  const key = messageKey ?? message ?? "";
  useEffect(() => {
    if (!message) return;
    const timer = setTimeout(() => setHiddenKey(key), seconds * 1000);
    return () => clearTimeout(timer);
  }, [key, message, seconds]);
  const visible = Boolean(message) && hiddenKey !== key;
  const colours = tone === "success" ? "border-green-300 bg-green-50 text-green-950" : "border-red-300 bg-red-50 text-red-900";
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-30 flex justify-center px-4">
      <div role="status" aria-live="polite" aria-atomic="true" className="toast-region">
        {visible ? (
          <div
            className={`pointer-events-auto flex max-w-xl flex-wrap items-center gap-3 rounded-lg border px-4 py-3 text-sm font-medium shadow-lg ${colours}`}
          >
            <span className="wrap-anywhere">{message}</span>
            {action}
          </div>
        ) : null}
      </div>
    </div>
  );
}
