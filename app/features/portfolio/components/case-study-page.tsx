import { Picture } from "#app/components/picture";
import { TechChips } from "#app/components/tech-chips";
import type { CaseStudyView } from "../case-study-view.server";
import { TestimonialQuote, type PublicTestimonial } from "./testimonial-quote";

/**
 * A case-study page (docs/product.md#public-site, issue #40): one layout for every case study —
 * summary box (role, timeline, outcome, stack), a screenshot gallery whose links open each image
 * full size (no JavaScript), then description, problem, solution, features, impact (Markdown
 * rendered and sanitised on the server), approved testimonials, the project's links and "Start a
 * project like this". The public page and the admin's preview both render it.
 */
export function CaseStudyPage({
  view,
  testimonials,
  startHref,
}: {
  view: CaseStudyView;
  testimonials: PublicTestimonial[];
  startHref: string;
}) {
  const section = "reveal mt-12";
  const markdown = "case-study-markdown mt-3 space-y-3 text-slate-700";
  const summary = [
    ["Role", view.role],
    ["Timeline", view.timeline],
    ["Outcome", view.outcome],
  ].filter(([, value]) => value);
  return (
    <article className="mx-auto max-w-5xl px-4 py-16">
      <header className="reveal">
        <h1 className="text-title font-bold">{view.title}</h1>
        <p className="mt-4 max-w-3xl text-lead text-slate-700">{view.summary}</p>
      </header>

      <dl
        aria-label="Summary"
        className="reveal mt-8 grid gap-x-8 gap-y-4 rounded-card border border-slate-200 bg-slate-50 p-6 sm:grid-cols-2"
        style={{ borderTopColor: view.color, borderTopWidth: 4 }}
      >
        {summary.map(([label, value]) => (
          <div key={label}>
            <dt className="text-eyebrow font-semibold text-slate-600 uppercase">{label}</dt>
            <dd className="mt-1 text-slate-900">{value}</dd>
          </div>
        ))}
        <div>
          <dt className="text-eyebrow font-semibold text-slate-600 uppercase">Technologies Used</dt>
          <dd className="mt-2">
            <TechChips tech={view.tech} />
          </dd>
        </div>
      </dl>

      {view.screenshots.length ? (
        <section aria-label="Screenshots" className="mt-10 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {view.screenshots.map(({ image, alt }, i) => (
            <a
              key={`${image.src}-${i}`}
              href={image.src}
              className="reveal group block overflow-hidden rounded-control border border-slate-200 shadow-sm hover:shadow-md"
            >
              <Picture
                image={image}
                alt={alt}
                sizes="(min-width: 1024px) 320px, (min-width: 640px) 50vw, 100vw"
                loading={i < 3 ? "eager" : "lazy"}
                className="project-thumb reveal-fade h-auto w-full transition group-hover:scale-[1.02]"
              />
              <span className="sr-only"> (opens the full-size image)</span>
            </a>
          ))}
        </section>
      ) : null}

      {view.html.description ? (
        <div className={`reveal mt-10 ${markdown}`} dangerouslySetInnerHTML={{ __html: view.html.description }} />
      ) : null}
      <section className={section}>
        <h2 className="text-2xl font-semibold">The Problem</h2>
        <div className={markdown} dangerouslySetInnerHTML={{ __html: view.html.problem }} />
      </section>
      <section className={section}>
        <h2 className="text-2xl font-semibold">The Solution</h2>
        <div className={markdown} dangerouslySetInnerHTML={{ __html: view.html.solution }} />
      </section>
      <section className={section} aria-labelledby="features">
        <h2 id="features" className="text-2xl font-semibold">
          Key Features
        </h2>
        <ul className="mt-3 list-disc space-y-1 pl-6 text-slate-700">
          {view.features.map((feature) => (
            <li key={feature}>{feature}</li>
          ))}
        </ul>
      </section>
      <section className={section} aria-labelledby="impact">
        <h2 id="impact" className="text-2xl font-semibold">
          Impact
        </h2>
        <div className={markdown} dangerouslySetInnerHTML={{ __html: view.html.impact }} />
      </section>

      {testimonials.length ? (
        <section className={section} aria-labelledby="testimonials">
          <h2 id="testimonials" className="text-2xl font-semibold">
            What the client says
          </h2>
          <div className="mt-4 grid gap-4">
            {testimonials.map((t) => (
              <TestimonialQuote key={t.id} testimonial={t} />
            ))}
          </div>
        </section>
      ) : null}

      <div className="reveal mt-12 flex flex-wrap gap-3">
        {view.github ? (
          <a
            href={view.github}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-control border border-slate-300 px-5 py-3 font-semibold text-slate-800 hover:bg-slate-50"
          >
            GitHub
          </a>
        ) : null}
        {view.live ? (
          <a
            href={view.live}
            target="_blank"
            rel="noopener noreferrer"
            className="rounded-control bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
          >
            Live Site
          </a>
        ) : null}
      </div>

      <div className="reveal mt-12 rounded-card border border-brand-200 bg-brand-50 p-6">
        <p className="text-lg font-semibold text-slate-900">Want something like {view.title}?</p>
        <p className="mt-1 text-slate-700">Tell me about your project: the request form starts with this case study as its reference.</p>
        <a
          href={startHref}
          className="mt-4 inline-block rounded-control bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800"
        >
          Start a project like this
        </a>
      </div>
    </article>
  );
}
