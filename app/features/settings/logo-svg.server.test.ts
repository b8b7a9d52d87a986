/**
 * SVG logos (issue #28) on PGlite and PostgreSQL: every hostile vector — the two that passed the
 * old filter (`<use x:href>` under another prefix, `image-set()` in `<style>`) and the ones it
 * refused — is refused or stored as a PNG; an SVG is never stored nor served; drawing one loads
 * nothing (a local HTTP server counts the requests, a red image on disk must not show up).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { brandLogo } from "#app/db/schema";
import { AppError } from "#app/lib/errors";
import { testDatabases } from "../../../tests/helpers/db";
import { useTestServices } from "../../../tests/helpers/services";
import { LOGO_MESSAGES } from "./logo";
import { rasterizeSvg } from "./logo-raster.server";
import { readLogo, saveLogo } from "./settings.server";

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
let requests = 0;
let base = "";
let redFile = "";
let dir = "";
const server = createServer(async (_req, res) => {
  requests += 1;
  res.writeHead(200, { "content-type": "image/png" });
  res.end(
    await sharp({ create: { width: 10, height: 10, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer(),
  );
});

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = mkdtempSync(path.join(tmpdir(), "logo-"));
  redFile = path.join(dir, "red.png");
  writeFileSync(
    redFile,
    await sharp({ create: { width: 10, height: 10, channels: 3, background: "#ff0000" } })
      .png()
      .toBuffer(),
  );
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

/** The vectors, each inside a blue square. */
function vectors(): string[] {
  const url = `${base}/x.png`;
  const inner = [
    // The two the old filter let through.
    `<use x:href="${url}#a" xmlns:x="http://www.w3.org/1999/xlink"/>`,
    `<style>rect{background-image:image-set("${url}" 1x)}</style>`,
    // The ones it refused.
    "<script>alert(1)</script>",
    "<SCRIPT>alert(1)</SCRIPT>",
    '<rect onload="alert(1)"/>',
    '<rect a=">" onload="alert(1)"/>',
    '<a href="javascript:alert(1)"><rect/></a>',
    `<use href="${url}#a"/>`,
    '<use xlink:href="data:image/svg+xml;base64,AAAA"/>',
    `<image href="${url}" width="10" height="10"/>`,
    "<foreignObject><div>x</div></foreignObject>",
    `<style>@import url(${base}/a.css);</style>`,
    `<rect style="fill:url(${url})" width="10" height="10"/>`,
    '<animate attributeName="href" to="javascript:alert(1)"/>',
    '<set attributeName="onmouseover" to="alert(1)"/>',
    "<iframe src=x></iframe>",
    '<rect fill="&#106;avascript:"/>',
    "<![CDATA[<script>alert(1)</script>]]>",
    // More ways to load something.
    `<image href="file://${redFile}" width="10" height="10"/>`,
    `<image xlink:href="file://${redFile}" width="10" height="10"/>`,
    `<filter id="f"><feImage href="${url}"/></filter><rect filter="url(#f)" width="10" height="10"/>`,
    `<style>@font-face{font-family:x;src:url(${base}/f.woff)}</style><text font-family="x">A</text>`,
  ];
  return inner.map(
    (v) =>
      `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10" viewBox="0 0 10 10"><rect width="10" height="10" fill="#0000ff"/>${v}</svg>`,
  );
}

/** @returns how many pixels of a PNG are red (what the external images would have drawn). */
async function redPixels(png: Uint8Array): Promise<number> {
  const { data, info } = await sharp(png).flatten({ background: "#ffffff" }).raw().toBuffer({ resolveWithObject: true });
  let red = 0;
  for (let i = 0; i < data.length; i += info.channels) if (data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60) red++;
  return red;
}

describe("drawing an SVG", () => {
  it("loads nothing, whatever it references (each vector drawn without the filter in front)", async () => {
    const before = requests;
    for (const svg of vectors()) {
      const png = await rasterizeSvg(new TextEncoder().encode(svg)).catch(() => null);
      if (png) {
        expect([...png.slice(0, 8)]).toEqual(PNG_MAGIC);
        expect(await redPixels(png), svg).toBe(0);
      }
    }
    expect(requests - before).toBe(0);
  });
});

describe.each(testDatabases())("SVG logos on %s", (_name, open) => {
  const ctx = useTestServices(open, { admin: true });

  it("every hostile vector is refused or kept as a PNG; nothing is fetched; no SVG is stored or served", async () => {
    const { t, admin } = ctx;
    const before = requests;
    expect(vectors().length).toBeGreaterThanOrEqual(22);
    for (const svg of vectors()) {
      try {
        const logoPath = await saveLogo(t.db, admin, new TextEncoder().encode(svg));
        const served = await readLogo(t.db, logoPath.split("/").pop()!);
        expect(served?.contentType, svg).toBe("image/png");
        expect([...served!.bytes.slice(0, 8)]).toEqual(PNG_MAGIC);
        expect(await redPixels(served!.bytes), svg).toBe(0);
      } catch (error) {
        expect(error, svg).toBeInstanceOf(AppError);
        expect([LOGO_MESSAGES.unsafeSvg, LOGO_MESSAGES.svgUnreadable]).toContain((error as AppError).fieldErrors?.logo?.[0]);
      }
    }
    expect(requests - before).toBe(0);
    for (const row of await t.db.select({ type: brandLogo.contentType }).from(brandLogo)) expect(row.type).not.toBe("image/svg+xml");
  });

  it("a plain SVG is drawn to a PNG on upload; an SVG stored before is served drawn", async () => {
    const { t, admin } = ctx;
    const plain =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 20 10"><title>Acme</title><rect width="20" height="10" fill="#1d3fa3"/></svg>';
    const logoPath = await saveLogo(t.db, admin, new TextEncoder().encode(plain));
    const served = await readLogo(t.db, logoPath.split("/").pop()!);
    expect(served?.contentType).toBe("image/png");
    const meta = await sharp(served!.bytes).metadata();
    expect(meta.format).toBe("png");
    expect(meta.height).toBe(160);
    // A row from before this change.
    await t.db
      .update(brandLogo)
      .set({ contentType: "image/svg+xml", dataBase64: Buffer.from(plain).toString("base64"), version: "a".repeat(20) });
    expect((await readLogo(t.db, "a".repeat(20)))?.contentType).toBe("image/png");
  });
});
