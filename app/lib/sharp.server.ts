/**
 * sharp (libvips, a native addon) on first use: loading it costs ≈ 0.2 s of CPU, and most starts of
 * a server never resize an image (issue #42: each start of the built app in the browser tests paid it).
 */
import type sharpModule from "sharp";

/**
 * @returns sharp's default export (the `sharp(input, options)` factory), loaded once by Node's module
 *   cache.
 * @throws when the addon cannot be loaded (a missing binary for this platform).
 */
export async function loadSharp(): Promise<typeof sharpModule> {
  return (await import("sharp")).default;
}
