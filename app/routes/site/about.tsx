import type { Route } from "./+types/about";
import { owner } from "#app/content/site";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

export const meta: Route.MetaFunction = (args) => pageMeta(args, { title: "About Me", description: owner.bio[0]! });

/** About Me (spec §2): a short bio. */
export default function About() {
  return (
    <section className="reveal mx-auto max-w-3xl px-4 py-16">
      <h1 className="text-4xl font-bold tracking-tight">About Me</h1>
      {owner.bio.map((paragraph) => (
        <p key={paragraph} className="mt-6 text-lg leading-relaxed text-slate-700">
          {paragraph}
        </p>
      ))}
    </section>
  );
}
