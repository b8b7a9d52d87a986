import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { renderCertificatePdf } from "#app/features/agreements/certificate-pdf.server";
import { pngDecodes } from "./png-check.server";

/** A PNG chunk with its length and CRC. */
function chunk(type: string, body: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(body.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), body]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(typed));
  return Buffer.concat([head, typed, crc]);
}

/** An RGBA PNG of `width`×`height` whose scanlines are `rows` (filter byte + pixels), compressed as given. */
function png(width: number, height: number, idat: Buffer, interlace = 0): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // RGBA: pdfkit decodes it asynchronously (the crash path)
  ihdr[12] = interlace;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

const rows = (width: number, height: number, filter = 0) =>
  Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([filter]), Buffer.alloc(width * 4, 0x80)])));

describe("pngDecodes", () => {
  it("accepts a whole image, plain or interlaced", () => {
    expect(pngDecodes(png(3, 2, zlib.deflateSync(rows(3, 2))))).toBe(true);
    // Adam7 on 2×2: passes 1 (1×1), 6 (1×1) and 7 (2×1).
    const adam7 = Buffer.concat([Buffer.from([0]), Buffer.alloc(4), Buffer.from([0]), Buffer.alloc(4), Buffer.from([0]), Buffer.alloc(8)]);
    expect(pngDecodes(png(2, 2, zlib.deflateSync(adam7), 1))).toBe(true);
  });

  it("refuses damaged files: bad CRC, bad compressed data, wrong size, unknown filter, truncated, header only", () => {
    const good = png(3, 2, zlib.deflateSync(rows(3, 2)));
    const badCrc = Buffer.from(good);
    badCrc[good.length - 20] ^= 0xff; // inside IDAT, CRC left as it was
    expect(pngDecodes(badCrc)).toBe(false);
    const garbage = Buffer.from(zlib.deflateSync(rows(3, 2)));
    garbage.fill(0x55, 2, garbage.length - 4); // CRC recomputed by chunk(): only the zlib stream is broken
    expect(pngDecodes(png(3, 2, garbage))).toBe(false);
    expect(pngDecodes(png(3, 3, zlib.deflateSync(rows(3, 2))))).toBe(false);
    expect(pngDecodes(png(3, 2, zlib.deflateSync(rows(3, 2, 9))))).toBe(false);
    expect(pngDecodes(good.subarray(0, good.length - 12))).toBe(false);
    expect(pngDecodes(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 73, 72, 68, 82]))).toBe(false);
  });

  it("a certificate with a damaged PNG logo is drawn without it, and the process lives on", async () => {
    const garbage = Buffer.from(zlib.deflateSync(rows(3, 2)));
    garbage.fill(0x55, 2, garbage.length - 4);
    const pdf = await renderCertificatePdf({
      certificateId: "c1",
      agencyName: "Acme",
      logo: png(3, 2, garbage),
      proposalId: 1,
      proposalName: "Site",
      terms: {
        proposalId: 1,
        version: 1,
        projectName: "Site",
        scope: "Scope",
        items: [{ description: "Design", quantity: 1, unitPriceCents: 1000, lineTotalCents: 1000 }],
        totalCents: 1000,
        currency: "USD",
        timeline: "",
        deposit: null,
        validUntil: null,
        termsAndConditions: null,
      },
      sha256: "a".repeat(64),
      typedName: "A Signer",
      email: "a@example.com",
      acceptedAt: new Date("2026-11-01T10:00:00Z"),
      timeZone: "UTC",
      ip: null,
      userAgent: null,
      voidedByVersion: null,
      verifyUrl: null,
    });
    expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");
    // pdfkit's decoder throws in a later zlib callback: give it the time to do so.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
});
