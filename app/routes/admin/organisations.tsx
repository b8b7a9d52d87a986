import { Link } from "react-router";
import type { Route } from "./+types/organisations";
import { PageHeading } from "#app/components/page-heading";
import { SearchBar } from "#app/components/ui/data-table";
import { PageNav } from "#app/components/ui/page-nav";
import { listOrganisationsForAdmin } from "#app/features/organisations/organisations.server";
import { actorAndDb } from "#app/features/users/session.server";
import { parsePageParam } from "#app/lib/pagination";

export const meta: Route.MetaFunction = () => [{ title: "Organisations | Admin Console" }, { name: "robots", content: "noindex" }];

const PAGE_SIZE = 25;

/** `/admin/organisations` (docs/product.md#admin-organisations): client organisations, newest first, searchable by name. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { actor, db } = actorAndDb(context);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").slice(0, 200);
  const page = parsePageParam(params.get("page"));
  const list = await listOrganisationsForAdmin(db, actor, { search: q, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE });
  return { ...list, q, page, pageCount: Math.max(1, Math.ceil(list.total / PAGE_SIZE)) };
}

export default function AdminOrganisations({ loaderData }: Route.ComponentProps) {
  const { rows, q, page, pageCount, total } = loaderData;
  const href = (n: number) => `?${new URLSearchParams({ ...(q ? { q } : {}), ...(n > 1 ? { page: String(n) } : {}) })}`;
  return (
    <>
      <PageHeading
        title="Organisations"
        lead="Client organisations and their people. Open one to see who is in it and to invite someone on the client's behalf."
      />
      <SearchBar label="Search by name" defaultValue={q} />
      <p className="mb-2 text-sm text-slate-700">{total.toLocaleString("en-US")} organisations</p>
      {rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-8 text-center text-slate-700">No organisations found.</p>
      ) : (
        <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200" aria-label="Organisations">
          {rows.map((o) => (
            <li key={o.id} className="flex flex-wrap items-center justify-between gap-2 p-3">
              <Link to={`/admin/organisations/${o.id}`} className="font-medium break-words text-brand-700 underline">
                {o.name}
              </Link>
              <span className="text-sm text-slate-700">
                {o.members} {o.members === 1 ? "person" : "people"} · since {new Date(o.createdAt).toISOString().slice(0, 10)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <PageNav page={page} pageCount={pageCount} href={href} linkClassName="btn btn-secondary btn-md" />
    </>
  );
}
