/**
 * Calendar invite for a meeting, made with the `ics` library: DTSTART in UTC (the instant the
 * client picked in their time zone), the meeting's length (one hour by default). Every change of a
 * meeting sends the same UID with a higher SEQUENCE; a cancellation is METHOD:CANCEL with
 * STATUS:CANCELLED (RFC 5546), so calendars update or remove the event they hold
 * (docs/product.md#meeting-invites). Where the meeting happens (Settings, issue #41) is its LOCATION;
 * a video link is also its URL (calendars show a "Join" button for it), the portal link then stays in
 * the description.
 */
import { createEvent } from "ics";
import { meetingLink } from "./availability.schema";

export interface MeetingInvite {
  /** Meeting id, for a stable UID (updates replace the same event in calendars). */
  id: number;
  /** The meeting's instant (UTC). */
  startsAt: Date;
  /** The client's IANA time zone, shown in the description. */
  timeZone: string;
  durationMinutes?: number;
  /** iCalendar SEQUENCE: 0 for the first invite, raised by every change. */
  sequence?: number;
  /** True for the cancellation notice (METHOD:CANCEL, STATUS:CANCELLED). */
  cancelled?: boolean;
  title: string;
  notes?: string | null;
  /** Link into the portal. */
  url: string;
  /** Where: an address, or a video link (https) — Settings' "Meeting location or video link"; "" or absent = none. */
  location?: string;
  /** The agency (settings company name and support e-mail), when a support e-mail is set. */
  organizer?: { name: string; email: string };
  attendee: { name: string; email: string };
}

/**
 * @returns the `.ics` file text (an iCalendar VEVENT, METHOD:PUBLISH, or METHOD:CANCEL when cancelled).
 * @throws {Error} when the event cannot be encoded (e.g. an invalid date).
 */
export function meetingIcs(invite: MeetingInvite): string {
  const s = invite.startsAt;
  const local = new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "short", timeZone: invite.timeZone }).format(s);
  const location = invite.location?.trim() || undefined;
  const videoLink = location ? meetingLink(location) : null;
  const { error, value } = createEvent({
    uid: `meeting-${invite.id}@client-portal`,
    start: [s.getUTCFullYear(), s.getUTCMonth() + 1, s.getUTCDate(), s.getUTCHours(), s.getUTCMinutes()],
    startInputType: "utc",
    startOutputType: "utc",
    duration: { minutes: invite.durationMinutes ?? 60 },
    title: invite.title,
    description: `${local} (${invite.timeZone})${location ? `\n${videoLink ? "Join" : "Where"}: ${location}` : ""}${invite.notes ? `\n\n${invite.notes}` : ""}\n\n${invite.url}`,
    url: videoLink ?? invite.url,
    ...(location ? { location } : {}),
    status: invite.cancelled ? "CANCELLED" : "CONFIRMED",
    method: invite.cancelled ? "CANCEL" : "PUBLISH",
    sequence: invite.sequence ?? 0,
    ...(invite.organizer ? { organizer: invite.organizer } : {}),
    attendees: [{ name: invite.attendee.name, email: invite.attendee.email, rsvp: false, partstat: "ACCEPTED", role: "REQ-PARTICIPANT" }],
    productId: "portal/ics",
  });
  if (error || !value) throw error ?? new Error("Could not create the calendar invite.");
  return value;
}
