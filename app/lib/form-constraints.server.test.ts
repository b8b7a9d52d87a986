import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { formConstraints } from "./form-constraints.server";
import { optionalText, optionalUrl, requiredEmail, requiredText } from "./text-fields";

/** The schema's own first message for `name` holding `value`, as the action would answer it. */
function serverMessage(schema: z.ZodType, name: string, value: string): string | undefined {
  const form = new FormData();
  form.set(name, value);
  const submission = parseWithZod(form, { schema });
  return submission.status === "error" ? (submission.error?.[name]?.[0] ?? undefined) : undefined;
}

const schema = z.object({
  name: requiredText("Name", 20),
  email: requiredEmail("Email is required."),
  website: optionalUrl("Website"),
  notes: optionalText("Notes", 500),
  code: z
    .string({ error: "Code is required." })
    .min(4, "Code must be at least 4 characters.")
    .regex(/^[A-Za-z0-9_-]+$/, "Letters, digits, _ and - only."),
  pages: z.coerce.number().min(1, "At least one page.").max(99, "At most 99 pages.").optional(),
  items: z.array(z.object({ amount: requiredText("Amount", 12) })).min(1, "Add an item."),
  agree: z.boolean().optional(),
});

describe("formConstraints", () => {
  const constraints = formConstraints(schema);

  it("derives the HTML constraints of each field from the schema", () => {
    expect(constraints.name).toMatchObject({ required: true, maxLength: 20 });
    expect(constraints.email).toMatchObject({ required: true });
    expect(constraints.website).toMatchObject({ maxLength: 2048 });
    expect(constraints.website?.required).toBeUndefined();
    expect(constraints.notes).toEqual({ maxLength: 500, messages: { tooLong: "Notes must be at most 500 characters." } });
    expect(constraints.code).toMatchObject({ required: true, minLength: 4 });
    expect(constraints.pages).toMatchObject({ min: 1, max: 99 });
    expect(constraints.agree).toEqual({});
    // A list's rows share one entry; the list itself has no control.
    expect((constraints as Record<string, unknown>)["items[].amount"]).toMatchObject({ required: true, maxLength: 12 });
    expect(Object.keys(constraints)).not.toContain("items");
  });

  it("gives, for each constraint, the very message the server answers when it is broken", () => {
    const cases: Array<[string, string, string | undefined]> = [
      ["name", "valueMissing", serverMessage(schema, "name", "")],
      ["name", "tooLong", serverMessage(schema, "name", "a".repeat(21))],
      ["email", "valueMissing", "Email is required."],
      ["email", "typeMismatch", "Enter a valid email address."],
      ["website", "typeMismatch", "Website must be a full address starting with http:// or https://"],
      ["code", "tooShort", "Code must be at least 4 characters."],
      ["code", "patternMismatch", "Letters, digits, _ and - only."],
      ["pages", "rangeUnderflow", "At least one page."],
      ["pages", "rangeOverflow", "At most 99 pages."],
    ];
    for (const [field, key, message] of cases) {
      expect(message, `${field} ${key}`).toBeDefined();
      expect((constraints as Record<string, { messages?: Record<string, string> }>)[field]?.messages?.[key], `${field} ${key}`).toBe(
        message,
      );
    }
    expect(constraints.name?.messages?.valueMissing).toBe("Name is required.");
    expect((constraints as Record<string, { messages?: Record<string, string> }>)["items[].amount"]?.messages?.valueMissing).toBe(
      "Amount is required.",
    );
    // Spaces only: trimmed to nothing by a required text field; an optional one takes them.
    expect(constraints.name?.messages?.whitespace).toBe("Name is required.");
    expect(constraints.notes?.messages?.whitespace).toBeUndefined();
    // A plain text field has no format message (a phone rule is the server's to answer).
    expect(constraints.notes?.messages?.typeMismatch).toBeUndefined();
  });

  it("writes patterns as the browser reads them (anchored by the browser, `v` flag)", () => {
    const pattern = constraints.code!.pattern!;
    expect(pattern).toBe("[A-Za-z0-9_\\-]+");
    const html = new RegExp(`^(?:${pattern})$`, "v");
    expect(html.test("ab_c-9")).toBe(true);
    expect(html.test("a b")).toBe(false);
  });

  it("refuses a pattern the browser would ignore, and computes each schema once", () => {
    expect(() => formConstraints(z.object({ x: z.string().regex(/^[(]$/) }))).toThrow(/not valid in an HTML pattern/);
    expect(formConstraints(schema)).toBe(constraints);
  });
});
