import { describe, expect, it } from "vitest";
import { addDays, formatCalendarDate, formatDateTime, INVALID_DATE, isCalendarDate, isValidTimeZone, toIsoOrNull } from "./dates";

describe("calendar dates and time zones", () => {
  it("tells real dates and known zones from impossible ones", () => {
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
