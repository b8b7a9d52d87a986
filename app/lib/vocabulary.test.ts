import { describe, expect, it } from "vitest";
import { PROPOSAL_STATUSES } from "#app/db/enums";
import {
  COMMISSION_STATUS_LABELS,
  commissionStatus,
  formatAuditValue,
  formatDate,
  formatMoney,
  formatPercent,
  formatTime,
  INVOICE_STATUS_LABELS,
  MEETING_STATUS_LABELS,
  PROPOSAL_STATUS_LABELS,
} from "./vocabulary";

describe("vocabulary (docs/product.md#vocabulary)", () => {
  it("has one label per status, in the spec's words", () => {
    expect(PROPOSAL_STATUSES.map((s) => PROPOSAL_STATUS_LABELS[s])).toEqual([
      "Pending",
      "Planning",
      "In progress",
      "Review",
      "Completed",
      "Submitted",
      "Closed",
      // #26: an offer version sent, waiting for the client's acceptance.
      "Awaiting acceptance",
    ]);
    expect(INVOICE_STATUS_LABELS).toEqual({
      unpaid: "Unpaid",
      pending: "Unpaid",
      overdue: "Overdue",
      paid: "Paid",
      // #25: derived from the payments (docs/product.md#payments).
      partial: "Partially paid",
      "partial-overdue": "Partially paid · Overdue",
      refunded: "Refunded",
    });
    expect(MEETING_STATUS_LABELS).toEqual({ pending: "Pending", accepted: "Accepted", declined: "Declined", cancelled: "Cancelled" });
    expect(COMMISSION_STATUS_LABELS[commissionStatus({ clientApproved: true, paid: false })]).toBe("Unpaid");
    expect(COMMISSION_STATUS_LABELS[commissionStatus({ clientApproved: true, paid: true })]).toBe("Paid");
    expect(COMMISSION_STATUS_LABELS[commissionStatus({ clientApproved: false, paid: false })]).toBe("Awaiting client approval");
  });

  it("writes one date format: calendar dates the same for everyone, instants in a zone", () => {
    expect(formatDate("2026-11-02")).toBe("Nov 2, 2026");
    expect(formatDate("2026-02-30")).toBe("Invalid Date");
    expect(formatDate("2026-11-02T03:00:00Z", "America/Los_Angeles")).toBe("Nov 1, 2026");
    expect(formatDate(new Date("2026-11-02T03:00:00Z"))).toBe("Nov 2, 2026");
    expect(formatDate(null)).toBe("Invalid Date");
  });

  it("writes times as “Nov 2, 2026, 2:30 PM EST” in the given zone, UTC when the zone is unknown", () => {
    expect(formatTime("2026-11-02T19:30:00Z", "America/New_York")).toBe("Nov 2, 2026, 2:30 PM EST");
    expect(formatTime("2026-07-02T19:30:00Z", "America/New_York")).toBe("Jul 2, 2026, 3:30 PM EDT");
    expect(formatTime("2026-11-02T19:30:00Z", "Not/AZone")).toBe("Nov 2, 2026, 7:30 PM UTC");
    expect(formatTime("not a date")).toBe("Invalid Date");
  });

  it("writes money in a currency and percentages without a space", () => {
    expect(formatMoney(500050)).toBe("$5,000.50");
    expect(formatMoney(500050, "EUR")).toBe("€5,000.50");
    expect(formatMoney(null)).toBe("—");
    expect(formatPercent(1500)).toBe("15%");
    expect(formatPercent(1250)).toBe("12.5%");
    expect(formatPercent(1234)).toBe("12.34%");
    expect(formatPercent(5)).toBe("0.05%");
  });

  it("writes audit values with the same words and formats, never raw ISO text", () => {
    const viewer = { timeZone: "America/New_York", currency: "USD" };
    expect(formatAuditValue("invoice", "paidAt", "2026-11-23T06:56:22.188Z", viewer)).toBe("Nov 23, 2026, 1:56 AM EST");
    expect(formatAuditValue("invoice", "paidAt", null, viewer)).toBe("—");
    expect(formatAuditValue("invoice", "dueDate", "2026-12-01", viewer)).toBe("Dec 1, 2026");
    expect(formatAuditValue("invoice", "totalCents", 123456, viewer)).toBe("$1,234.56");
    expect(formatAuditValue("settings", "commissionRateBps", 1500, viewer)).toBe("15%");
    expect(formatAuditValue("proposal", "status", "in_progress", viewer)).toBe("In progress");
    expect(formatAuditValue("invoice", "status", "unpaid", viewer)).toBe("Unpaid");
    expect(formatAuditValue("meeting", "status", "declined", viewer)).toBe("Declined");
    expect(formatAuditValue("settings", "allowNewClients", false, viewer)).toBe("No");
    expect(formatAuditValue("settings", "companyName", "Acme", viewer)).toBe("Acme");
  });
});

describe("counts (Intl.PluralRules)", () => {
  it("writes the singular for one and the plural otherwise", async () => {
    const { countOf, nounFor } = await import("./vocabulary");
    expect(countOf(1, "invoice")).toBe("1 invoice");
    expect(countOf(0, "invoice")).toBe("0 invoices");
    expect(countOf(2, "proposal")).toBe("2 proposals");
    expect(countOf(1_234, "meeting request")).toBe("1,234 meeting requests");
    expect(countOf(1, "person", "people")).toBe("1 person");
    expect(countOf(3, "person", "people")).toBe("3 people");
    expect(nounFor(1, "hour")).toBe("hour");
    expect(nounFor(12, "hour")).toBe("hours");
  });
});
