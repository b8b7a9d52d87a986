import { Form } from "react-router";
import type { Route } from "./+types/settings-availability";
import { SettingsFrame, settingsTitle } from "#app/features/settings/components/settings-sections";
import { SubmitButton } from "#app/components/ui/field";
import {
  FormMessage,
  getFormProps,
  getInputProps,
  SelectInput,
  TextArea,
  TextInput,
  useAppForm,
  useIsSubmitting,
} from "#app/components/ui/form";
import { WEEKDAYS } from "#app/db/enums";
import { getAvailabilityForAdmin, saveAvailability } from "#app/features/meetings/availability.server";
import { availabilitySchema, formatRanges, toAvailabilityInput } from "#app/features/meetings/availability.schema";
import { AVAILABILITY_MESSAGES, WEEKDAY_LABELS } from "#app/features/meetings/availability.messages";
import { actorAndDb } from "#app/features/users/session.server";
import { formAction } from "#app/lib/form-action.server";
import { formConstraints } from "#app/lib/form-constraints.server";
import { timeZoneNames } from "#app/lib/time-zones";
import { useFocusOnArrival } from "#app/lib/use-focus-result";

export const meta: Route.MetaFunction = () => [{ title: settingsTitle("availability") }, { name: "robots", content: "noindex" }];

/** The agency's availability for meetings (docs/product.md#availability), as the form shows it. */
export async function loader({ context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const a = await getAvailabilityForAdmin(db, actor);
  return {
    form: formConstraints(availabilitySchema),
    zones: timeZoneNames(),
    values: {
      timeZone: a.timeZone,
      ...Object.fromEntries(WEEKDAYS.map((d) => [d, formatRanges(a.weeklyHours[d])])),
      meetingMinutes: String(a.meetingMinutes),
      meetingBufferMinutes: String(a.meetingBufferMinutes),
      minNoticeHours: String(a.minNoticeHours),
      bookingHorizonDays: String(a.bookingHorizonDays),
      changeCutoffHours: String(a.changeCutoffHours),
      datesOff: a.datesOff.join("\n"),
      instantBooking: a.instantBooking,
      meetingLocation: a.meetingLocation,
    },
  };
}

/** Saves the availability; the server checks every value again (docs/product.md#availability). */
export async function action(args: Route.ActionArgs) {
  const { actor, db } = actorAndDb(args.context);
  return formAction(args, availabilitySchema, async (value) => {
    await saveAvailability(db, actor, toAvailabilityInput(value));
    return AVAILABILITY_MESSAGES.saved;
  });
}

export default function AvailabilitySettings({ loaderData, actionData }: Route.ComponentProps) {
  const [form, fields] = useAppForm({
    id: "availability",
    constraint: loaderData.form,
    lastResult: actionData?.result,
    defaultValue: loaderData.values,
  });
  const pending = useIsSubmitting();
  const messageRef = useFocusOnArrival<HTMLDivElement>(actionData);
  return (
    <SettingsFrame current="availability">
      <p className="mb-4 max-w-xl text-slate-700">
        When clients can book a meeting with you. Clients see the free times in their own time zone.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex max-w-xl flex-col gap-5">
        <div ref={messageRef} tabIndex={-1} className="outline-none">
          <FormMessage id={form.errorId} errors={form.errors} success={actionData?.ok ? actionData.message : null} />
        </div>
        <SelectInput field={fields.timeZone} label="Your time zone" options={loaderData.zones.map((z) => ({ value: z, label: z }))} />
        <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 font-semibold">Weekly hours</legend>
          <p className="text-sm text-slate-600" id="hours-hint">
            One or more ranges per day, 24-hour clock, e.g. 09:00–12:00, 13:00–17:00. Leave a day empty when you are not available.
          </p>
          {WEEKDAYS.map((day) => (
            <TextInput key={day} field={fields[day]} label={WEEKDAY_LABELS[day]} placeholder="Not available" autoComplete="off" />
          ))}
        </fieldset>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextInput field={fields.meetingMinutes} label="Meeting length (minutes)" inputMode="numeric" hint="15 to 240." />
          <TextInput
            field={fields.meetingBufferMinutes}
            label="Buffer between meetings (minutes)"
            inputMode="numeric"
            hint="Kept free before and after each meeting."
          />
          <TextInput
            field={fields.minNoticeHours}
            label="Minimum notice (hours)"
            inputMode="numeric"
            hint="The earliest time offered is this far from now."
          />
          <TextInput
            field={fields.bookingHorizonDays}
            label="Booking horizon (days)"
            inputMode="numeric"
            hint="How far ahead clients can book."
          />
          <TextInput
            field={fields.changeCutoffHours}
            label="Changes allowed until (hours before)"
            inputMode="numeric"
            hint="Clients can reschedule or cancel until then; after it they write to you."
          />
        </div>
        <TextArea
          field={fields.datesOff}
          label="Dates off (optional)"
          rows={4}
          hint="One date per line, as YYYY-MM-DD, in your time zone. No times are offered on these days."
        />
        <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-200 p-4">
          <legend className="px-1 font-semibold">Bookings</legend>
          <div className="flex items-start gap-2">
            <input
              {...getInputProps(fields.instantBooking, { type: "checkbox" })}
              className="mt-1 h-4 w-4"
              aria-describedby="instant-booking-hint"
            />
            <div>
              <label htmlFor={fields.instantBooking.id} className="font-medium text-slate-800">
                Confirm bookings at once
              </label>
              <p id="instant-booking-hint" className="text-sm text-slate-600">
                A client&apos;s booking is accepted when it is made, and both of you get the calendar invite. Off: each booking waits for
                you to accept it.
              </p>
            </div>
          </div>
          <TextInput
            field={fields.meetingLocation}
            label="Meeting location or video link (optional)"
            autoComplete="off"
            maxLength={500}
            hint="An address, or a video link such as https://meet.example.com/agency. It goes into the calendar invites and the mails."
          />
        </fieldset>
        <div>
          <SubmitButton pending={pending} pendingLabel="Saving…">
            Save availability
          </SubmitButton>
        </div>
      </Form>
    </SettingsFrame>
  );
}
