import type { Route } from "./+types/projects";
import { ProjectCard } from "#app/components/project-card";
import { projects } from "#app/content/projects";
import { screenshotImages } from "#app/features/site/media.server";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Projects",
    description: `Case studies: ${projects.map((p) => p.title).join(", ")}.`,
  });

/** Each project's first screenshot, its card's thumbnail. */
export function loader() {
  return { thumbnails: Object.fromEntries(projects.map((p) => [p.slug, screenshotImages(p)[0]!])) };
}

/** Projects (docs/product.md#roles): four cards with thumbnail, title, description, technologies and View Project. */
export default function Projects({ loaderData: { thumbnails } }: Route.ComponentProps) {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="reveal text-title font-bold">Projects</h1>
      <div className="mt-8 grid gap-6 sm:grid-cols-2">
        {projects.map((project) => (
          <ProjectCard
            key={project.slug}
            title={project.title}
            description={project.description}
            tech={project.tech}
            thumbnail={thumbnails[project.slug]!}
            to={`/${project.slug}`}
            headingLevel={2}
            sizes="(min-width: 640px) 50vw, 100vw"
          />
        ))}
      </div>
    </section>
  );
}
