/**
 * A record's reminders on its admin page (docs/product.md#reminders-admin): which reminders went
 * out and when (from the reminder ledger and the outbox), and "Send reminder now". The button posts
 * to `/admin/reminders/<kind>/<id>` (a fetcher with JavaScript; without, that page shows the outcome).
 */
import { useFetcher } from "react-router";
import { LocalTime } from "#app/components/local-time";
import { buttonClass } from "#app/components/ui/button";
import { Notice } from "#app/components/ui/notice";
import type { ReminderHistoryRow } from "../admin-reminders.server";

export const SEND_NOW_INTENT = "send-now";

/** The path of a record's reminder page (history + send now). */
export function remindersPath(kind: string, id: number): string {
  return `/admin/reminders/${kind}/${id}`;
}

export function RemindersPanel({
  kind,
  id,
  history,
  reply,
  headingLevel = 2,
}: {
  kind: "invoice" | "proposal" | "meeting";
  id: number;
  history: ReminderHistoryRow[];
  /** The outcome of a post without JavaScript (the reminder page's action data). */
  reply?: { ok: boolean; message: string; intent?: string } | null;
  headingLevel?: 2 | 3;
}) {
  const fetcher = useFetcher<{ ok: boolean; message: string }>();
  const outcome = fetcher.data ?? (reply?.intent === SEND_NOW_INTENT ? reply : null);
  const pending = fetcher.state !== "idle";
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const titleId = `reminders-${kind}-${id}`;
  return (
    <section aria-labelledby={titleId} className="mt-8 flex max-w-2xl flex-col gap-3 rounded-lg border border-slate-200 p-4">
      <Heading id={titleId} className="text-lg font-semibold">
        Reminders
      </Heading>
      {history.length === 0 ? (
        <p className="text-sm text-slate-700">No reminder has gone out for this {kind} yet.</p>
      ) : (
        <ul className="flex flex-col gap-2 text-sm" aria-label="Reminders sent">
          {history.map((r) => (
            <li key={r.id} className="wrap-text border-b border-slate-100 pb-2 last:border-0">
              <span className="font-medium">{r.label}</span>
              {r.stepLabel ? <span className="text-slate-700"> · {r.stepLabel}</span> : null}
              <span className="block text-slate-700">
                {r.status === "skipped" ? "Skipped (a later reminder was due) · " : ""}
                <LocalTime value={r.at} />
                {r.mail ? ` · mail ${mailState(r.mail)}` : ""}
                {r.mail?.to && r.mail.to !== "@admin" ? ` to ${r.mail.to}` : ""}
                {r.by ? ` · by ${r.by}` : ""}
              </span>
            </li>
          ))}
        </ul>
      )}
      <fetcher.Form method="post" action={remindersPath(kind, id)} className="flex flex-wrap items-center gap-3" preventScrollReset>
        <input type="hidden" name="intent" value={SEND_NOW_INTENT} />
        <button type="submit" className={buttonClass("secondary")} disabled={pending}>
          {pending ? "Sending…" : "Send reminder now"}
        </button>
        <span className="text-sm text-slate-600">At most one reminder per hour.</span>
      </fetcher.Form>
      <div aria-live="polite">{outcome ? <Notice tone={outcome.ok ? "success" : "error"}>{outcome.message}</Notice> : null}</div>
    </section>
  );
}

function mailState(mail: NonNullable<ReminderHistoryRow["mail"]>): string {
  switch (mail.state) {
    case "sent":
      return "delivered";
    case "failed":
      return "failed (see the outbox)";
    case "purged":
      return "delivered (record purged)";
    default:
      return "queued";
  }
}
