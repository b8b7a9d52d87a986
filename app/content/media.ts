/**
 * The public site's images as the pages render them (docs/product.md#public-site): a source
 * file and, when the build made them (scripts/optimize-images.ts), AVIF and WebP `srcset`s.
 */

/** An image with its intrinsic size and optional modern-format variants. */
export interface ResponsiveImage {
  /** URL of the source file (or placeholder), the `<img>` fallback. */
  src: string;
  width: number;
  height: number;
  /** `srcset` of AVIF variants ("" when none). */
  avif: string;
  /** `srcset` of WebP variants ("" when none). */
  webp: string;
}

/** `public/generated/manifest.json`, written at build. */
export interface MediaManifest {
  portrait: ResponsiveImage | null;
  /** By the screenshot's file name in `app/content/projects.ts`. */
  screenshots: Record<string, ResponsiveImage>;
}
