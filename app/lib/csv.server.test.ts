import { describe, expect, it } from "vitest";
import { csvResponse, inBatches } from "./csv.server";

describe("csv export", () => {
  it("streams every batch with a header row, quoting and formula neutralisation", async () => {
    const calls: (number | null)[] = [];
    const source = inBatches<{ id: number; name: string }>(async (after, limit) => {
      calls.push(after?.id ?? null);
      const start = (after?.id ?? 0) + 1;
      return Array.from({ length: Math.max(0, Math.min(limit, 2_500 - start + 1)) }, (_, i) => ({
        id: start + i,
        name: i === 0 ? '=HYPERLINK("x"), "quoted"' : `row ${start + i}`,
      }));
    }, 1_000);
    const response = csvResponse(
      "export.csv",
      [
        { header: "ID", value: (r) => r.id },
        { header: "Name", value: (r) => r.name },
      ],
      source,
    );
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="export.csv"');
    const text = (await response.text()).replace(/^\uFEFF/, "");
    const lines = text.trim().split("\n");
    expect(lines[0]).toBe("ID,Name");
    expect(lines).toHaveLength(2_501);
    expect(lines[1]).toBe(`1,"'=HYPERLINK(""x""), ""quoted"""`);
    expect(lines[2_500]).toBe("2500,row 2500");
    expect(calls).toEqual([null, 1_000, 2_000]);
  });
});
