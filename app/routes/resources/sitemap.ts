import type { Route } from "./+types/sitemap";
import { servicesContext } from "#app/context";
import { publishedCaseStudyPaths } from "#app/features/portfolio/case-studies.server";

/** The public pages listed in /sitemap.xml besides the case studies. */
export const publicPaths = ["/", "/about", "/projects", "/contact"];

/** `/sitemap.xml`: every public page and every published case study, with its absolute URL. */
export async function loader({ context }: Route.LoaderArgs) {
  const { env, db } = context.get(servicesContext);
  const paths = [...publicPaths, ...(await publishedCaseStudyPaths(db))];
  const urls = paths.map((path) => `  <url><loc>${env.origin}${path}</loc></url>`).join("\n");
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(body, { headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
