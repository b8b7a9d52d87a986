import { describe, expect, it } from "vitest";
import { computeSchedule, lineDueDate, reviseSchedule, ScheduleError, SCHEDULE_MESSAGES, type ScheduleLineTerms } from "./schedule";

const rest = (label: string, due: ScheduleLineTerms["due"] = { kind: "milestone" }): ScheduleLineTerms => ({
  label,
  share: { kind: "rest" },
  due,
});
const percent = (label: string, bps: number, due: ScheduleLineTerms["due"] = { kind: "milestone" }): ScheduleLineTerms => ({
  label,
  share: { kind: "percent", value: bps },
  due,
});
const amount = (label: string, cents: number): ScheduleLineTerms => ({
  label,
  share: { kind: "amount", value: cents },
  due: { kind: "milestone" },
});
const sum = (lines: { amountCents: number }[]) => lines.reduce((s, l) => s + l.amountCents, 0);

describe("payment schedule (#37)", () => {
  it("splits $1,000.00 in three equal parts exactly: the odd cent goes to the first part", () => {
    const lines = computeSchedule(100_000, null, [rest("One"), rest("Two"), rest("Three")]);
    expect(lines.map((l) => l.amountCents)).toEqual([33_334, 33_333, 33_333]);
    expect(sum(lines)).toBe(100_000);
  });

  it("puts the deposit first and splits the rest: 30 % deposit of $6,380.00, two milestones of 25 %, the final payment", () => {
    const total = 638_000;
    const deposit = Math.round(total * 0.3); // the offer's own rule: half up
    const lines = computeSchedule(total, deposit, [percent("Milestone 1", 2500), percent("Milestone 2", 2500), rest("Final payment")]);
    expect(lines.map((l) => [l.position, l.label, l.amountCents, l.due.kind])).toEqual([
      [0, "Deposit", 191_400, "signing"],
      [1, "Milestone 1", 159_500, "milestone"],
      [2, "Milestone 2", 159_500, "milestone"],
      [3, "Final payment", 127_600, "milestone"],
    ]);
    expect(sum(lines)).toBe(total);
  });

  it("rounds percentages by the largest remainder so that they add up to the total in cents", () => {
    // $1,000.01 in 33.33 % + 33.33 % + 33.34 %: 333.30333…, 333.30333…, 333.40334 → one cent left, to the largest fraction.
    const lines = computeSchedule(100_001, null, [percent("A", 3333), percent("B", 3333), percent("C", 3334)]);
    expect(lines.map((l) => l.amountCents)).toEqual([33_330, 33_330, 33_341]);
    expect(sum(lines)).toBe(100_001);
    // Seven equal sevenths of $100.00 (six at 14.28 %, the seventh the rest).
    const sevenths = computeSchedule(10_000, null, [...Array.from({ length: 6 }, (_, i) => percent(`P${i}`, 1428)), rest("Last")]);
    expect(sum(sevenths)).toBe(10_000);
    expect(sevenths.every((l) => l.amountCents >= 1428 && l.amountCents <= 1432)).toBe(true);
    // Odd totals with many rest lines: always exact, never more than a cent apart.
    for (const total of [1, 2, 99, 100_003, 999_999_99]) {
      const parts = computeSchedule(total, null, [rest("a"), rest("b"), rest("c"), rest("d"), rest("e"), rest("f"), rest("g")]);
      expect(sum(parts)).toBe(total);
      expect(Math.max(...parts.map((p) => p.amountCents)) - Math.min(...parts.map((p) => p.amountCents))).toBeLessThanOrEqual(1);
    }
  });

  it("refuses a schedule over the total, and one that does not reach it without a rest line", () => {
    expect(() => computeSchedule(100_000, 60_000, [percent("M", 5000)])).toThrow(ScheduleError);
    expect(() => computeSchedule(100_000, 60_000, [percent("M", 5000)])).toThrow(SCHEDULE_MESSAGES.overTotal("1100.00", "1000.00"));
    expect(() => computeSchedule(100_000, null, [amount("A", 50_000)])).toThrow(SCHEDULE_MESSAGES.underTotal("500.00", "1000.00"));
    // Percentages summing to 100 % need no rest line.
    expect(sum(computeSchedule(100_000, null, [percent("A", 5000), percent("B", 5000)]))).toBe(100_000);
  });

  it("a new version before signing changes every line; after signing only the unissued ones", () => {
    const terms = [percent("Milestone 1", 3000), percent("Milestone 2", 3000), rest("Final payment")];
    const v1 = computeSchedule(500_000, 150_000, terms);
    expect(v1.map((l) => l.amountCents)).toEqual([150_000, 150_000, 150_000, 50_000]);

    // Before signing nothing is issued: version 2 (a larger total, a renamed milestone) replaces everything.
    const v2Terms = [percent("Milestone 1: design", 3000), percent("Milestone 2", 3000), rest("Final payment")];
    const before = reviseSchedule(v1, new Map(), 600_000, 180_000, v2Terms);
    expect(before.map((l) => [l.label, l.amountCents])).toEqual([
      ["Deposit", 180_000],
      ["Milestone 1: design", 180_000],
      ["Milestone 2", 180_000],
      ["Final payment", 60_000],
    ]);

    // After signing, the deposit and milestone 1 were invoiced: they keep label and amount; the
    // unissued lines take version 2's terms and what is left of the new total.
    const issued = new Map([
      [0, 150_000],
      [1, 150_000],
    ]);
    const after = reviseSchedule(v1, issued, 600_000, 180_000, v2Terms);
    expect(after.map((l) => [l.label, l.amountCents])).toEqual([
      ["Deposit", 150_000],
      ["Milestone 1", 150_000],
      ["Milestone 2", 180_000],
      ["Final payment", 120_000],
    ]);
    expect(sum(after)).toBe(600_000);
    // A new total below what was issued cannot be scheduled.
    expect(() => reviseSchedule(v1, issued, 200_000, 60_000, v2Terms)).toThrow(ScheduleError);
  });

  it("dates each line from the signing date; a milestone waits for the admin", () => {
    expect(lineDueDate({ kind: "signing" }, "2026-05-10")).toBe("2026-05-10");
    expect(lineDueDate({ kind: "days_after_signing", days: 30 }, "2026-05-10")).toBe("2026-06-09");
    expect(lineDueDate({ kind: "date", date: "2026-07-01" }, "2026-05-10")).toBe("2026-07-01");
    // A date already past at signing is due at once.
    expect(lineDueDate({ kind: "date", date: "2026-01-01" }, "2026-05-10")).toBe("2026-05-10");
    expect(lineDueDate({ kind: "milestone" }, "2026-05-10")).toBeNull();
  });
});
