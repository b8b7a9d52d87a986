/**
 * Thumbnails of the images shared in a conversation (issue #41, docs/product.md#files): a small
 * WebP drawn from the stored file when the conversation asks for `?thumb=1`, behind the same
 * access check as the download. Nothing is stored: the file is read and resized on each request
 * (the browser keeps it, privately, for a day).
 */
import { loadSharp } from "#app/lib/sharp.server";
import { THUMBNAIL_SIZE } from "./file-kinds";

/** Larger images are refused before decoding (a decompression bomb): 40 megapixels. */
const MAX_INPUT_PIXELS = 40_000_000;

const WIDTH = THUMBNAIL_SIZE.width * 2;
const HEIGHT = THUMBNAIL_SIZE.height * 2;

/**
 * @param bytes - the stored image (PNG, JPEG, WebP or GIF; a GIF's first frame).
 * @returns a WebP of twice {@link THUMBNAIL_SIZE} (sharp on high-density screens), cropped to fill it;
 *   a plain grey one when the bytes are not an image sharp can read within the pixel limit (the
 *   file itself stays downloadable; the page never shows a broken image).
 */
export async function imageThumbnail(bytes: Uint8Array): Promise<Buffer> {
  const sharp = await loadSharp();
  try {
    return await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, animated: false })
      .rotate()
      .resize({ width: WIDTH, height: HEIGHT, fit: "cover" })
      .webp({ quality: 70 })
      .toBuffer();
  } catch {
    return sharp({ create: { width: WIDTH, height: HEIGHT, channels: 3, background: "#e2e8f0" } })
      .webp({ quality: 70 })
      .toBuffer();
  }
}
