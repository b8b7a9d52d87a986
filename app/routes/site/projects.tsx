import type { Route } from "./+types/projects";
import { ProjectCard } from "#app/components/project-card";
import { projects } from "#app/content/projects";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Projects",
    description: `Case studies: ${projects.map((p) => p.title).join(", ")}.`,
  });

/** Projects (spec §2): four cards with title, description and View Project. */
export default function Projects() {
  return (
    <section className="mx-auto max-w-6xl px-4 py-16">
      <h1 className="reveal text-4xl font-bold tracking-tight">Projects</h1>
      <div className="mt-8 grid gap-6 sm:grid-cols-2">
        {projects.map((project) => (
          <ProjectCard
            key={project.slug}
            title={project.title}
            description={project.description}
            to={`/${project.slug}`}
            headingLevel={2}
          />
        ))}
      </div>
    </section>
  );
}
