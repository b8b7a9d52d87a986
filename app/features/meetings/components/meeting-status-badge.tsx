import { Badge, type BadgeTone } from "#app/components/ui/badge";
import type { MeetingStatus } from "#app/db/enums";
import { MEETING_STATUS_LABELS, PAST_MEETING_LABEL } from "#app/lib/vocabulary";

const TONE: Record<MeetingStatus, BadgeTone> = { pending: "amber", accepted: "green", declined: "red", cancelled: "gray" };

/**
 * A meeting's status (docs/product.md#meeting-statuses); with `past`, a grey "Past" badge follows
 * it for a meeting whose time has gone by.
 */
export function MeetingStatusBadge({ status, past = false }: { status: MeetingStatus; past?: boolean }) {
  const badge = <Badge tone={TONE[status]}>{MEETING_STATUS_LABELS[status]}</Badge>;
  // The wrapper lays out two badges; one needs none (a row of a long list, issue #42).
  if (!past) return badge;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {badge}
      <Badge tone="gray">{PAST_MEETING_LABEL}</Badge>
    </span>
  );
}
