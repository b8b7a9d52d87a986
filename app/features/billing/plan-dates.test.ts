/** The calendar of recurring billing plans (issue #39): end of month, ends, the agency's today. */
import { describe, expect, it } from "vitest";
import {
  addCalendarDays,
  agencyToday,
  cycleDate,
  cycleInPlan,
  cyclePeriod,
  dueCycles,
  firstCycleOnOrAfter,
  nextCycle,
  type PlanSchedule,
} from "./plan-dates";

const plan = (over: Partial<PlanSchedule> = {}): PlanSchedule => ({
  frequency: "monthly",
  startDate: "2026-01-31",
  dayOfMonth: null,
  endDate: null,
  maxCycles: null,
  ...over,
});

const dates = (schedule: PlanSchedule, n: number) => Array.from({ length: n }, (_, i) => cycleDate(schedule, i));

describe("billing plan calendar", () => {
  it("a monthly plan from Jan 31 bills on the last day of shorter months, and the 31st again after them", () => {
    expect(dates(plan(), 6)).toEqual(["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30", "2026-05-31", "2026-06-30"]);
    // A leap year: Feb 29.
    expect(dates(plan({ startDate: "2028-01-31" }), 3)).toEqual(["2028-01-31", "2028-02-29", "2028-03-31"]);
    // Day 30 in February, then back to the 30th.
    expect(dates(plan({ startDate: "2026-01-30" }), 3)).toEqual(["2026-01-30", "2026-02-28", "2026-03-30"]);
  });

  it("a chosen day of the month: the first billing date is on or after the start date", () => {
    expect(dates(plan({ startDate: "2026-01-10", dayOfMonth: 15 }), 2)).toEqual(["2026-01-15", "2026-02-15"]);
    expect(dates(plan({ startDate: "2026-01-20", dayOfMonth: 15 }), 2)).toEqual(["2026-02-15", "2026-03-15"]);
    expect(dates(plan({ startDate: "2026-02-01", dayOfMonth: 31 }), 3)).toEqual(["2026-02-28", "2026-03-31", "2026-04-30"]);
  });

  it("weekly, quarterly and yearly", () => {
    expect(dates(plan({ frequency: "weekly", startDate: "2026-12-28" }), 3)).toEqual(["2026-12-28", "2027-01-04", "2027-01-11"]);
    expect(dates(plan({ frequency: "quarterly", startDate: "2026-11-30" }), 4)).toEqual([
      "2026-11-30",
      "2027-02-28",
      "2027-05-30",
      "2027-08-30",
    ]);
    expect(dates(plan({ frequency: "yearly", startDate: "2028-02-29" }), 3)).toEqual(["2028-02-29", "2029-02-28", "2030-02-28"]);
  });

  it("ends after its end date or its number of cycles", () => {
    const byDate = plan({ endDate: "2026-04-29" });
    expect([0, 1, 2, 3].map((i) => cycleInPlan(byDate, i))).toEqual([true, true, true, false]);
    expect(nextCycle(byDate, 3)).toBeNull();
    const byCount = plan({ maxCycles: 2 });
    expect(nextCycle(byCount, 1)).toEqual({ index: 1, date: "2026-02-28" });
    expect(nextCycle(byCount, 2)).toBeNull();
  });

  it("due cycles: every cycle dated up to today from the first not issued, within the plan, at most the limit", () => {
    expect(dueCycles(plan(), 0, "2026-01-30")).toEqual([]);
    expect(dueCycles(plan(), 0, "2026-04-30")).toEqual([
      { index: 0, date: "2026-01-31" },
      { index: 1, date: "2026-02-28" },
      { index: 2, date: "2026-03-31" },
      { index: 3, date: "2026-04-30" },
    ]);
    expect(dueCycles(plan(), 2, "2026-04-29")).toEqual([{ index: 2, date: "2026-03-31" }]);
    expect(dueCycles(plan({ maxCycles: 2 }), 0, "2026-12-31")).toHaveLength(2);
    expect(dueCycles(plan({ frequency: "weekly" }), 0, "2030-01-01", 5)).toHaveLength(5);
  });

  it("resuming skips the cycles dated before the resume date", () => {
    expect(firstCycleOnOrAfter(plan(), 1, "2026-04-01")).toBe(3);
    expect(firstCycleOnOrAfter(plan(), 1, "2026-02-28")).toBe(1);
  });

  it("periods and due dates", () => {
    expect(cyclePeriod(plan(), 1)).toEqual({ from: "2026-02-28", to: "2026-03-30" });
    expect(addCalendarDays("2026-02-28", 14)).toBe("2026-03-14");
  });

  it("today is the agency's date in its zone", () => {
    const instant = new Date("2026-02-28T23:30:00Z");
    expect(agencyToday(instant, "UTC")).toBe("2026-02-28");
    expect(agencyToday(instant, "Europe/Berlin")).toBe("2026-03-01");
    expect(agencyToday(instant, "America/Los_Angeles")).toBe("2026-02-28");
  });
});
