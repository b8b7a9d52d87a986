import type { Route } from "./+types/meeting-ics";
import { servicesContext } from "#app/context";
import { BOOKING_MESSAGES } from "#app/features/meetings/meetings.messages";
import { getMeetingInviteForClient } from "#app/features/meetings/meetings.server";
import { paramId } from "#app/lib/ids";
import { requireUser } from "#app/features/users/session.server";

/** `/client-dashboard/meetings/:meetingId.ics`: the calendar invite of an accepted meeting. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  const meetingId = paramId(params.meetingId, BOOKING_MESSAGES.notFound);
  const { filename, ics } = await getMeetingInviteForClient(db, requireUser(context), meetingId, { origin: env.origin });
  return new Response(ics, {
    headers: {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "private, no-store",
    },
  });
}
