import type { ReactNode } from "react";

/**
 * A page-level message: success is a polite status, an error an alert (announced at once).
 */
export function Notice({ tone, children, id }: { tone: "success" | "error" | "info"; children: ReactNode; id?: string }) {
  const styles = {
    success: "border-green-300 bg-green-50 text-green-900",
    error: "border-red-300 bg-red-50 text-red-800",
    info: "border-slate-300 bg-slate-50 text-slate-800",
  }[tone];
  return (
    <p id={id} role={tone === "error" ? "alert" : "status"} className={`rounded-md border px-3 py-2 font-medium ${styles}`}>
      {children}
    </p>
  );
}

/** Shows an intent action's reply (see `app/lib/intent.server.ts`) at the top of a page. */
export function ReplyNotice({ reply }: { reply: { ok: boolean; message: string } | null | undefined }) {
  if (!reply?.message) return null;
  return <Notice tone={reply.ok ? "success" : "error"}>{reply.message}</Notice>;
}
