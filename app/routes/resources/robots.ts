import type { Route } from "./+types/robots";
import { servicesContext } from "#app/context";

/** `/robots.txt`: public pages open to crawlers, the portal closed, sitemap linked. */
export async function loader({ context }: Route.LoaderArgs) {
  const { origin } = context.get(servicesContext).env;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /ambassador",
    "Disallow: /client-dashboard",
    "Disallow: /project-status",
    "Disallow: /proposal-request",
    "Disallow: /edit-proposal",
    "Disallow: /view-invoice",
    "Disallow: /invoices",
    "Disallow: /api/",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, { headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" } });
}
