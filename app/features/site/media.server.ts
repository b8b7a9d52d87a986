/**
 * Where the public pages find their images and the résumé (docs/product.md#public-site): the
 * build's manifest of AVIF/WebP variants (scripts/optimize-images.ts) when there is one, else
 * the source files themselves. Read from the built client folder in production (`npm start`
 * runs from the project folder) and from `public/` in development; read once, at first use —
 * the public pages are rendered once at start anyway.
 */
import fs from "node:fs";
import path from "node:path";
import type { Project } from "#app/content/projects";
import type { MediaManifest, ResponsiveImage } from "#app/content/media";

const PORTRAIT_SIZE = 480;
const RASTER = ["avif", "webp", "png", "jpg", "jpeg"];

/** The folder the site's public files are served from. */
function publicRoot(): string {
  const built = path.resolve("build/client");
  return process.env.NODE_ENV === "production" && fs.existsSync(built) ? built : path.resolve("public");
}

let cached: { root: string; manifest: MediaManifest | null } | undefined;

function media() {
  if (cached) return cached;
  const root = publicRoot();
  let manifest: MediaManifest | null;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(root, "generated/manifest.json"), "utf8")) as MediaManifest;
  } catch {
    manifest = null;
  }
  cached = { root, manifest };
  return cached;
}

const plain = (src: string, width: number, height: number): ResponsiveImage => ({ src, width, height, avif: "", webp: "" });

/** @returns the owner's portrait (or its placeholder), square, with its variants. */
export function portraitImage(): ResponsiveImage {
  const { root, manifest } = media();
  if (manifest?.portrait) return manifest.portrait;
  const real = RASTER.map((ext) => `owner/portrait.${ext}`).find((file) => fs.existsSync(path.join(root, file)));
  return plain(`/${real ?? "owner/portrait-placeholder.svg"}`, PORTRAIT_SIZE, PORTRAIT_SIZE);
}

/** @returns a project's screenshots in order (a real file wins over its placeholder). */
export function screenshotImages(project: Project): ResponsiveImage[] {
  return project.images.map(staticScreenshot);
}

/** @returns one screenshot of `public/screenshots/` (a real file wins over its placeholder), with the build's variants. */
export function staticScreenshot(image: { file: string; width: number; height: number }): ResponsiveImage {
  const { root, manifest } = media();
  const made = manifest?.screenshots[image.file];
  if (made) return made;
  const base = `screenshots/${image.file.replace(/\.[^.]+$/, "")}`;
  const real = RASTER.map((ext) => `${base}.${ext}`).find((file) => fs.existsSync(path.join(root, file)));
  return plain(`/${real ?? `screenshots/${image.file}`}`, image.width, image.height);
}

/** @returns the résumé's URL when the owner dropped `public/owner/resume.pdf`, else null (the link is hidden). */
export function resumeHref(): string | null {
  return fs.existsSync(path.join(media().root, "owner/resume.pdf")) ? "/owner/resume.pdf" : null;
}
