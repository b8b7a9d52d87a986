import { describe, expect, it } from "vitest";
import { contentDisposition, parseRange } from "#app/features/conversations/thread-route.server";
import { detectContentType, TextCheck } from "./detect.server";
import { sanitizeFileName } from "./file-kinds";

describe("file names, kinds, ranges", () => {
  it("sanitises display names: no path, control, bidi or invisible characters, at most 200 characters", () => {
    expect(sanitizeFileName("../../etc/passwd")).toBe("passwd");
    expect(sanitizeFileName("C:\\Users\\me\\report.pdf")).toBe("report.pdf");
    expect(sanitizeFileName("invoice\u202Efdp.exe")).toBe("invoicefdp.exe");
    expect(sanitizeFileName("a\u0000b\u200Bc\nd.txt")).toBe("abcd.txt");
    expect(sanitizeFileName("...hidden")).toBe("hidden");
    expect(sanitizeFileName("\u2066\u2069")).toBe("file");
    const long = sanitizeFileName(`${"x".repeat(300)}.pdf`);
    expect([...long]).toHaveLength(200);
    expect(long.endsWith(".pdf")).toBe(true);
  });

  it("detects the kind from the content, never the name", async () => {
    expect(await detectContentType(Buffer.from("%PDF-1.7\n%âãÏÓ\n1 0 obj\n"), "x.png")).toBe("application/pdf");
    expect(await detectContentType(Buffer.from("89504e470d0a1a0a0000000d49484452", "hex"), "x.pdf")).toBe("image/png");
    expect(await detectContentType(Buffer.from("name,amount\nAda,5\n"), "list.csv")).toBe("text/csv");
    expect(await detectContentType(Buffer.from("Hello, ünïcode\r\n\tworld"), "notes")).toBe("text/plain");
    expect(await detectContentType(Buffer.from([0x4d, 0x5a, 0x90, 0x00, 0x03, 0x00]), "report.pdf")).toBeNull();
    expect(await detectContentType(Buffer.from("text with a NUL \u0000 byte"), "a.txt")).toBeNull();
    expect(await detectContentType(Buffer.from([0xff, 0xfe, 0x41]), "a.txt")).toBeNull();
    // An ELF binary named .txt is refused.
    expect(await detectContentType(Buffer.from("7f454c46020101", "hex"), "a.txt")).toBeNull();
  });

  it("checks text across pieces: a character split between two pieces is fine, a stray byte at the end is not", () => {
    const bytes = Buffer.from("é");
    const check = new TextCheck();
    expect(check.push(bytes.subarray(0, 1), false)).toBe(true);
    expect(check.push(bytes.subarray(1), true)).toBe(true);
    const broken = new TextCheck();
    expect(broken.push(bytes.subarray(0, 1), false)).toBe(true);
    expect(broken.push(new Uint8Array(0), true)).toBe(false);
  });

  it("parses single byte ranges against the size", () => {
    expect(parseRange(null, 100)).toBeNull();
    expect(parseRange("bytes=0-9", 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange("bytes=90-", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=-10", 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange("bytes=50-1000", 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange("bytes=100-", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=9-1", 100)).toBe("unsatisfiable");
    expect(parseRange("bytes=0-1,5-6", 100)).toBeNull();
    expect(parseRange("items=0-1", 100)).toBeNull();
  });

  it("writes Content-Disposition with an ASCII fallback and the UTF-8 name", () => {
    expect(contentDisposition("attachment", 'Plan "final" é.pdf')).toBe(
      `attachment; filename="Plan _final_ _.pdf"; filename*=UTF-8''Plan%20%22final%22%20%C3%A9.pdf`,
    );
  });
});
