import { Link } from "react-router";
import type { Route } from "./+types/meetings";
import { PageHeading } from "#app/components/page-heading";
import { CardSection } from "#app/components/ui/card-section";
import { buttonClass } from "#app/components/ui/button";
import { ActionNotice } from "#app/components/ui/notice";
import { ClientMeetingList } from "#app/features/meetings/components/client-meeting-list";
import { cancelMeeting } from "#app/features/meetings/booking.server";
import { BOOKING_MESSAGES } from "#app/features/meetings/meetings.messages";
import { listClientMeetings } from "#app/features/meetings/meetings.server";
import { getSettings } from "#app/features/settings/settings.server";
import { actorAndDb } from "#app/features/users/session.server";
import { formId, requireConfirmation, runIntent } from "#app/lib/form-action.server";
import { useFocusOnArrival } from "#app/lib/use-focus-result";
import { PROJECT_ROLES } from "#app/features/organisations/access.server";
import { requireOrganisationRoles } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Your meetings | Client Portal" }];

/** Only for the roles whose area this is (docs/product.md#organisations: projects, conversations and meetings). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(PROJECT_ROLES)];

/** The messages a redirect here may carry (`?notice=`). */
const NOTICES: Record<string, string> = {
  booked: BOOKING_MESSAGES.booked,
  confirmed: BOOKING_MESSAGES.bookedConfirmed,
  rescheduled: BOOKING_MESSAGES.rescheduled,
};

/** The client's meetings (docs/product.md#client-meetings): upcoming, then past ones apart. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const [meetings, settings] = await Promise.all([listClientMeetings(db, actor), getSettings(db)]);
  const notice = NOTICES[new URL(request.url).searchParams.get("notice") ?? ""] ?? null;
  return { ...meetings, supportEmail: settings.supportEmail, notice };
}

/** `cancel-meeting` (with `confirm=yes`): until the cutoff (docs/product.md#meeting-changes). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return runIntent(args, {
    "cancel-meeting": async (form) => {
      requireConfirmation(form, "Confirm the cancellation first.");
      await cancelMeeting(db, actor, formId(form));
      return BOOKING_MESSAGES.cancelled;
    },
  });
}

export default function ClientMeetings({ loaderData, actionData }: Route.ComponentProps) {
  const { upcoming, past, changeCutoffHours, supportEmail, notice } = loaderData;
  const message = actionData ?? (notice ? { ok: true, message: notice } : null);
  const noticeRef = useFocusOnArrival<HTMLDivElement>(message);
  return (
    <>
      <PageHeading title="Your meetings" lead="Meetings with the agency, booked from its free times.">
        <Link to="/meetings/book" className={buttonClass("primary", "md")}>
          Book a meeting
        </Link>
      </PageHeading>
      <div ref={noticeRef} tabIndex={-1} className="mb-4 outline-none">
        <ActionNotice result={message} />
      </div>
      <div className="flex flex-col gap-6">
        <CardSection id="upcoming-title" title="Upcoming meetings">
          <ClientMeetingList
            meetings={upcoming}
            label="Upcoming meetings"
            empty={
              <>
                No upcoming meetings.{" "}
                <Link to="/meetings/book" className="text-brand-700 underline">
                  Book one
                </Link>{" "}
                from the agency&apos;s free times.
              </>
            }
            changeCutoffHours={changeCutoffHours}
            supportEmail={supportEmail}
          />
        </CardSection>
        <CardSection id="past-title" title="Past meetings">
          <ClientMeetingList meetings={past} label="Past meetings" empty="No past meetings." past />
        </CardSection>
      </div>
    </>
  );
}
