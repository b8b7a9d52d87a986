import { Link } from "react-router";
import type { Route } from "./+types/home";
import { Picture } from "#app/components/picture";
import { ProjectCard } from "#app/components/project-card";
import { owner } from "#app/content/site";
import { servicesContext } from "#app/context";
import { listFeaturedCaseStudies } from "#app/features/portfolio/case-studies.server";
import { screenshotImage } from "#app/features/portfolio/case-study-view.server";
import { TestimonialQuote } from "#app/features/portfolio/components/testimonial-quote";
import { listShownTestimonials } from "#app/features/portfolio/testimonials.server";
import { portraitImage } from "#app/features/site/media.server";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, { title: "Home", description: `${owner.name} — ${owner.role}. ${owner.intro}` });

/** The portrait, the featured case studies (published, in their featured order) with their first screenshot, and approved testimonials. */
export async function loader({ context }: Route.LoaderArgs) {
  const db = context.get(servicesContext).db;
  const [featured, testimonials] = await Promise.all([listFeaturedCaseStudies(db), listShownTestimonials(db, { limit: 3 })]);
  return {
    portrait: portraitImage(),
    featured: featured.map(({ content }) => ({
      slug: content.slug,
      title: content.title,
      description: content.summary,
      tech: content.tech,
      thumbnail: content.images[0] ? screenshotImage(content.images[0]) : portraitImage(),
    })),
    testimonials,
  };
}

/** Home (docs/product.md#public-site): portrait and intro, what I build, three featured projects. */
export default function Home({ loaderData: { portrait, featured, testimonials } }: Route.ComponentProps) {
  return (
    <>
      <section className="bg-gradient-to-b from-brand-50 to-white">
        <div className="mx-auto flex max-w-6xl flex-col-reverse gap-10 px-4 py-section md:flex-row md:items-center md:justify-between">
          <div className="reveal max-w-2xl">
            <p className="text-eyebrow font-semibold text-brand-700 uppercase">{owner.role}</p>
            <h1 className="mt-3 text-display font-bold">Hi, I'm {owner.name}.</h1>
            <p className="mt-4 text-lead text-slate-700">{owner.intro}</p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link
                to="/projects"
                prefetch="intent"
                className="rounded-control bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
              >
                View Projects
              </Link>
              <Link
                to="/contact"
                prefetch="intent"
                className="rounded-control border border-brand-700 px-5 py-3 font-semibold text-brand-700 hover:bg-brand-50"
              >
                Contact
              </Link>
            </div>
          </div>
          <Picture
            image={portrait}
            alt={owner.portraitAlt}
            sizes="176px"
            loading="eager"
            fetchPriority="high"
            className="size-44 shrink-0 rounded-full border-4 border-white object-cover shadow-lg ring-1 ring-slate-200"
          />
        </div>
      </section>

      <section aria-labelledby="what-i-build" className="mx-auto max-w-6xl px-4 pt-12">
        <h2 id="what-i-build" className="reveal text-2xl font-bold tracking-tight">
          What I build
        </h2>
        <ul className="mt-6 grid gap-4 sm:grid-cols-3">
          {owner.builds.map((b) => (
            <li key={b.title} className="reveal rounded-card border border-slate-200 p-5">
              <p className="font-semibold text-slate-900">{b.title}</p>
              <p className="mt-1 text-slate-700">{b.text}</p>
            </li>
          ))}
        </ul>
      </section>

      <section aria-labelledby="featured" className="mx-auto max-w-6xl px-4 py-12">
        <h2 id="featured" className="reveal text-2xl font-bold tracking-tight">
          Featured Projects
        </h2>
        <div className="mt-6 grid gap-6 md:grid-cols-3">
          {featured.map((p) => (
            <ProjectCard key={p.slug} title={p.title} description={p.description} tech={p.tech} thumbnail={p.thumbnail} to={`/${p.slug}`} />
          ))}
        </div>
        <p className="mt-8">
          <Link to="/projects" prefetch="intent" className="font-semibold text-brand-700 underline underline-offset-4">
            See all projects
          </Link>
        </p>
      </section>

      {testimonials.length ? (
        <section aria-labelledby="testimonials" className="mx-auto max-w-6xl px-4 pb-12">
          <h2 id="testimonials" className="reveal text-2xl font-bold tracking-tight">
            What clients say
          </h2>
          <div className="mt-6 grid gap-4 md:grid-cols-3">
            {testimonials.map((t) => (
              <TestimonialQuote key={t.id} testimonial={t} />
            ))}
          </div>
        </section>
      ) : null}
    </>
  );
}
