import type { Route } from "./+types/projects";
import { ProjectCard } from "#app/components/project-card";
import { servicesContext } from "#app/context";
import { listPublishedCaseStudies } from "#app/features/portfolio/case-studies.server";
import { screenshotImage } from "#app/features/portfolio/case-study-view.server";
import { portraitImage } from "#app/features/site/media.server";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Projects",
    description: `Case studies: ${(args.loaderData?.cards ?? []).map((p) => p.title).join(", ")}.`,
  });

/** Every published case study in the admin's order, with its first screenshot as the card's thumbnail. */
export async function loader({ context }: Route.LoaderArgs) {
  const published = await listPublishedCaseStudies(context.get(servicesContext).db);
  return {
    cards: published.map(({ content }) => ({
      slug: content.slug,
      title: content.title,
      description: content.summary,
      tech: content.tech,
      thumbnail: content.images[0] ? screenshotImage(content.images[0]) : portraitImage(),
    })),
  };
}

/** Projects (docs/product.md#roles): a card per published case study with thumbnail, title, summary, technologies and View Project. */
export default function Projects({ loaderData: { cards } }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="reveal text-title font-bold">Projects</h1>
      {cards.length ? (
        <div className="mt-8 grid gap-6 sm:grid-cols-2">
          {cards.map((card) => (
            <ProjectCard
              key={card.slug}
              title={card.title}
              description={card.description}
              tech={card.tech}
              thumbnail={card.thumbnail}
              to={`/${card.slug}`}
              headingLevel={2}
              sizes="(min-width: 640px) 50vw, 100vw"
            />
          ))}
        </div>
      ) : (
        <p className="mt-8 text-slate-700">New case studies are on their way.</p>
      )}
    </section>
  );
}
