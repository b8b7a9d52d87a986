import { TZDate, tz } from "@date-fns/tz";
import { format } from "date-fns";
import { describe, expect, it } from "vitest";
import { DEFAULT_WEEKLY_HOURS, WEEKDAYS, type WeeklyHours } from "#app/db/enums";
import { minutesOf, openSlots, slotsByDay, type Availability, type BusyRange } from "./slots";

/** The straightforward reading of docs/product.md#availability: each wall time resolved in the zone. */
function referenceSlots(a: Availability, busy: BusyRange[], now: Date): Date[] {
  const zone = tz(a.timeZone);
  const buffer = a.meetingBufferMinutes * 60_000;
  const earliest = now.getTime() + a.minNoticeHours * 3_600_000;
  const latest = now.getTime() + a.bookingHorizonDays * 86_400_000;
  const found = new Set<number>();
  for (let day = -2; day <= a.bookingHorizonDays + 2; day++) {
    const date = format(new Date(now.getTime() + day * 86_400_000), "yyyy-MM-dd", { in: zone });
    const [y, m, d] = date.split("-").map(Number) as [number, number, number];
    const weekday = WEEKDAYS[(new Date(Date.UTC(y, m - 1, d)).getUTCDay() + 6) % 7]!;
    const ranges = a.datesOff.includes(date) ? [] : a.weeklyHours[weekday];
    for (const range of ranges) {
      for (let minute = minutesOf(range.start); minute + a.meetingMinutes <= minutesOf(range.end); minute += a.meetingMinutes) {
        const start = new TZDate(y, m - 1, d, Math.floor(minute / 60), minute % 60, a.timeZone);
        const wall = `${String(Math.floor(minute / 60)).padStart(2, "0")}:${String(minute % 60).padStart(2, "0")}`;
        if (format(start, "yyyy-MM-dd HH:mm", { in: zone }) !== `${date} ${wall}`) continue;
        const t = start.getTime();
        const end = t + a.meetingMinutes * 60_000;
        if (t < earliest || t > latest) continue;
        if (busy.some((b) => t < b.end.getTime() + buffer && end > b.start.getTime() - buffer)) continue;
        found.add(t);
      }
    }
  }
  return [...found].sort((x, y) => x - y).map((t) => new Date(t));
}

const ALL_DAY: WeeklyHours = Object.fromEntries(WEEKDAYS.map((d) => [d, [{ start: "00:00", end: "24:00" }]])) as WeeklyHours;

function availability(timeZone: string, extra: Partial<Availability> = {}): Availability {
  return {
    timeZone,
    weeklyHours: DEFAULT_WEEKLY_HOURS,
    meetingMinutes: 30,
    meetingBufferMinutes: 15,
    minNoticeHours: 24,
    bookingHorizonDays: 60,
    datesOff: [],
    ...extra,
  };
}

const ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham", "America/Santiago"];
/** Around the spring and autumn changes of both hemispheres. */
const NOWS = ["2026-03-01T10:00:00Z", "2026-03-20T23:30:00Z", "2026-09-20T05:00:00Z", "2026-10-20T12:00:00Z"].map((s) => new Date(s));

describe("openSlots", () => {
  it("matches resolving every wall time in the zone, across daylight-saving changes", () => {
    for (const zone of ZONES) {
      for (const now of NOWS) {
        for (const hours of [DEFAULT_WEEKLY_HOURS, ALL_DAY]) {
          // Round the clock every day (the changes' own hours included) over the month after `now`.
          const a = availability(zone, hours === ALL_DAY ? { weeklyHours: hours, meetingMinutes: 60, bookingHorizonDays: 30 } : {});
          const busy: BusyRange[] = [0, 3, 7, 20, 33].map((day, i) => {
            const start = new Date(now.getTime() + day * 86_400_000 + i * 5_400_000);
            return { start, end: new Date(start.getTime() + 45 * 60_000) };
          });
          const got = openSlots(a, busy, now).map((s) => s.toISOString());
          expect(got, `${zone} ${now.toISOString()}`).toEqual(referenceSlots(a, busy, now).map((s) => s.toISOString()));
        }
      }
    }
  });

  it("keeps overlapping held ranges out, however they nest", () => {
    const now = new Date("2026-06-05T08:00:00Z");
    const a = availability("UTC", { meetingBufferMinutes: 0 });
    const long = { start: new Date("2026-06-08T09:00:00Z"), end: new Date("2026-06-08T15:00:00Z") };
    const short = { start: new Date("2026-06-08T10:00:00Z"), end: new Date("2026-06-08T10:30:00Z") };
    const day = openSlots(a, [short, long], now).filter((s) => s.toISOString().startsWith("2026-06-08"));
    expect(day.map((s) => s.toISOString().slice(11, 16))).toEqual(["15:00", "15:30", "16:00", "16:30"]);
  });
});

describe("slotsByDay", () => {
  it("groups by the viewer's calendar date, across daylight-saving changes", () => {
    for (const zone of ZONES) {
      for (const now of NOWS) {
        const slots = openSlots(availability("UTC", { weeklyHours: ALL_DAY, meetingMinutes: 60, bookingHorizonDays: 30 }), [], now);
        const expected = new Map<string, string[]>();
        for (const s of slots) {
          const key = format(s, "yyyy-MM-dd", { in: tz(zone) });
          expected.set(key, [...(expected.get(key) ?? []), s.toISOString()]);
        }
        const got = new Map([...slotsByDay(slots, zone)].map(([k, v]) => [k, v.map((s) => s.toISOString())]));
        expect([...got], `${zone} ${now.toISOString()}`).toEqual([...expected]);
      }
    }
  });
});
