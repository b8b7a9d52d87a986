import { describe, expect, it } from "vitest";
import { invoiceDisplayStatus } from "../invoices/invoice-status";
import { commissionBaseCents, commissionCents } from "./commission";

describe("commission", () => {
  it("is 15 % of the base in cents, rounded half up", () => {
    expect(commissionCents(500_000, 1500)).toBe(75_000);
    expect(commissionCents(333, 1500)).toBe(50); // 49.95 → 50
    expect(commissionCents(1, 1500)).toBe(0); // 0.15 → 0
    expect(commissionCents(null, 1500)).toBe(0);
    expect(commissionCents(100_000, 1250)).toBe(12_500);
  });
  it("uses the invoice total when there is one, else the budget", () => {
    expect(commissionBaseCents({ invoiceTotalCents: 120_000, budgetCents: 100_000 })).toBe(120_000);
    expect(commissionBaseCents({ invoiceTotalCents: null, budgetCents: 100_000 })).toBe(100_000);
    expect(commissionBaseCents({})).toBeNull();
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
