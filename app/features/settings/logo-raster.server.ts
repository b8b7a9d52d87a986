/**
 * Draws an uploaded SVG logo to a PNG (docs/product.md#settings-logo): the portal stores and serves
 * only PNG and JPEG. librsvg (through sharp) draws the file without loading anything: no network
 * address, no file on disk, no script — an external reference simply draws nothing.
 */
import { loadSharp } from "#app/lib/sharp.server";

/** The drawn logo's height in pixels (shown at 40 px in headers and mails: sharp on 2×–4× screens). */
export const RASTER_HEIGHT = 160;
/** Pixels an SVG may ask to be drawn at before it is refused (a "bomb" declaring a huge canvas). */
const MAX_INPUT_PIXELS = 25_000_000;

/**
 * @param svg - the whole SVG file (already checked by `checkLogo`).
 * @returns the PNG bytes, {@link RASTER_HEIGHT} pixels high, transparency kept.
 * @throws when the SVG cannot be drawn (malformed, too large, took over 10 s).
 */
export async function rasterizeSvg(svg: Uint8Array): Promise<Uint8Array> {
  const sharp = await loadSharp();
  const png = await sharp(svg, { density: 300, limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ height: RASTER_HEIGHT, fit: "inside" })
    .png({ compressionLevel: 9 })
    .timeout({ seconds: 10 })
    .toBuffer();
  return new Uint8Array(png);
}
