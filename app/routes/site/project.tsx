import { data } from "react-router";
import type { Route } from "./+types/project";
import { Picture } from "#app/components/picture";
import { TechChips } from "#app/components/tech-chips";
import { findProject } from "#app/content/projects";
import { screenshotImages } from "#app/features/site/media.server";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.replace(/^\/+|\/+$/g, "");
  const project = findProject(slug);
  if (!project) throw data(null, { status: 404 });
  return { project, screenshots: screenshotImages(project) };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? pageMeta(args, {
        title: args.loaderData.project.title,
        description: args.loaderData.project.description,
        image: `/screenshots/${args.loaderData.project.images[0]!.file}`,
      })
    : [];

/**
 * Case-study page (docs/product.md#public-site): one layout for all
 * four projects — summary box (role, timeline, outcome, stack), a screenshot gallery whose
 * links open each image full size (no JavaScript), then problem, solution, features, impact.
 */
export default function ProjectPage({ loaderData: { project, screenshots } }: Route.ComponentProps) {
  const section = "reveal mt-12";
  return (
    <article className="mx-auto max-w-5xl px-4 py-16">
      <header className="reveal">
        <h1 className="text-title font-bold">{project.title}</h1>
        <p className="mt-4 max-w-3xl text-lead text-slate-700">{project.description}</p>
      </header>

      <dl
        aria-label="Summary"
        className="reveal mt-8 grid gap-x-8 gap-y-4 rounded-card border border-slate-200 bg-slate-50 p-6 sm:grid-cols-2"
        style={{ borderTopColor: project.color, borderTopWidth: 4 }}
      >
        <div>
          <dt className="text-eyebrow font-semibold text-slate-600 uppercase">Role</dt>
          <dd className="mt-1 text-slate-900">{project.role}</dd>
        </div>
        <div>
          <dt className="text-eyebrow font-semibold text-slate-600 uppercase">Timeline</dt>
          <dd className="mt-1 text-slate-900">{project.timeline}</dd>
        </div>
        <div>
          <dt className="text-eyebrow font-semibold text-slate-600 uppercase">Outcome</dt>
          <dd className="mt-1 text-slate-900">{project.outcome}</dd>
        </div>
        <div>
          <dt className="text-eyebrow font-semibold text-slate-600 uppercase">Technologies Used</dt>
          <dd className="mt-2">
            <TechChips tech={project.tech} />
          </dd>
        </div>
      </dl>

      <section aria-label="Screenshots" className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {screenshots.map((image, i) => (
          <a
            key={image.src}
            href={image.src}
            className="reveal group block overflow-hidden rounded-control border border-slate-200 shadow-sm hover:shadow-md"
          >
            <Picture
              image={image}
              alt={`${project.title} screenshot ${i + 1}`}
              sizes="(min-width: 1024px) 320px, (min-width: 640px) 50vw, 100vw"
              loading={i < 3 ? "eager" : "lazy"}
              className="project-thumb reveal-fade h-auto w-full transition group-hover:scale-[1.02]"
            />
            <span className="sr-only"> (opens the full-size image)</span>
          </a>
        ))}
      </section>

      <section className={section}>
        <h2 className="text-2xl font-semibold">The Problem</h2>
        <p className="mt-3 text-slate-700">{project.problem}</p>
      </section>
      <section className={section}>
        <h2 className="text-2xl font-semibold">The Solution</h2>
        <p className="mt-3 text-slate-700">{project.solution}</p>
      </section>
      <section className={section} aria-labelledby="features">
        <h2 id="features" className="text-2xl font-semibold">
          Key Features
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-700">
          {project.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </section>
      <section className={section}>
        <h2 className="text-2xl font-semibold">Impact</h2>
        <p className="mt-3 text-slate-700">{project.impact}</p>
      </section>

      <div className="reveal mt-12 flex flex-wrap gap-3">
        <a
          href={project.github}
          target="_blank"
          rel="noopener noreferrer"
          className="rounded-control border border-slate-300 px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50"
        >
          GitHub
        </a>
        {project.live ? (
          <a
            href={project.live}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-control bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Live Site
          </a>
        ) : null}
      </div>
    </article>
  );
}
