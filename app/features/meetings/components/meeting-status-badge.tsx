import { Badge, type BadgeTone } from "#app/components/ui/badge";
import type { MeetingStatus } from "#app/db/enums";

const TONE: Record<MeetingStatus, BadgeTone> = { pending: "amber", accepted: "green", declined: "red" };
const LABEL: Record<MeetingStatus, string> = { pending: "Pending", accepted: "Accepted", declined: "Declined" };

/** A meeting's status with the client view's colours (spec §4 Meeting status). */
export function MeetingStatusBadge({ status }: { status: MeetingStatus }) {
  return <Badge tone={TONE[status]}>{LABEL[status]}</Badge>;
}
