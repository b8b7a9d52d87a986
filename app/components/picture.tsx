import type { ResponsiveImage } from "#app/content/media";

/**
 * A responsive image: AVIF and WebP `srcset`s when the build made them, the source file as
 * the `<img>` fallback, with its intrinsic width and height (no layout shift).
 *
 * @param sizes - the `sizes` attribute: how wide the image is drawn (e.g. "(min-width: 768px) 33vw, 100vw").
 */
export function Picture({
  image,
  alt,
  sizes,
  className,
  loading = "lazy",
  fetchPriority,
}: {
  image: ResponsiveImage;
  alt: string;
  sizes: string;
  className?: string;
  loading?: "lazy" | "eager";
  fetchPriority?: "high" | "low" | "auto";
}) {
  return (
    <picture>
      {image.avif ? <source type="image/avif" srcSet={image.avif} sizes={sizes} /> : null}
      {image.webp ? <source type="image/webp" srcSet={image.webp} sizes={sizes} /> : null}
      <img
        src={image.src}
        alt={alt}
        width={image.width}
        height={image.height}
        loading={loading}
        fetchPriority={fetchPriority}
        decoding="async"
        className={className}
      />
    </picture>
  );
}
