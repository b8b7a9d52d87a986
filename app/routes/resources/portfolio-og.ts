import type { Route } from "./+types/portfolio-og";
import { servicesContext } from "#app/context";
import { findPublishedCaseStudyById, readOgImage, storeOgImage } from "#app/features/portfolio/case-studies.server";
import { renderOgImage } from "#app/features/portfolio/og-image.server";
import { notFound } from "#app/lib/errors";
import { parseId } from "#app/lib/ids";

/**
 * `/portfolio/og/:caseStudyId.png` (issue #40): a published case study's Open Graph image, made
 * at publish (the seeded case studies: at the first request, then kept). The page links it with
 * `?v=<published time>`, so the answer is cached for a day and a new publication gets a new URL.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).db;
  const id = parseId(params.caseStudyId?.replace(/\.png$/, ""));
  if (id === null) throw notFound("Image not found");
  let png = await readOgImage(db, id);
  if (!png) {
    const found = await findPublishedCaseStudyById(db, id);
    if (!found) throw notFound("Image not found");
    png = await renderOgImage(found.content);
    await storeOgImage(db, id, png);
  }
  return new Response(new Uint8Array(png), {
    headers: {
      "Content-Type": "image/png",
      "Content-Length": String(png.byteLength),
      "Cache-Control": "public, max-age=86400",
      "X-Content-Type-Options": "nosniff",
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
