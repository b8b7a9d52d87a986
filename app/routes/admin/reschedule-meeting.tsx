import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/reschedule-meeting";
import { LocalTime } from "#app/components/local-time";
import { PageHeading } from "#app/components/page-heading";
import { CardSection } from "#app/components/ui/card-section";
import { SubmitButton } from "#app/components/ui/field";
import { Notice } from "#app/components/ui/notice";
import { DayPicker, replyErrors, SlotList } from "#app/features/meetings/components/slot-picker";
import { slotPickerView } from "#app/features/meetings/availability.server";
import { rescheduleMeeting } from "#app/features/meetings/booking.server";
import { getMeetingForAdmin } from "#app/features/meetings/meetings.admin.server";
import { bookingSchema } from "#app/features/meetings/meetings.schema";
import { BOOKING_MESSAGES } from "#app/features/meetings/meetings.messages";
import { actorAndDb } from "#app/features/users/session.server";
import { firstValidTimeZone, timeZoneFromCookie } from "#app/lib/dates";
import { formAction } from "#app/lib/form-action.server";
import { paramId } from "#app/lib/ids";
import { timeZoneNames } from "#app/lib/time-zones";
import { listRemindersFor } from "#app/features/reminders/admin-reminders.server";
import { RemindersPanel } from "#app/features/reminders/components/reminders-panel";

export const meta: Route.MetaFunction = () => [{ title: "Reschedule a meeting | Admin Console" }, { name: "robots", content: "noindex" }];

/** The meeting and the free slots it may move to; the minimum notice does not bind the admin. */
export async function loader({ request, params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const meetingId = paramId(params.meetingId, BOOKING_MESSAGES.notFound);
  const meeting = await getMeetingForAdmin(db, actor, meetingId);
  const url = new URL(request.url);
  const zone = firstValidTimeZone(url.searchParams.get("tz"), timeZoneFromCookie(request.headers.get("cookie")));
  const view = await slotPickerView(db, zone, url.searchParams.get("day"), { exceptMeetingId: meetingId, ignoreNotice: true });
  // docs/product.md#reminders-admin: the meeting's reminders.
  return { meeting, view, zones: timeZoneNames(), reminders: await listRemindersFor(db, actor, "meeting", meetingId) };
}

/** Moves the meeting (docs/product.md#meeting-changes); the client is mailed the updated invite. */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  const meetingId = paramId(args.params.meetingId, BOOKING_MESSAGES.notFound);
  return formAction(args, bookingSchema, async (value) => {
    await rescheduleMeeting(db, actor, meetingId, value);
    return redirect("/admin/meetings?show=upcoming");
  });
}

export default function AdminRescheduleMeeting({ loaderData, actionData }: Route.ComponentProps) {
  const { meeting, view, zones } = loaderData;
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";
  const errors = replyErrors(actionData);
  const otherError = actionData?.ok === false && !errors.slot ? actionData.message : null;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageHeading
        title="Reschedule a meeting"
        lead={
          <>
            {meeting.clientName}, now <LocalTime value={meeting.startsAt} />
          </>
        }
      >
        <Link to="/admin/meetings" className="text-brand-700 underline underline-offset-4">
          All meetings
        </Link>
      </PageHeading>
      {meeting.changeable ? (
        <>
          <CardSection id="day-title" title="1. Choose a new day">
            <div className="mt-4">
              <DayPicker view={view} zones={zones} />
            </div>
          </CardSection>
          <CardSection id="time-title" title="2. Choose a new time">
            <Form method="post" className="mt-4 flex flex-col gap-4" preventScrollReset>
              <input type="hidden" name="timeZone" value={view.timeZone} />
              <SlotList view={view} error={errors.slot?.join(" ")} empty="No free times on this day. Choose one of the days above." />
              {view.slots.length ? (
                <div>
                  <SubmitButton pending={pending} pendingLabel="Moving…">
                    Move meeting
                  </SubmitButton>
                </div>
              ) : null}
              {otherError ? <Notice tone="error">{otherError}</Notice> : null}
            </Form>
          </CardSection>
        </>
      ) : (
        <Notice tone="info">{BOOKING_MESSAGES.notChangeable}</Notice>
      )}
      <RemindersPanel kind="meeting" id={meeting.id} history={loaderData.reminders} />
    </div>
  );
}
