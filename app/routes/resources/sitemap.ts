import type { Route } from "./+types/sitemap";
import { servicesContext } from "#app/context";
import { projects } from "#app/content/projects";

/** The public pages listed in /sitemap.xml. */
export const publicPaths = ["/", "/about", "/projects", "/contact", ...projects.map((p) => `/${p.slug}`)];

/** `/sitemap.xml`: every public page with its absolute URL. */
export async function loader({ context }: Route.LoaderArgs) {
  const { origin } = context.get(servicesContext).env;
  const urls = publicPaths.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
