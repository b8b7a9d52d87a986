import { Form, Link } from "react-router";
import type { Route } from "./+types/search";
import { PageHeading } from "#app/components/page-heading";
import { globalSearch, normalizeTerm } from "#app/features/search/search.server";
import { SEARCH_KINDS } from "#app/features/search/kinds";
import { actorAndDb } from "#app/features/users/session.server";

export const meta: Route.MetaFunction = () => [{ title: "Search | Admin Console" }, { name: "robots", content: "noindex" }];

/**
 * `/admin/search?q=`: the global search's results (issue #41, docs/product.md#admin-search) — the
 * sidebar field's list loads it, and it is the page itself without JavaScript or on a phone.
 */
export async function loader({ context, request }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const q = normalizeTerm(new URL(request.url).searchParams.get("q"));
  return { q, results: await globalSearch(db, actor, q) };
}

const PLURAL = {
  invoice: "Invoices",
  organisation: "Client organisations",
  user: "Accounts",
  proposal: "Proposals",
  message: "Messages",
} as const;

/** /admin/search: a field, then the results by kind. */
export default function AdminSearch({ loaderData }: Route.ComponentProps) {
  const { q, results } = loaderData;
  return (
    <>
      <PageHeading title="Search" lead="Proposals, clients, invoices by number and messages. Press ⌘K or Ctrl+K on any admin page." />
      <Form method="get" role="search" className="flex max-w-xl gap-2">
        <label htmlFor="search-page-q" className="sr-only">
          Search
        </label>
        <input
          id="search-page-q"
          type="search"
          name="q"
          defaultValue={q}
          minLength={2}
          maxLength={100}
          className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
        />
        <button type="submit" className="rounded-md bg-brand-700 px-4 py-2 font-medium text-white hover:bg-brand-800">
          Search
        </button>
      </Form>
      <div className="mt-8" data-testid="search-page-results">
        {q.length < 2 ? (
          <p className="text-slate-700">Type at least two characters.</p>
        ) : results.length === 0 ? (
          <p className="text-slate-700">Nothing matches “{q}”.</p>
        ) : (
          SEARCH_KINDS.filter((kind) => results.some((r) => r.kind === kind)).map((kind) => (
            <section key={kind} aria-labelledby={`search-${kind}`} className="mb-8">
              <h2 id={`search-${kind}`} className="mb-2 text-xl font-semibold">
                {PLURAL[kind]}
              </h2>
              <ul className="flex flex-col gap-2">
                {results
                  .filter((r) => r.kind === kind)
                  .map((r) => (
                    <li key={`${r.kind}-${r.id}`} className="rounded-lg border border-slate-200 px-4 py-3">
                      <Link to={r.href} className="font-medium wrap-anywhere text-brand-700 underline">
                        {r.title || "(no title)"}
                      </Link>
                      <p className="text-sm wrap-anywhere text-slate-700">{r.detail}</p>
                    </li>
                  ))}
              </ul>
            </section>
          ))
        )}
      </div>
    </>
  );
}
