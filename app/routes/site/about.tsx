import type { Route } from "./+types/about";
import { Picture } from "#app/components/picture";
import { owner } from "#app/content/site";
import { portraitImage, resumeHref } from "#app/features/site/media.server";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "About Me", description: owner.bio[0]! });

/** The portrait, and the résumé's URL when the owner dropped one (else null: no link). */
export function loader() {
  return { portrait: portraitImage(), resume: resumeHref() };
}

/** About Me (docs/product.md#roles, docs/product.md#public-site): bio, skills by area, timeline, résumé link. */
export default function About({ loaderData: { portrait, resume } }: Route.ComponentProps) {
  return (
    <div className="mx-auto max-w-3xl px-4 py-16">
      <section className="reveal">
        <div className="flex items-center gap-5">
          <Picture
            image={portrait}
            alt={owner.portraitAlt}
            sizes="96px"
            loading="eager"
            className="size-24 shrink-0 rounded-full object-cover ring-1 ring-slate-200"
          />
          <h1 className="text-title font-bold">About Me</h1>
        </div>
        {owner.bio.map((paragraph) => (
          <p key={paragraph} className="mt-6 text-lead text-slate-700">
            {paragraph}
          </p>
        ))}
        {resume ? (
          <p className="mt-6">
            <a href={resume} className="rounded-control bg-brand-700 px-5 py-3 font-semibold text-white hover:bg-brand-800">
              Download my résumé (PDF)
            </a>
          </p>
        ) : null}
      </section>

      <section aria-labelledby="skills" className="reveal mt-12">
        <h2 id="skills" className="text-2xl font-semibold">
          Skills
        </h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          {owner.skills.map((group) => (
            <div key={group.area} className="rounded-card border border-slate-200 p-5">
              <dt className="font-semibold text-slate-900">{group.area}</dt>
              <dd className="mt-2 text-slate-700">{group.items.join(" · ")}</dd>
            </div>
          ))}
        </dl>
      </section>

      <section aria-labelledby="timeline" className="reveal mt-12">
        <h2 id="timeline" className="text-2xl font-semibold">
          Timeline
        </h2>
        <ol className="mt-4 space-y-5 border-l-2 border-brand-200 pl-6">
          {owner.timeline.map((entry) => (
            <li key={entry.title} className="relative">
              <span aria-hidden="true" className="absolute top-1.5 -left-[31px] size-3 rounded-full bg-brand-600 ring-4 ring-white" />
              <p className="text-sm font-semibold text-brand-700">{entry.when}</p>
              <p className="font-semibold text-slate-900">{entry.title}</p>
              <p className="text-slate-700">{entry.text}</p>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}
