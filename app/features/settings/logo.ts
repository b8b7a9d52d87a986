/**
 * Checks an uploaded logo before anything is stored (docs/product.md#settings-logo): PNG, JPEG or
 * SVG, at most {@link MAX_LOGO_BYTES}, recognised by its content (never by its name or the
 * browser's declared type). An SVG is accepted only when it is plain drawing: a fixed list of
 * elements and attributes, no script, no event handler, no external reference, no entity
 * or DOCTYPE, no CSS `url()`, `image-set()` or `@import`. Anything else is refused, not repaired.
 * An accepted SVG is then drawn to a PNG on upload (`logo-raster.server.ts`, librsvg through
 * sharp, which loads nothing from the network or the disk): an SVG is never stored nor served,
 * so whatever this filter might miss reaches no one.
 */

/** Largest logo accepted: 200 KB. */
export const MAX_LOGO_BYTES = 200 * 1024;

export type LogoType = "image/png" | "image/jpeg" | "image/svg+xml";
/** What is stored and served: an SVG is drawn to a PNG on upload. */
export type StoredLogoType = Exclude<LogoType, "image/svg+xml">;

export const LOGO_MESSAGES = {
  missing: "Choose a logo file to upload.",
  tooLarge: "The logo is larger than 200 KB. Export a smaller image and try again.",
  wrongType: "The logo must be a PNG, JPEG or SVG image.",
  unsafeSvg: "This SVG contains scripts, event handlers, external links or other active content and was refused. Export a plain SVG.",
  pngDamaged: "This PNG is damaged and cannot be drawn. Export it again, or upload a JPEG or SVG.",
  svgUnreadable: "This SVG could not be drawn (it may be damaged or declare a huge size). Export it again, or upload a PNG.",
  saved: "Logo saved.",
  removed: "Logo removed.",
} as const;

/** SVG elements a plain logo uses (lowercase). */
const SVG_ELEMENTS = new Set([
  "svg",
  "g",
  "path",
  "rect",
  "circle",
  "ellipse",
  "line",
  "polyline",
  "polygon",
  "text",
  "tspan",
  "defs",
  "lineargradient",
  "radialgradient",
  "stop",
  "title",
  "desc",
  "clippath",
  "mask",
  "symbol",
  "use",
  "style",
  "metadata",
]);

/** Attribute names refused whatever their element: event handlers and links out (`href` under any namespace prefix). */
const BAD_ATTRIBUTE = /^(on|formaction$|([\w.-]+:)?href$|src$|action$)/i;

/**
 * @param bytes - the uploaded file, whole.
 * @returns the file's real type, or the refusal's message.
 */
export function checkLogo(bytes: Uint8Array): { type: LogoType } | { error: string } {
  if (bytes.length === 0) return { error: LOGO_MESSAGES.missing };
  if (bytes.length > MAX_LOGO_BYTES) return { error: LOGO_MESSAGES.tooLarge };
  if (bytes.length > 8 && [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => bytes[i] === b)) return { type: "image/png" };
  if (bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return { type: "image/jpeg" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { error: LOGO_MESSAGES.wrongType };
  }
  if (!/<svg[\s>]/i.test(text)) return { error: LOGO_MESSAGES.wrongType };
  return isPlainSvg(text) ? { type: "image/svg+xml" } : { error: LOGO_MESSAGES.unsafeSvg };
}

/**
 * @returns true when the SVG text holds only allowed elements and attributes, with no
 *   script, handler, external reference, entity, DOCTYPE, processing instruction (other
 *   than a leading XML declaration), CDATA or CSS import.
 */
export function isPlainSvg(text: string): boolean {
  const body = text.replace(/^\uFEFF?\s*<\?xml[^?>]*\?>/i, "").replace(/<!--[\s\S]*?-->/g, "");
  if (/<[!?]/.test(body)) return false; // DOCTYPE, ENTITY, CDATA, processing instructions
  if (/&(?!(amp|lt|gt|quot|apos);)/i.test(body)) return false; // numeric or custom entities can hide "javascript:"
  if (/javascript:|vbscript:|data:|@import|url\s*\(\s*['"]?(?!#)|expression\s*\(|image-set\s*\(|image\s*\(|src\s*\(/i.test(body))
    return false;
  if (/[\s"'/]on[a-z]+\s*=/i.test(body)) return false; // an event handler anywhere, even where the scanner would not look
  const tag = /<\/?\s*([^\s/>]+)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
  for (let m = tag.exec(body); m; m = tag.exec(body)) {
    const name = m[1]!.toLowerCase().replace(/^svg:/, "");
    if (!SVG_ELEMENTS.has(name)) return false;
    const attrs = m[2]!;
    const attr = /([^\s=/"']+)\s*(?:=\s*("[^"]*"|'[^']*'|[^\s>]+))?/g;
    for (let a = attr.exec(attrs); a; a = attr.exec(attrs)) {
      const attrName = a[1]!;
      const value = (a[2] ?? "").replace(/^["']|["']$/g, "").trim();
      if (BAD_ATTRIBUTE.test(attrName)) {
        // An internal reference (`<use href="#shape">`) is fine; anything else is a link out.
        if (/^([\w.-]+:)?href$/i.test(attrName) && /^#[\w-]+$/.test(value)) continue;
        return false;
      }
    }
  }
  // Text outside tags may not smuggle a tag the scanner missed.
  return !/<\s*script/i.test(body) && !/<\s*foreignobject/i.test(body);
}
