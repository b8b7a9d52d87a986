import type { Route } from "./+types/case-study-preview";
import { getCaseStudyForAdmin } from "#app/features/portfolio/case-studies.server";
import { caseStudyView } from "#app/features/portfolio/case-study-view.server";
import { CaseStudyPage } from "#app/features/portfolio/components/case-study-page";
import { listShownTestimonials } from "#app/features/portfolio/testimonials.server";
import { actorAndDb, requireRole } from "#app/features/users/session.server";
import { parseId } from "#app/lib/ids";
import { notFound } from "#app/lib/errors";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const middleware: Route.MiddlewareFunction[] = [requireRole("admin")];

/** The draft of a case study, rendered by the public page's own component (admins only, never cached). */
export async function loader({ params, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const id = parseId(params.caseStudyId);
  if (id === null) throw notFound("Case study not found");
  const cs = await getCaseStudyForAdmin(db, actor, id);
  return {
    id,
    caseStudy: caseStudyView(cs.id, cs.draft),
    testimonials: await listShownTestimonials(db, { caseStudyId: cs.id, limit: 6 }),
  };
}

export const meta: Route.MetaFunction = ({ loaderData }) => [
  { title: `Preview: ${loaderData?.caseStudy.title ?? "case study"} | Admin Console` },
  { name: "robots", content: "noindex" },
];

/** `/portfolio/preview/:caseStudyId` (issue #40): the draft exactly as publishing would show it, under a preview banner. */
export default function CaseStudyPreview({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <div role="status" className="border-b border-amber-300 bg-amber-50 px-4 py-3 text-center text-amber-950">
        Preview of the draft — not published.{" "}
        <a href={`/admin/case-studies/${loaderData.id}`} className="font-semibold underline underline-offset-2">
          Back to the editor
        </a>
      </div>
      <CaseStudyPage
        view={loaderData.caseStudy}
        testimonials={loaderData.testimonials}
        startHref={`/proposal-request?caseStudy=${encodeURIComponent(loaderData.caseStudy.slug)}`}
      />
    </>
  );
}
