import { data } from "react-router";
import type { Route } from "./+types/project";
import { findProject } from "#app/content/projects";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export async function loader({ request }: Route.LoaderArgs) {
  const slug = new URL(request.url).pathname.replace(/^\/+|\/+$/g, "");
  const project = findProject(slug);
  if (!project) throw data(null, { status: 404 });
  return { project };
}

export const meta: Route.MetaFunction = (args) =>
  args.loaderData
    ? pageMeta(args, {
        title: args.loaderData.project.title,
        description: args.loaderData.project.description,
        image: `/screenshots/${args.loaderData.project.images[0]!.file}`,
      })
    : [];

/** Case-study page (spec §2 /project1–/project4): one layout for all four projects. */
export default function ProjectPage({ loaderData: { project } }: Route.ComponentProps) {
  const section = "reveal mt-12";
  return (
    <article className="mx-auto max-w-5xl px-4 py-16">
      <header className="reveal">
        <h1 className="text-4xl font-bold tracking-tight">{project.title}</h1>
        <p className="mt-4 max-w-3xl text-lg text-slate-700">{project.description}</p>
      </header>

      <section aria-label="Screenshots" className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {project.images.map((image, i) => (
          <img
            key={image.file}
            src={`/screenshots/${image.file}`}
            alt={`${project.title} screenshot ${i + 1}`}
            width={image.width}
            height={image.height}
            loading={i < 3 ? "eager" : "lazy"}
            decoding="async"
            className="reveal h-auto w-full rounded-lg border border-slate-200 shadow-sm"
          />
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
      <section className={section}>
        <h2 className="text-2xl font-semibold">Key Features</h2>
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-700">
          {project.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </section>
      <section className={section}>
        <h2 className="text-2xl font-semibold">Technologies Used</h2>
        <p className="mt-3 text-slate-700">{project.tech.join(", ")}</p>
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
          className="rounded-md border border-slate-300 px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50"
        >
          GitHub
        </a>
        <a
          href={project.live}
          target="_blank"
          rel="noopener noreferrer"
          className="rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Live Site
        </a>
      </div>
    </article>
  );
}
