import { describe, expect, it } from "vitest";
import { optionalEmail, optionalText, optionalUrl, optionalWholeNumber, requiredEmail, requiredText } from "./text-fields";

const issues = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues.map((i) => i.message) ?? [];

describe("text fields", () => {
  it("refuse NUL and other control characters; multi-line text keeps tabs and line breaks", () => {
    const line = requiredText("Name", 50);
    const block = requiredText("Details", 50, { multiline: true });
    expect(line.safeParse(" Ann ").data).toBe("Ann");
    for (const bad of ["a\u0000b", "a\u0007b", "a\nb", "a\u009Bb", "a\u007Fb"]) {
      expect(issues(line.safeParse(bad))).toEqual(["Name contains characters that are not allowed."]);
    }
    expect(block.safeParse("line 1\n\tline 2\r\n").data).toBe("line 1\n\tline 2");
    expect(issues(block.safeParse("a\u0000b"))).toEqual(["Details contains characters that are not allowed."]);
    expect(optionalText("Notes", 10).safeParse("").data).toBeNull();
    expect(issues(optionalText("Notes", 10).safeParse("x".repeat(11)))).toEqual(["Notes must be at most 10 characters."]);
  });

  it("require a value, with the field's own message", () => {
    expect(issues(requiredText("Reason", 10, { message: "Tell us why." }).safeParse("   "))).toEqual(["Tell us why."]);
  });

  it("take whole numbers in decimal digits only", () => {
    const pages = optionalWholeNumber("Number of pages", { min: 1, max: 1000 });
    expect(pages.safeParse("16").data).toBe(16);
    expect(pages.safeParse(undefined).data).toBeNull();
    for (const bad of ["0x10", "1e3", "-1", "2.5", " 1 2", "١٢"]) expect(pages.safeParse(bad).success).toBe(false);
    expect(issues(pages.safeParse("0x10"))).toEqual(["Number of pages must be a whole number."]);
    expect(issues(pages.safeParse("0"))).toEqual(["Number of pages must be between 1 and 1,000."]);
    expect(issues(pages.safeParse("1001"))).toEqual(["Number of pages must be between 1 and 1,000."]);
  });

  it("lowercase e-mails; optional ones may be empty", () => {
    expect(requiredEmail("Email is required.").safeParse(" Ann@Example.ORG ").data).toBe("ann@example.org");
    expect(issues(requiredEmail("Email is required.").safeParse(""))).toEqual(["Email is required."]);
    expect(optionalEmail().safeParse("").data).toBeNull();
    expect(optionalEmail().safeParse("nope").success).toBe(false);
  });

  it("take http(s) URLs only", () => {
    expect(optionalUrl("Website").safeParse("https://example.org/x").data).toBe("https://example.org/x");
    for (const bad of ["javascript:alert(1)", "ftp://x", "https://exa\u0000mple.org"])
      expect(optionalUrl("Website").safeParse(bad).success).toBe(false);
  });
});
