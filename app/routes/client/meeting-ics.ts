import type { Route } from "./+types/meeting-ics";
import { servicesContext } from "#app/context";
import { getMeetingInviteForClient } from "#app/features/meetings/meetings.server";
import { throwAsResponse } from "#app/lib/intent.server";
import { requireUser } from "#app/lib/session.server";

/** `/client-dashboard/meetings/:meetingId.ics` (issue #6): the calendar invite of an accepted meeting. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { db, env } = context.get(servicesContext);
  try {
    const { filename, ics } = await getMeetingInviteForClient(db, requireUser(context), params.meetingId, { origin: env.origin });
    return new Response(ics, {
      headers: {
        "Content-Type": "text/calendar; charset=utf-8",
        "Content-Disposition": `attachment; filename="${filename}"`,
        "Cache-Control": "private, no-store",
      },
    });
  } catch (error) {
    throwAsResponse(error);
  }
}
