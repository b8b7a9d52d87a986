import { describe, expect, it } from "vitest";
import { containsPattern, decodeCursor, encodeCursor, normalizeSearch, pageRequestFrom } from "./pagination";

describe("pagination helpers", () => {
  it("drops control characters from search terms", () => {
    expect(normalizeSearch("a\u0000b\u0007  c")).toBe("a b c");
    expect(normalizeSearch("\u0000")).toBeUndefined();
  });

  it("round-trips cursors and ignores forged ones", () => {
    const cursor = { key: "2026-01-05 12:00:00.123456+00", id: 42 };
    expect(decodeCursor(encodeCursor(cursor))).toEqual(cursor);
    expect(decodeCursor(encodeCursor({ key: "2026-01-05 12:00:00+00", id: "user-id" }))).toEqual({
      key: "2026-01-05 12:00:00+00",
      id: "user-id",
    });
    for (const bad of [
      "",
      "%%%",
      Buffer.from('["x; drop table", 1]').toString("base64url"),
      Buffer.from("[1,2]").toString("base64url"),
      "a".repeat(300),
      encodeCursor({ key: "2026-13-05 12:00:00+00", id: 1 }),
      encodeCursor({ key: "2026-02-30 12:00:00+00", id: 1 }),
      encodeCursor({ key: "2026-01-05 25:00:00+00", id: 1 }),
      encodeCursor({ key: "2026-01-05 12:00:00+00", id: 99_999_999_999 }),
      encodeCursor({ key: "2026-01-05 12:00:00+00", id: 2_147_483_648 }),
      encodeCursor({ key: "2026-01-05 12:00:00+00", id: -1 }),
      encodeCursor({ key: "2026-01-05 12:00:00+00", id: "bad id\u0000" }),
    ]) {
      expect(decodeCursor(bad)).toBeUndefined();
    }
  });

  it("reads after/before (before wins) with an optional prefix and a bounded size", () => {
    const a = encodeCursor({ key: "2026-01-01 00:00:00+00", id: 1 });
    const b = encodeCursor({ key: "2026-01-02 00:00:00+00", id: 2 });
    expect(pageRequestFrom(new URLSearchParams({ after: a }))).toEqual({
      after: { key: "2026-01-01 00:00:00+00", id: 1 },
      before: undefined,
      size: 25,
    });
    expect(pageRequestFrom(new URLSearchParams({ after: a, before: b })).before?.id).toBe(2);
    expect(pageRequestFrom(new URLSearchParams({ after: a }), { prefix: "p" }).after).toBeUndefined();
    expect(pageRequestFrom(new URLSearchParams({ pAfter: a }), { prefix: "p", size: 500 })).toMatchObject({ after: { id: 1 }, size: 100 });
    expect(pageRequestFrom(new URLSearchParams({ after: "" })).after).toBeUndefined();
    const forged = encodeCursor({ key: "2026-13-01 00:00:00+00", id: 1 });
    expect(() => pageRequestFrom(new URLSearchParams({ after: forged }))).toThrow(
      expect.objectContaining({ code: "INVALID_INPUT", status: 400 }),
    );
    expect(() => pageRequestFrom(new URLSearchParams({ before: "%%%" }))).toThrow(expect.objectContaining({ status: 400 }));
  });

  it("normalises search terms and escapes LIKE wildcards", () => {
    expect(normalizeSearch("  Blue   Cafe ")).toBe("Blue Cafe");
    expect(normalizeSearch("   ")).toBeUndefined();
    expect(normalizeSearch("x".repeat(300))).toHaveLength(100);
    expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
  });
});
