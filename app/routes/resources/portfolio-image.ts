import type { Route } from "./+types/portfolio-image";
import { servicesContext } from "#app/context";
import { filesContext } from "#app/features/files/files-context";
import { IMAGE_VARIANTS, screenshotKey, type ImageVariant } from "#app/features/portfolio/images.server";
import { sessionUserContext } from "#app/features/users/session.server";
import { notFound } from "#app/lib/errors";
import { parseId } from "#app/lib/ids";

/**
 * `/portfolio/images/:imageId/:variant` (issue #40): an uploaded case-study screenshot in one of
 * its sizes, from the file store. Public once a published case study shows it; a draft's
 * screenshots are for admins only (not cached by shared caches).
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const id = parseId(params.imageId);
  const variant = params.variant as ImageVariant;
  if (id === null || !Object.hasOwn(IMAGE_VARIANTS, variant)) throw notFound("Image not found");
  const viewer = context.get(sessionUserContext);
  const key = await screenshotKey(context.get(servicesContext).db, id, viewer);
  if (!key) throw notFound("Image not found");
  const body = await context.get(filesContext).get(`${key}/${variant}`);
  if (!body) throw notFound("Image not found");
  return new Response(body, {
    headers: {
      "Content-Type": IMAGE_VARIANTS[variant].format === "webp" ? "image/webp" : "image/jpeg",
      // The variants under a key never change (a new upload gets a new key and id).
      "Cache-Control": viewer?.role === "admin" ? "private, max-age=3600" : "public, max-age=604800",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
