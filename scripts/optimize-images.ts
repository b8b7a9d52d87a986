/**
 * AVIF and WebP variants of the public site's images, made at build time with sharp
 * (docs/product.md#public-site; `npm run build` runs it first, `npm run images` alone).
 *
 * Sources (the owner drops files into these two folders; see the README's "Images"):
 * - the portrait: `public/owner/portrait.{jpg,jpeg,png,webp,avif}`, else the placeholder
 *   `public/owner/portrait-placeholder.svg`; variants 160, 320 and 480 px wide (square crop);
 * - each case-study screenshot listed in `app/content/projects.ts`: a real
 *   `public/screenshots/<slug>-<n>.{png,jpg,jpeg,webp,avif}` else its SVG placeholder;
 *   variants 640 and 1280 px wide.
 *
 * Output: `public/generated/` (not committed) with `manifest.json`, which
 * `app/features/site/media.server.ts` reads. A variant newer than its source is kept. When
 * sharp cannot be loaded the script says so and exits 0: the site then serves the sources.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { projects } from "../app/content/projects";
import type { MediaManifest, ResponsiveImage } from "../app/content/media";

const PUBLIC = path.resolve("public");
const OUT = path.join(PUBLIC, "generated");
const RASTER = ["avif", "webp", "png", "jpg", "jpeg"];

type Sharp = typeof import("sharp").default;

async function loadSharp(): Promise<Sharp | null> {
  try {
    return (await import("sharp")).default;
  } catch (error) {
    console.warn(`[images] sharp is not available (${(error as Error).message}); serving the source images without AVIF/WebP variants.`);
    return null;
  }
}

/** @returns the first existing file `<base>.<ext>` (relative to public/) among `exts`. */
function findSource(base: string, exts: string[]): string | undefined {
  for (const ext of exts) if (fs.existsSync(path.join(PUBLIC, `${base}.${ext}`))) return `${base}.${ext}`;
  return undefined;
}

function fresh(output: string, source: string): boolean {
  return fs.existsSync(output) && fs.statSync(output).mtimeMs >= fs.statSync(source).mtimeMs;
}

/**
 * Lists a source's variants in the manifest and queues the encodes of those missing or older than it.
 *
 * @param encodes - receives one task per variant to (re)make; `main` runs them.
 * @returns the manifest entry (srcset strings of `/generated/…` files with their widths).
 */
function variants(
  sharp: Sharp,
  encodes: Array<() => Promise<void>>,
  source: string,
  name: string,
  widths: number[],
  aspect: { width: number; height: number },
): ResponsiveImage {
  const input = path.join(PUBLIC, source);
  const made: Record<"avif" | "webp", string[]> = { avif: [], webp: [] };
  for (const width of widths) {
    const height = Math.round((width * aspect.height) / aspect.width);
    for (const format of ["avif", "webp"] as const) {
      const file = `${name}-${width}.${format}`;
      const output = path.join(OUT, file);
      if (!fresh(output, input))
        encodes.push(async () => {
          const pipeline = sharp(input, { density: 144 }).resize(width, height, { fit: "cover" });
          await (format === "avif" ? pipeline.avif({ quality: 55, effort: 4 }) : pipeline.webp({ quality: 78 })).toFile(output);
        });
      made[format].push(`/generated/${file} ${width}w`);
    }
  }
  return { src: `/${source}`, width: aspect.width, height: aspect.height, avif: made.avif.join(", "), webp: made.webp.join(", ") };
}

async function main() {
  const sharp = await loadSharp();
  if (!sharp) return;
  fs.mkdirSync(OUT, { recursive: true });
  const manifest: MediaManifest = { portrait: null, screenshots: {} };
  const encodes: Array<() => Promise<void>> = [];
  const portrait = findSource("owner/portrait", RASTER) ?? "owner/portrait-placeholder.svg";
  if (fs.existsSync(path.join(PUBLIC, portrait))) {
    manifest.portrait = variants(sharp, encodes, portrait, "portrait", [160, 320, 480], { width: 480, height: 480 });
  }
  for (const project of projects) {
    for (const image of project.images) {
      const base = `screenshots/${image.file.replace(/\.[^.]+$/, "")}`;
      const source = findSource(base, [...RASTER, "svg"]);
      if (!source) continue;
      manifest.screenshots[image.file] = variants(sharp, encodes, source, path.basename(base), [640, 1280], image);
    }
  }
  // sharp runs each encode on one thread here (its default on glibc Linux): one encode per core at
  // once keeps the cores busy in the build's first step (34 s of CPU in one thread before, quiet,
  // issue #42); the same encodes, so the same files.
  await Promise.all(
    Array.from({ length: os.availableParallelism() }, async () => {
      for (let encode = encodes.shift(); encode; encode = encodes.shift()) await encode();
    }),
  );
  fs.writeFileSync(path.join(OUT, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`[images] ${Object.keys(manifest.screenshots).length} screenshots and the portrait in public/generated/`);
}

await main();
