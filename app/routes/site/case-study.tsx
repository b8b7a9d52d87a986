import { data } from "react-router";
import type { Route } from "./+types/case-study";
import { servicesContext } from "#app/context";
import { findPublishedCaseStudy } from "#app/features/portfolio/case-studies.server";
import { caseStudyView } from "#app/features/portfolio/case-study-view.server";
import { CaseStudyPage } from "#app/features/portfolio/components/case-study-page";
import { listShownTestimonials } from "#app/features/portfolio/testimonials.server";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";
import NotFound from "./not-found";

export const handle: RouteHandle = { hydrate: false };

/**
 * `/<slug>`: a published case study (issue #40), read from the database — the four first ones keep
 * their addresses /project1 … /project4 as their slugs. Any other single-segment address is the
 * site's 404 page. In production the page is served from the page cache (server/page-cache.ts),
 * rendered again when a case study or testimonial changes.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).db;
  const found = await findPublishedCaseStudy(db, params.slug);
  if (!found) return data({ caseStudy: null, testimonials: [], ogImage: null }, { status: 404 });
  return {
    caseStudy: caseStudyView(found.id, found.content),
    testimonials: await listShownTestimonials(db, { caseStudyId: found.id, limit: 6 }),
    ogImage: `/portfolio/og/${found.id}.png?v=${found.publishedAt.getTime()}`,
  };
}

export const meta: Route.MetaFunction = (args) => {
  const loaded = args.loaderData;
  if (!loaded?.caseStudy) {
    return [
      ...pageMeta(args, { title: "Page not found", description: "The page you are looking for does not exist." }),
      { name: "robots", content: "noindex" },
    ];
  }
  return pageMeta(args, { title: loaded.caseStudy.title, description: loaded.caseStudy.summary, image: loaded.ogImage ?? undefined });
};

/** A case study (docs/product.md#public-site), or the 404 page. */
export default function CaseStudyRoute({ loaderData }: Route.ComponentProps) {
  if (!loaderData.caseStudy) return <NotFound />;
  return (
    <CaseStudyPage
      view={loaderData.caseStudy}
      testimonials={loaderData.testimonials}
      startHref={`/proposal-request?caseStudy=${encodeURIComponent(loaderData.caseStudy.slug)}`}
    />
  );
}
