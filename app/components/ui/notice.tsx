import type { ReactNode } from "react";

/** A message box: green for success, red for errors (announced as an alert), grey for information. */
export function Notice({
  tone,
  children,
  id,
  className = "",
}: {
  tone: "success" | "error" | "info";
  children: ReactNode;
  id?: string;
  className?: string;
}) {
  const styles = {
    success: "border-green-300 bg-green-50 text-green-900",
    error: "border-red-300 bg-red-50 text-red-800",
    info: "border-slate-300 bg-slate-50 text-slate-800",
  }[tone];
  return (
    <p id={id} role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-3 py-2 font-medium ${styles} ${className}`}>
      {children}
    </p>
  );
}

/**
 * The message of an action's reply `{ ok, message }` (a `FormReply`, see `app/lib/form-action.server.ts`),
 * green when `ok`, red otherwise; nothing when there is no reply or no message.
 */
export function ActionNotice({ result, className }: { result?: { ok: boolean; message?: string } | null; className?: string }) {
  if (!result?.message) return null;
  return (
    <Notice tone={result.ok ? "success" : "error"} className={className}>
      {result.message}
    </Notice>
  );
}
