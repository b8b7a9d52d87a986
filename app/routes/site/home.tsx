import { Link } from "react-router";
import type { Route } from "./+types/home";
import { ProjectCard } from "#app/components/project-card";
import { featuredProjects, findProject } from "#app/content/projects";
import { owner } from "#app/content/site";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Home", description: `${owner.name} — ${owner.role}. ${owner.intro}` });

/** Home (spec §2): intro line, View Projects / Contact buttons, three featured projects. */
export default function Home() {
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="reveal mx-auto max-w-6xl px-4 py-20 sm:py-28">
          <p className="text-sm font-semibold uppercase tracking-wide text-brand-700">{owner.role}</p>
          <h1 className="mt-3 max-w-3xl text-4xl font-bold tracking-tight sm:text-5xl">Hi, I'm {owner.name}.</h1>
          <p className="mt-4 max-w-2xl text-lg text-slate-700">{owner.intro}</p>
          <div className="mt-8 flex flex-wrap gap-3">
            <Link
              to="/projects"
              prefetch="intent"
              className="rounded-md bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
            >
              View Projects
            </Link>
            <Link
              to="/contact"
              prefetch="intent"
              className="rounded-md border border-brand-700 px-5 py-3 font-semibold text-brand-700 hover:bg-brand-50"
            >
              Contact
            </Link>
          </div>
        </div>
      </section>
      <section aria-labelledby="featured" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="featured" className="reveal text-2xl font-bold tracking-tight">
          Featured Projects
        </h2>
        <div className="mt-6 grid gap-6 md:grid-cols-3">
          {featuredProjects.map(({ label, slug }) => (
            <ProjectCard key={slug} title={label} description={findProject(slug)!.description} to={`/${slug}`} />
          ))}
        </div>
        <p className="mt-8">
          <Link to="/projects" prefetch="intent" className="font-semibold text-brand-700 underline underline-offset-4">
            See all projects
          </Link>
        </p>
      </section>
    </>
  );
}
