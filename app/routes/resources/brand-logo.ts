import type { Route } from "./+types/brand-logo";
import { servicesContext } from "#app/context";
import { readLogo } from "#app/features/settings/settings.server";
import { notFound } from "#app/lib/errors";

/**
 * `/brand/logo/:version` (docs/product.md#settings): the agency's logo, public (it appears in
 * e-mails). The version is the file's content hash, so the answer is cached for a year; a new
 * upload gets a new URL. An SVG is served under a policy that forbids any script or load, and
 * never sniffed as anything else.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const logo = await readLogo(context.get(servicesContext).db, params.version);
  if (!logo) throw notFound("Logo not found");
  return new Response(new Uint8Array(logo.bytes), {
    headers: {
      "Content-Type": logo.contentType,
      "Content-Length": String(logo.bytes.length),
      "Cache-Control": "public, max-age=31536000, immutable",
      "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
