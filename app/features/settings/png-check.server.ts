/**
 * A full integrity check of a PNG file before anything draws it (docs/product.md#settings, logo).
 *
 * pdfkit decodes a PNG with transparency asynchronously (png-js inflates the image data in a zlib
 * callback and throws there): a damaged file would then end the whole server process, out of
 * reach of any `try`. So the logo is checked here, synchronously, the way a decoder reads it:
 * chunk layout and CRCs, a valid header, the image data inflating to exactly the size the header
 * implies, and a known filter type on every scanline (both interlace methods).
 */
import zlib from "node:zlib";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** Channels per pixel by colour type (0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA). */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
/** Adam7 passes: x start, y start, x step, y step. */
const ADAM7 = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
] as const;
/** Largest decoded image accepted (a logo is small; this bounds the inflate). */
const MAX_DECODED_BYTES = 64 * 1024 * 1024;

/**
 * @param bytes - a whole file that starts with the PNG signature.
 * @returns true when a decoder can read every pixel of it; false for anything damaged,
 *   truncated, or with an unknown colour type, bit depth, filter or compression.
 */
export function pngDecodes(bytes: Uint8Array): boolean {
  const data = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (data.length < 8 || !SIGNATURE.every((b, i) => data[i] === b)) return false;
  let offset = 8;
  let header: { width: number; height: number; depth: number; colour: number; interlace: number } | null = null;
  const idat: Buffer[] = [];
  let ended = false;
  while (offset + 12 <= data.length) {
    const length = data.readUInt32BE(offset);
    if (offset + 12 + length > data.length) return false;
    const type = data.toString("latin1", offset + 4, offset + 8);
    const body = data.subarray(offset + 8, offset + 8 + length);
    if (zlib.crc32(data.subarray(offset + 4, offset + 8 + length)) !== data.readUInt32BE(offset + 8 + length)) return false;
    if (type === "IHDR") {
      if (length !== 13) return false;
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8]!,
        colour: body[9]!,
        interlace: body[12]!,
      };
      if (body[10] !== 0 || body[11] !== 0 || header.interlace > 1) return false;
    } else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") {
      ended = true;
      break;
    }
    offset += 12 + length;
  }
  if (!header || !ended || idat.length === 0 || header.width === 0 || header.height === 0) return false;
  const channels = CHANNELS[header.colour];
  const depthOk =
    header.colour === 3
      ? [1, 2, 4, 8].includes(header.depth)
      : header.colour === 0
        ? [1, 2, 4, 8, 16].includes(header.depth)
        : [8, 16].includes(header.depth);
  if (!channels || !depthOk) return false;
  const bitsPerPixel = channels * header.depth;
  const rowBytes = (width: number) => Math.ceil((width * bitsPerPixel) / 8);
  const passes: [number, number][] =
    header.interlace === 0
      ? [[header.width, header.height]]
      : ADAM7.map(([x0, y0, dx, dy]) => [
          header!.width > x0 ? Math.ceil((header!.width - x0) / dx) : 0,
          header!.height > y0 ? Math.ceil((header!.height - y0) / dy) : 0,
        ]);
  const expected = passes.reduce((total, [w, h]) => (w > 0 && h > 0 ? total + h * (1 + rowBytes(w)) : total), 0);
  if (expected > MAX_DECODED_BYTES) return false;
  let pixels: Buffer;
  try {
    pixels = zlib.inflateSync(Buffer.concat(idat), { maxOutputLength: MAX_DECODED_BYTES });
  } catch {
    return false;
  }
  if (pixels.length !== expected) return false;
  let at = 0;
  for (const [w, h] of passes) {
    if (w === 0 || h === 0) continue;
    for (let row = 0; row < h; row++) {
      if (pixels[at]! > 4) return false;
      at += 1 + rowBytes(w);
    }
  }
  return true;
}
