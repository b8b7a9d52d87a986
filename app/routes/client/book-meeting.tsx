import { Form, Link, redirect, useNavigation } from "react-router";
import type { Route } from "./+types/book-meeting";
import { PageHeading } from "#app/components/page-heading";
import { CardSection } from "#app/components/ui/card-section";
import { SubmitButton, TextareaField } from "#app/components/ui/field";
import { Notice } from "#app/components/ui/notice";
import { DayPicker, replyErrors, SlotList } from "#app/features/meetings/components/slot-picker";
import { slotPickerView } from "#app/features/meetings/availability.server";
import { bookMeeting } from "#app/features/meetings/booking.server";
import { bookingSchema } from "#app/features/meetings/meetings.schema";
import { MEETING_NOTES_MAX } from "#app/features/meetings/meetings.messages";
import { listClientProjectNames } from "#app/features/proposals/proposals.server";
import { getAvailability } from "#app/features/meetings/availability.server";
import { actorAndDb } from "#app/features/users/session.server";
import { firstValidTimeZone, timeZoneFromCookie } from "#app/lib/dates";
import { formAction } from "#app/lib/form-action.server";
import { timeZoneNames } from "#app/lib/time-zones";
import { PROJECT_ROLES } from "#app/features/organisations/access.server";
import { requireOrganisationRoles } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Book a meeting | Client Portal" }];

/** Only for the roles whose area this is (docs/product.md#organisations: projects, conversations and meetings). */
export const middleware: Route.MiddlewareFunction[] = [requireOrganisationRoles(PROJECT_ROLES)];

/**
 * The booking page (docs/product.md#meetings-scheduling): the days with free times and the free
 * slots of one day (`?day=YYYY-MM-DD`), in the client's zone (`?tz=`, else the browser's `tz`
 * cookie, else the agency's zone); the client's projects for "About which project?".
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const url = new URL(request.url);
  const { timeZone: agencyZone, instantBooking, meetingLocation } = await getAvailability(db);
  const zone = firstValidTimeZone(url.searchParams.get("tz"), timeZoneFromCookie(request.headers.get("cookie")), agencyZone);
  const [view, projects] = await Promise.all([slotPickerView(db, zone, url.searchParams.get("day")), listClientProjectNames(db, actor)]);
  const proposalId = Number(url.searchParams.get("proposalId")) || null;
  return {
    view,
    projects,
    zones: timeZoneNames(),
    proposalId: projects.some((p) => p.id === proposalId) ? proposalId : null,
    // Settings (issue #41): bookings confirmed at once, and where meetings happen.
    instantBooking,
    meetingLocation,
  };
}

/** Books the chosen slot, then shows the client's meetings with "Meeting requested". */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return formAction(args, bookingSchema, async (value) => {
    const { status } = await bookMeeting(db, actor, value);
    return redirect(`/meetings?notice=${status === "accepted" ? "confirmed" : "booked"}`);
  });
}

export default function BookMeeting({ loaderData, actionData }: Route.ComponentProps) {
  const { view, projects, zones, proposalId, instantBooking, meetingLocation } = loaderData;
  const navigation = useNavigation();
  const pending = navigation.state === "submitting" && navigation.formMethod === "POST";
  const errors = replyErrors(actionData);
  const slotError = errors.slot?.join(" ") ?? null;
  const otherError = actionData?.ok === false && !errors.slot && !errors.proposalId && !errors.notes ? actionData.message : null;
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-6">
      <PageHeading
        title="Book a meeting"
        lead={`Choose a day, then one of the free times. ${
          instantBooking
            ? "Your booking is confirmed at once, with a calendar invite by e-mail."
            : "The agency confirms the request by e-mail."
        }${meetingLocation ? ` Where: ${meetingLocation}.` : ""}`}
      >
        <Link to="/meetings" className="text-brand-700 underline underline-offset-4">
          Your meetings
        </Link>
      </PageHeading>
      <CardSection id="day-title" title="1. Choose a day">
        <div className="mt-4">
          <DayPicker view={view} zones={zones} />
        </div>
      </CardSection>
      <CardSection id="time-title" title="2. Choose a time">
        <Form method="post" className="mt-4 flex flex-col gap-4" preventScrollReset>
          <input type="hidden" name="timeZone" value={view.timeZone} />
          <SlotList
            view={view}
            error={slotError}
            empty={
              view.days.length
                ? "No free times on this day. Choose one of the days above."
                : "There are no free times in the coming weeks. Please write to the agency."
            }
          />
          {view.slots.length ? (
            <>
              {projects.length ? (
                <div className="flex flex-col gap-1">
                  <label htmlFor="proposalId" className="text-sm font-medium text-slate-800">
                    About which project? (optional)
                  </label>
                  <select
                    id="proposalId"
                    name="proposalId"
                    defaultValue={proposalId ?? ""}
                    aria-describedby={errors.proposalId ? "proposalId-error" : undefined}
                    className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
                  >
                    <option value="">No particular project</option>
                    {projects.map((p) => (
                      <option key={p.id} value={p.id}>
                        {p.projectName ?? "Untitled project"}
                      </option>
                    ))}
                  </select>
                  {errors.proposalId ? (
                    <p id="proposalId-error" className="text-sm text-red-700">
                      {errors.proposalId.join(" ")}
                    </p>
                  ) : null}
                </div>
              ) : null}
              <TextareaField
                id="notes"
                name="notes"
                label="Notes (optional)"
                rows={3}
                maxLength={MEETING_NOTES_MAX}
                errors={errors.notes ?? undefined}
                hint="What would you like to talk about?"
              />
              <div>
                <SubmitButton pending={pending} pendingLabel="Requesting…">
                  {instantBooking ? "Book meeting" : "Request meeting"}
                </SubmitButton>
              </div>
            </>
          ) : null}
          {otherError ? <Notice tone="error">{otherError}</Notice> : null}
        </Form>
      </CardSection>
    </div>
  );
}
