/**
 * A list of meetings for the admin (docs/product.md#meetings-admin): the time in the viewer's zone
 * (and the client's, below), client, notes, status (with "Past" once the time has gone by) and the
 * actions: Accept / Decline for requests still ahead, Reschedule / Cancel (confirmed) for pending and
 * accepted meetings still ahead, Delete (confirmed) for any. Several actions fold into one menu.
 */
import { useNavigation } from "react-router";
import { LocalTime } from "#app/components/local-time";
import { BreakableText } from "#app/components/ui/breakable-text";
import { ConfirmLink, ConfirmPanel, useIsConfirming } from "#app/components/ui/confirm";
import { DataTable, ListLink, type Column } from "#app/components/ui/data-table";
import { RowMenu, ROW_MENU_ITEM } from "#app/components/ui/row-menu";
import type { MeetingStatus } from "#app/db/enums";
import { MeetingStatusBadge } from "./meeting-status-badge";

/** One row as the server's `AdminMeetingRow` gives it. */
export interface AdminMeetingItem {
  id: number;
  startsAt: string | null;
  timeZone: string;
  notes: string | null;
  status: MeetingStatus;
  createdAt: string | null;
  clientName: string;
  clientEmail: string;
}

/** @returns true when the meeting's time has passed (or cannot be shown). */
function isPast(meeting: AdminMeetingItem): boolean {
  return !meeting.startsAt || new Date(meeting.startsAt).getTime() <= Date.now();
}

export function AdminMeetingTable({ caption, rows, empty }: { caption: string; rows: AdminMeetingItem[]; empty: string }) {
  const isConfirming = useIsConfirming();
  const columns: Column<AdminMeetingItem>[] = [
    {
      header: "Time",
      cell: (m) => (
        <>
          <LocalTime value={m.startsAt} />
          <span className="block text-xs text-slate-600">
            Client&apos;s time: <LocalTime value={m.startsAt} timeZone={m.timeZone} /> {`(${m.timeZone})`}
          </span>
        </>
      ),
    },
    {
      header: "Client",
      cell: (m) => (
        <span className="wrap-text block max-w-xs">
          {m.clientName}
          <BreakableText className="block text-xs text-slate-600" text={m.clientEmail} />
        </span>
      ),
    },
    { header: "Notes", cell: (m) => <span className="wrap-text line-clamp-3 max-w-xs">{m.notes || "—"}</span> },
    { header: "Status", cell: (m) => <MeetingStatusBadge status={m.status} past={isPast(m)} /> },
    { header: "Requested", cell: (m) => <LocalTime value={m.createdAt} /> },
    { header: <span className="sr-only">Actions</span>, label: "", cell: (m) => <MeetingActions meeting={m} /> },
  ];
  return (
    <DataTable
      caption={caption}
      columns={columns}
      rows={rows}
      rowKey={(m) => m.id}
      empty={empty}
      after={(m) => {
        if (isConfirming("delete-meeting", m.id)) {
          return (
            <ConfirmPanel
              title={`Delete the meeting request of ${m.clientName}?`}
              intent="delete-meeting"
              fields={{ meetingId: m.id }}
              confirmLabel="Yes, delete meeting"
            >
              <LocalTime value={m.startsAt} />. The client will no longer see it. This cannot be undone.
            </ConfirmPanel>
          );
        }
        if (isConfirming("cancel-meeting", m.id)) {
          return (
            <ConfirmPanel
              title={`Cancel the meeting with ${m.clientName}?`}
              intent="cancel-meeting"
              fields={{ meetingId: m.id }}
              confirmLabel="Yes, cancel meeting"
              pendingLabel="Cancelling…"
            >
              <LocalTime value={m.startsAt} />. The client is mailed a cancellation for their calendar, and the time becomes free.
            </ConfirmPanel>
          );
        }
        return null;
      }}
    />
  );
}

/** Accept and Decline (one click each), Reschedule, Cancel and Delete (after a confirmation). */
function MeetingActions({ meeting }: { meeting: AdminMeetingItem }) {
  const navigation = useNavigation();
  const busy = (intent: string) =>
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === intent &&
    navigation.formData?.get("meetingId") === String(meeting.id);
  const ahead = !isPast(meeting);
  const answerable = ahead && meeting.status === "pending";
  const changeable = ahead && (meeting.status === "pending" || meeting.status === "accepted");
  const deleteLink = (className?: string) => (
    <ConfirmLink
      kind="delete-meeting"
      target={meeting.id}
      className={className}
      label={`Delete the meeting request of ${meeting.clientName}`}
    >
      Delete
    </ConfirmLink>
  );
  if (!changeable) return deleteLink();
  // Accept and Decline post the menu's one form (RowMenu's `fields`), each button naming its intent.
  const answer = (intent: "accept-meeting" | "decline-meeting", label: string, pendingLabel: string) => (
    <button type="submit" name="intent" value={intent} className={ROW_MENU_ITEM} disabled={busy(intent)}>
      {busy(intent) ? pendingLabel : label}
    </button>
  );
  return (
    <RowMenu name={`the meeting of ${meeting.clientName}`} fields={answerable ? { meetingId: meeting.id } : undefined}>
      {answerable ? <li>{answer("accept-meeting", "Accept", "Accepting…")}</li> : null}
      {answerable ? <li>{answer("decline-meeting", "Decline", "Declining…")}</li> : null}
      <li>
        <ListLink to={`/admin/meetings/${meeting.id}/reschedule`} className={ROW_MENU_ITEM}>
          Reschedule
        </ListLink>
      </li>
      {meeting.status === "accepted" ? (
        <li>
          {/* docs/product.md#reminders-admin: the meeting's reminders and "Send reminder now". */}
          <ListLink to={`/admin/reminders/meeting/${meeting.id}`} className={ROW_MENU_ITEM}>
            Reminders
          </ListLink>
        </li>
      ) : null}
      <li>
        <ConfirmLink
          kind="cancel-meeting"
          target={meeting.id}
          className={ROW_MENU_ITEM}
          label={`Cancel the meeting of ${meeting.clientName}`}
        >
          Cancel
        </ConfirmLink>
      </li>
      <li>{deleteLink(`${ROW_MENU_ITEM} text-red-800`)}</li>
    </RowMenu>
  );
}
