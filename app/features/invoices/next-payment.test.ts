/** #37: the client dashboard's "Next due" always says something true. */
import { describe, expect, it } from "vitest";
import { NOTHING_DUE, nextPayment, OVERDUE_NOW } from "./next-payment";

const MILESTONE = { projectName: "Bakery site", text: "Milestone 2 ($500.00) is due when the agency marks it reached.", dueOn: null };
const DATED = { projectName: "Cafe", text: "Final payment ($957.00) is due on Jun 9, 2026.", dueOn: "2026-06-09" };
const EARLIER = { projectName: null, text: "Design ($100.00) is due on May 20, 2026.", dueOn: "2026-05-20" };

describe("the balance card's next due", () => {
  it("is the unpaid invoice's date first", () => {
    expect(nextPayment({ nextDueDate: "2026-05-12", overdueCount: 1 }, [DATED, MILESTONE])).toEqual({ kind: "date", date: "2026-05-12" });
  });

  it("names the next schedule line when nothing unpaid is pending: a milestone waiting for the agency", () => {
    expect(nextPayment({ nextDueDate: null, overdueCount: 0 }, [MILESTONE])).toEqual({
      kind: "text",
      text: "Bakery site: Milestone 2 ($500.00) is due when the agency marks it reached.",
    });
  });

  it("prefers the soonest dated line to milestones, whatever the projects' order", () => {
    expect(nextPayment({ nextDueDate: null, overdueCount: 0 }, [MILESTONE, DATED, EARLIER])).toEqual({
      kind: "text",
      text: "Design ($100.00) is due on May 20, 2026.",
    });
    expect(nextPayment({ nextDueDate: null, overdueCount: 2 }, [MILESTONE, DATED])).toEqual({
      kind: "text",
      text: "Cafe: Final payment ($957.00) is due on Jun 9, 2026.",
    });
  });

  it("says the overdue amount is due now, or that nothing is due — never a bare dash", () => {
    expect(nextPayment({ nextDueDate: null, overdueCount: 1 }, [])).toEqual({ kind: "text", text: OVERDUE_NOW });
    expect(nextPayment({ nextDueDate: null, overdueCount: 0 }, [])).toEqual({ kind: "text", text: NOTHING_DUE });
  });
});
