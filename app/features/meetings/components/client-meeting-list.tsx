/**
 * The client's meetings as a list (docs/product.md#client-meetings): time (in the viewer's zone),
 * the project, notes and status; for an upcoming meeting what the client may do now — Reschedule and
 * Cancel until the cutoff, else a line saying to write to the agency — and "Add to calendar" once
 * accepted. Past meetings show neither.
 */
import type { ReactNode } from "react";
import { Link } from "react-router";
import { LocalDateTime } from "#app/components/local-time";
import { ConfirmAction } from "#app/components/ui/confirm";
import { buttonClass } from "#app/components/ui/button";
import type { MeetingStatus } from "#app/db/enums";
import { countOf } from "#app/lib/vocabulary";
import { MeetingStatusBadge } from "./meeting-status-badge";

/** One meeting as the list needs it (the server's `ClientMeetingRow`, dates possibly serialised). */
export interface ClientMeetingItem {
  id: number;
  startsAt: Date | string;
  timeZone: string;
  notes: string | null;
  status: MeetingStatus;
  projectName: string | null;
  change: "changeable" | "past-cutoff" | "closed";
}

export function ClientMeetingList({
  meetings,
  label,
  empty,
  past = false,
  changeCutoffHours = 0,
  supportEmail = "",
}: {
  meetings: ClientMeetingItem[];
  label: string;
  empty: ReactNode;
  past?: boolean;
  changeCutoffHours?: number;
  supportEmail?: string;
}) {
  if (meetings.length === 0) return <p className="mt-3 text-slate-700">{empty}</p>;
  return (
    <ul className="mt-4 divide-y divide-slate-200" aria-label={label}>
      {meetings.map((m) => (
        <li key={m.id} className="flex flex-wrap items-start justify-between gap-3 py-3" data-testid="meeting-item">
          <div className="min-w-0">
            <p className="font-medium">
              <LocalDateTime value={m.startsAt} timeZone={m.timeZone} />
            </p>
            {m.projectName ? <p className="text-sm text-slate-700 wrap-anywhere">About {m.projectName}</p> : null}
            {m.notes ? <p className="text-sm wrap-anywhere whitespace-pre-line text-slate-700">{m.notes}</p> : null}
            {!past && m.change === "past-cutoff" ? (
              <p className="mt-1 text-sm text-slate-700" data-testid="meeting-cutoff">
                Less than {countOf(changeCutoffHours, "hour")} to go: to move or cancel it, write to the agency
                {supportEmail ? (
                  <>
                    {" "}
                    at{" "}
                    <a className="text-brand-700 underline" href={`mailto:${supportEmail}`}>
                      {supportEmail}
                    </a>
                  </>
                ) : null}
                .
              </p>
            ) : null}
          </div>
          <div className="flex flex-wrap items-start gap-2">
            <MeetingStatusBadge status={m.status} />
            {!past && m.status === "accepted" ? (
              <a href={`/client-dashboard/meetings/${m.id}/ics`} download className={buttonClass("secondary")}>
                Add to calendar (.ics)
              </a>
            ) : null}
            {!past && m.change === "changeable" ? (
              <>
                <Link to={`/meetings/${m.id}/reschedule`} className={buttonClass("secondary")}>
                  Reschedule
                </Link>
                <ConfirmAction
                  intent="cancel-meeting"
                  id={m.id}
                  label="Cancel meeting"
                  question="Cancel this meeting? The agency will be told, and the time becomes free for others."
                  confirmLabel="Yes, cancel meeting"
                  pendingLabel="Cancelling…"
                />
              </>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}
