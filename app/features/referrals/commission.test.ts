import { describe, expect, it } from "vitest";
import { invoiceDisplayStatus } from "../invoices/invoice-status";
import {
  commissionCents,
  commissionEntryCents,
  commissionEntryState,
  commissionTotals,
  payableAtFor,
  payoutTotalCents,
} from "./commission";

describe("commission", () => {
  it("is 15 % of the base in cents, rounded half up", () => {
    expect(commissionCents(500_000, 1500)).toBe(75_000);
    expect(commissionCents(333, 1500)).toBe(50); // 49.95 → 50
    expect(commissionCents(1, 1500)).toBe(0); // 0.15 → 0
    expect(commissionCents(null, 1500)).toBe(0);
    expect(commissionCents(100_000, 1250)).toBe(12_500);
  });
});

describe("commission entries", () => {
  it("is +rate × amount for a payment and −rate × amount for a refund, half up per entry", () => {
    expect(commissionEntryCents(100_000, 1500)).toBe(15_000);
    expect(commissionEntryCents(-40_000, 1500)).toBe(-6_000);
    expect(commissionEntryCents(10, 1500)).toBe(2); // 1.5 → 2
    expect(commissionEntryCents(-10, 1500)).toBe(-2); // a full refund cancels its payment exactly
    expect(commissionEntryCents(9, 1500)).toBe(1); // 1.35 → 1
    expect(commissionEntryCents(3, 1500)).toBe(0); // 0.45 → 0
    expect(commissionEntryCents(1, 5000)).toBe(1); // 0.5 → 1
    expect(commissionEntryCents(333_33, 1250)).toBe(4_167); // 4166.625 → 4167
    expect(commissionEntryCents(2_000_000_000, 10_000)).toBe(2_000_000_000);
    expect(commissionEntryCents(100, 0)).toBe(0);
  });
  it("rounds each entry on its own: two halves are not one whole", () => {
    // 10 + 10 cents at 15 %: 2 + 2 = 4 cents, not round(3) = 3.
    expect(commissionEntryCents(10, 1500) + commissionEntryCents(10, 1500)).toBe(4);
  });
  it("refuses what is not integer cents or a rate of 0–100 %", () => {
    expect(() => commissionEntryCents(1.5, 1500)).toThrow(RangeError);
    expect(() => commissionEntryCents(100, 10_001)).toThrow(RangeError);
    expect(() => commissionEntryCents(100, -1)).toThrow(RangeError);
  });
  it("is Pending before its payable date, Payable from it, Paid out once in a payout", () => {
    const created = new Date("2026-01-01T12:00:00Z");
    const payableAt = payableAtFor(created, 30);
    expect(payableAt.toISOString()).toBe("2026-01-31T12:00:00.000Z");
    expect(commissionEntryState({ payableAt, payoutId: null }, new Date("2026-01-31T11:59:59.999Z"))).toBe("pending");
    expect(commissionEntryState({ payableAt, payoutId: null }, payableAt)).toBe("payable");
    expect(commissionEntryState({ payableAt, payoutId: 7 }, created)).toBe("paid_out");
    expect(payableAtFor(created, 0)).toEqual(created);
  });
  it("sums pending, payable and paid out; a negative payable balance carries over to the next payout", () => {
    const at = new Date("2026-06-01T00:00:00Z");
    const past = "2026-05-01T00:00:00Z";
    const future = "2026-07-01T00:00:00Z";
    const entries = [
      { amountCents: 15_000, payableAt: past, payoutId: 1 },
      { amountCents: -6_000, payableAt: past, payoutId: null },
      { amountCents: 3_000, payableAt: future, payoutId: null },
    ];
    expect(commissionTotals(entries, at)).toEqual({ pendingCents: 3_000, payableCents: -6_000, paidOutCents: 15_000 });
    expect(payoutTotalCents([{ amountCents: -6_000 }])).toBeNull();
    expect(payoutTotalCents([{ amountCents: -6_000 }, { amountCents: 6_000 }])).toBeNull();
    expect(payoutTotalCents([{ amountCents: -6_000 }, { amountCents: 9_000 }])).toBe(3_000);
    expect(payoutTotalCents([])).toBeNull();
  });
});

describe("invoice display status", () => {
  const at = (iso: string) => new Date(iso);
  it("derives overdue from the due date in UTC", () => {
    const inv = { totalCents: 100, paidCents: 0, refundedCents: 0, dueDate: "2026-03-10" };
    expect(invoiceDisplayStatus(inv, at("2026-03-10T23:59:59Z"))).toBe("pending");
    expect(invoiceDisplayStatus(inv, at("2026-03-11T00:00:00Z"))).toBe("overdue");
    expect(invoiceDisplayStatus({ ...inv, paidCents: 100 }, at("2030-01-01T00:00:00Z"))).toBe("paid");
  });
});
