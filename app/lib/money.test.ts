import { describe, expect, it } from "vitest";
import { centsToInput, formatCents, parseMoneyToCents } from "./money";

describe("money", () => {
  it.each([
    ["$5,000", 500_000],
    ["5000.50", 500_050],
    ["5000.5", 500_050],
    [" 1 200 ", 120_000],
    ["USD 99.99", 9_999],
    ["0", 0],
    ["0.01", 1],
  ])("parses %j as %i cents", (input, cents) => {
    expect(parseMoneyToCents(input)).toBe(cents);
  });
  it("treats empty input as no amount", () => {
    expect(parseMoneyToCents("")).toBeNull();
    expect(parseMoneyToCents("   ")).toBeNull();
    expect(parseMoneyToCents(undefined)).toBeNull();
  });
  it.each(["abc", "-5", "5.123", "1.2.3", "5e3", "$", "12,34.5.6"])("refuses %j with a clear message", (input) => {
    expect(() => parseMoneyToCents(input)).toThrow("Enter an amount like 5000 or $5,000.50");
  });
  it("refuses amounts above the maximum", () => {
    expect(() => parseMoneyToCents("99999999999")).toThrow("too large");
  });
  it("formats and round-trips cents", () => {
    expect(formatCents(500_050)).toBe("$5,000.50");
    expect(formatCents(null)).toBe("—");
    expect(centsToInput(500_005)).toBe("5000.05");
    expect(parseMoneyToCents(centsToInput(123_456))).toBe(123_456);
  });
});
