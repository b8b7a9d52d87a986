import { describe, expect, it } from "vitest";
import {
  addDays,
  formatCalendarDate,
  formatDateTime,
  INVALID_DATE,
  isCalendarDate,
  isValidTimeZone,
  toIsoOrNull,
  zonedDateTimeToUtc,
} from "./dates";

describe("zonedDateTimeToUtc", () => {
  it("reads the wall clock in the given zone, across daylight saving time", () => {
    expect(zonedDateTimeToUtc("2026-07-01", "14:00", "America/New_York").toISOString()).toBe("2026-07-01T18:00:00.000Z");
    expect(zonedDateTimeToUtc("2026-01-15", "14:00", "America/New_York").toISOString()).toBe("2026-01-15T19:00:00.000Z");
    expect(zonedDateTimeToUtc("2026-01-15", "09:30", "Asia/Kolkata").toISOString()).toBe("2026-01-15T04:00:00.000Z");
    expect(zonedDateTimeToUtc("2026-03-01", "00:00", "UTC").toISOString()).toBe("2026-03-01T00:00:00.000Z");
    // 02:30 does not exist on the spring-forward night: it moves forward by the jump.
    expect(zonedDateTimeToUtc("2026-03-08", "02:30", "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
  });

  it("refuses impossible dates, times and zones", () => {
    expect(() => zonedDateTimeToUtc("2026-02-30", "10:00", "UTC")).toThrow(RangeError);
    expect(() => zonedDateTimeToUtc("2026-02-01", "24:00", "UTC")).toThrow(RangeError);
    expect(() => zonedDateTimeToUtc("2026-02-01", "10:00", "Mars/Olympus")).toThrow(RangeError);
    expect(isCalendarDate("2028-02-29")).toBe(true);
    expect(isCalendarDate("2027-02-29")).toBe(false);
    expect(isValidTimeZone("Europe/Paris")).toBe(true);
    expect(isValidTimeZone("")).toBe(false);
  });
});

describe("date display", () => {
  it('shows "Invalid Date" instead of throwing for values that are not instants', () => {
    for (const bad of [null, undefined, "", "not a date", Number.NaN, new Date(Number.NaN), Infinity]) {
      expect(formatDateTime(bad as never, "America/New_York")).toBe(INVALID_DATE);
    }
    expect(toIsoOrNull(new Date(Number.NaN))).toBeNull();
  });

  it("formats in the given time zone, and in UTC for an unknown zone", () => {
    expect(formatDateTime("2026-03-03T19:00:00Z", "America/New_York")).toBe("Mar 3, 2026, 2:00 PM EST");
    expect(formatDateTime("2026-03-03T19:00:00Z", "Not/AZone")).toBe("Mar 3, 2026, 7:00 PM UTC");
  });

  it("formats and adds to calendar dates", () => {
    expect(formatCalendarDate("2026-04-01")).toBe("Apr 1, 2026");
    expect(formatCalendarDate("2026-02-30")).toBe(INVALID_DATE);
    expect(addDays("2026-12-25", 10)).toBe("2027-01-04");
  });
});
