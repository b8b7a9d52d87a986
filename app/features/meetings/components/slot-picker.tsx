/**
 * Picking a meeting time (docs/product.md#meetings-scheduling): first a day, then one of its free
 * slots, shown in the viewer's time zone (named). Without JavaScript the day is a plain GET form
 * (a date field, a zone list and "Show free times") and the slots a list of radio buttons in the
 * booking form; with it, choosing a day or a zone loads its slots at once.
 */
import type { KeyboardEvent, ReactNode } from "react";
import { Form, Link, useSubmit } from "react-router";
import { useHydrated } from "#app/lib/use-hydrated";
import { buttonClass } from "#app/components/ui/button";

/** What the pickers show: the server's `SlotPickerView` (app/features/meetings/availability.server.ts). */
export interface SlotPickerData {
  timeZone: string;
  zoneLabel: string;
  days: { date: string; label: string; count: number }[];
  day: string | null;
  dayLabel: string;
  slots: { value: string; label: string }[];
  meetingMinutes: number;
}

/** How many days with free times are offered as one-click links. */
const QUICK_DAYS = 10;

/**
 * Arrow keys on the day chips (a roving tabindex, WAI-ARIA APG): Left/Up and Right/Down move to the
 * previous and next day, Home and End to the first and last; the focused chip takes the Tab stop.
 */
function moveBetweenDays(event: KeyboardEvent<HTMLUListElement>) {
  const chips = [...event.currentTarget.querySelectorAll<HTMLAnchorElement>("a[data-day-chip]")];
  const index = chips.indexOf(document.activeElement as HTMLAnchorElement);
  if (index < 0) return;
  const next =
    event.key === "ArrowRight" || event.key === "ArrowDown"
      ? Math.min(index + 1, chips.length - 1)
      : event.key === "ArrowLeft" || event.key === "ArrowUp"
        ? Math.max(index - 1, 0)
        : event.key === "Home"
          ? 0
          : event.key === "End"
            ? chips.length - 1
            : null;
  if (next === null) return;
  event.preventDefault();
  chips.forEach((chip, i) => (chip.tabIndex = i === next ? 0 : -1));
  chips[next]!.focus();
}

/** Each zone list's options as HTML, built once per list. */
const zoneOptionCache = new WeakMap<readonly string[], string[]>();

/** @returns `<option>` of `value` (text and value HTML-escaped). */
function optionHtml(value: string, selected: boolean): string {
  const text = value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return `<option value="${text}"${selected ? ' selected=""' : ""}>${text}</option>`;
}

/**
 * The zone list's `<option>`s as one HTML string, `chosen` marked selected (what the page shows
 * before hydration and without JavaScript; after it, the select's `defaultValue` does the same).
 *
 * @param zones - IANA zone names (the loader's list, the same on server and browser).
 * @param chosen - the zone shown.
 */
export function zoneOptionsHtml(zones: readonly string[], chosen: string): string {
  let options = zoneOptionCache.get(zones);
  if (!options) {
    options = zones.map((zone) => optionHtml(zone, false));
    zoneOptionCache.set(zones, options);
  }
  const at = zones.indexOf(chosen);
  return at < 0 ? options.join("") : [...options.slice(0, at), optionHtml(chosen, true), ...options.slice(at + 1)].join("");
}

/** The day (and zone) chooser: a GET form to the same page. */
export function DayPicker({ view, zones }: { view: SlotPickerData; zones: readonly string[] }) {
  const submit = useSubmit();
  const first = view.days[0]?.date;
  const last = view.days.at(-1)?.date;
  const href = (date: string) => `?day=${date}&tz=${encodeURIComponent(view.timeZone)}`;
  const hydrated = useHydrated();
  const quick = view.days.slice(0, QUICK_DAYS);
  const rovingDay = quick.some((d) => d.date === view.day) ? view.day : quick[0]?.date;
  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-slate-700" data-testid="slot-zone">
        Times are shown in your time zone: <strong>{view.zoneLabel}</strong>.
      </p>
      <Form
        method="get"
        className="flex flex-wrap items-end gap-3"
        onChange={(event) => submit(event.currentTarget, { preventScrollReset: true, replace: true })}
      >
        <div className="flex flex-col gap-1">
          <label htmlFor="day" className="text-sm font-medium text-slate-800">
            Day
          </label>
          <input
            id="day"
            name="day"
            type="date"
            defaultValue={view.day ?? ""}
            key={view.day ?? ""}
            min={first}
            max={last}
            className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
          />
        </div>
        <div className="flex min-w-0 flex-col gap-1">
          <label htmlFor="tz" className="text-sm font-medium text-slate-800">
            Time zone
          </label>
          <select
            id="tz"
            name="tz"
            defaultValue={view.timeZone}
            key={view.timeZone}
            className="max-w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900"
            // The 400-odd zones as one string of options (issue #42: as React elements they cost the
            // page ≈ 2 ms of server CPU, as one string ≈ 0.1 ms); the same string on both sides.
            dangerouslySetInnerHTML={{ __html: zoneOptionsHtml(zones, view.timeZone) }}
          />
        </div>
        <button type="submit" className={buttonClass("secondary", "md")}>
          Show free times
        </button>
      </Form>
      {view.days.length ? (
        <nav aria-label="Days with free times">
          <p id="day-keys" className="sr-only">
            Use the arrow keys to move between days, Enter to show a day&apos;s times.
          </p>
          <ul className="flex flex-wrap gap-2" onKeyDown={hydrated ? moveBetweenDays : undefined}>
            {quick.map((d) => (
              <li key={d.date}>
                <Link
                  to={href(d.date)}
                  preventScrollReset
                  replace
                  data-day-chip=""
                  // One Tab stop for the whole list (a roving tabindex, issue #41): the chosen day, the
                  // arrow keys move between the others. Without JavaScript every chip is a Tab stop.
                  tabIndex={hydrated && d.date !== rovingDay ? -1 : undefined}
                  aria-describedby={hydrated ? "day-keys" : undefined}
                  aria-current={d.date === view.day ? "date" : undefined}
                  className={`inline-block rounded-md border px-3 py-1.5 text-sm ${
                    d.date === view.day
                      ? "border-brand-700 bg-brand-700 font-semibold text-white"
                      : "border-slate-300 text-slate-800 hover:bg-slate-50"
                  }`}
                >
                  {d.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
    </div>
  );
}

/**
 * The free slots of the chosen day as radio buttons (name `slot`, value the ISO instant), inside
 * the caller's POST form.
 *
 * @param error - the slot's error (e.g. taken a moment ago), shown above the list.
 */
export function SlotList({ view, error, empty }: { view: SlotPickerData; error?: string | null; empty: ReactNode }) {
  if (!view.day || view.slots.length === 0) {
    return (
      <div className="flex flex-col gap-2">
        {error ? (
          <p id="slot-error" role="alert" className="text-sm text-red-700">
            {error}
          </p>
        ) : null}
        <p className="text-slate-700">{empty}</p>
      </div>
    );
  }
  return (
    <fieldset aria-describedby={error ? "slot-error" : undefined} className="min-w-0">
      <legend className="font-semibold">
        Free times on {view.dayLabel} <span className="font-normal text-slate-600">({view.meetingMinutes} minutes each)</span>
      </legend>
      {error ? (
        <p id="slot-error" role="alert" className="mt-2 text-sm text-red-700">
          {error}
        </p>
      ) : null}
      <ul className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
        {view.slots.map((slot, i) => (
          <li key={slot.value}>
            <label className="flex cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-3 py-2 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
              <input type="radio" name="slot" value={slot.value} required={i === 0} className="h-4 w-4 accent-brand-700" />
              <span className="tabular-nums">{slot.label}</span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** @returns a refused form reply's errors per field (a refusal's, else the schema's); {} otherwise. */
export function replyErrors(
  reply: { ok: boolean; fieldErrors?: Record<string, string[]>; result?: { error?: Record<string, string[] | null> | null } } | undefined,
): Record<string, string[] | null | undefined> {
  if (!reply || reply.ok) return {};
  return reply.fieldErrors ?? reply.result?.error ?? {};
}
