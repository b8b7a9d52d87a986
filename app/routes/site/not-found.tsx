import { data, Link } from "react-router";
import type { Route } from "./+types/not-found";
import { pageMeta } from "#app/lib/meta";
import type { RouteHandle } from "#app/root";

export const handle: RouteHandle = { hydrate: false };

/** Any unknown URL: answered with HTTP 404 inside the site layout. */
export async function loader() {
  return data({}, { status: 404 });
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args, { title: "Page not found", description: "The page you are looking for does not exist." }),
  { name: "robots", content: "noindex" },
];

export default function NotFound() {
  return (
    <section className="mx-auto flex max-w-3xl flex-col items-start gap-4 px-4 py-20">
      <p className="text-sm font-semibold text-brand-700">Error 404</p>
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Page not found</h1>
      <p className="text-lg text-slate-700">The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
        Back to the home page
      </Link>
    </section>
  );
}
