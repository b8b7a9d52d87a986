/**
 * The framework floor's one page: 25 rows of in-memory proposals, 5 links per row, as a portal list
 * page shows them (bench/floor/server.mjs). No database, no session: what is left is the framework's
 * own cost of a page (React Router's request handling, React DOM's render, express, compression).
 */
import { Link, useLoaderData } from "react-router";

const STATUSES = ["pending", "reviewing", "accepted", "in progress", "completed"] as const;

/** 1 000 proposals made once at start-up; the page shows the newest 25. */
const PROPOSALS = Array.from({ length: 1000 }, (_, i) => ({
  id: 100_000 - i,
  client: `Client ${(i * 7919) % 10_000}`,
  email: `client${(i * 7919) % 10_000}@example.com`,
  project: `Project ${i} — a new site and a booking flow`,
  status: STATUSES[i % STATUSES.length]!,
  amountCents: 150_000 + ((i * 3571) % 900_000),
  createdAt: new Date(Date.UTC(2026, 10, 1) - i * 3_600_000).toISOString(),
}));

const money = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const date = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export function loader() {
  return { rows: PROPOSALS.slice(0, 25), total: PROPOSALS.length };
}

export function meta() {
  return [{ title: "Proposals · Agency portal" }];
}

export default function Proposals() {
  const { rows, total } = useLoaderData<typeof loader>();
  return (
    <section aria-labelledby="title">
      <h1 id="title" className="mb-4 text-2xl font-semibold">
        Proposals
      </h1>
      <p className="mb-4 text-sm text-slate-600">{total} proposals, newest first.</p>
      <table className="w-full border-collapse text-left text-sm">
        <thead>
          <tr className="border-b border-slate-200">
            <th className="px-3 py-2 font-medium">Project</th>
            <th className="px-3 py-2 font-medium">Client</th>
            <th className="px-3 py-2 font-medium">Status</th>
            <th className="px-3 py-2 text-right font-medium">Amount</th>
            <th className="px-3 py-2 font-medium">Created</th>
            <th className="px-3 py-2 font-medium">Actions</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} className="border-b border-slate-100 align-top">
              <td className="px-3 py-2 break-words">
                <Link to={`/proposals/${row.id}`} className="font-medium text-indigo-700 underline-offset-2 hover:underline">
                  {row.project}
                </Link>
              </td>
              <td className="px-3 py-2 break-all">
                <Link to={`/users?q=${encodeURIComponent(row.email)}`} className="text-indigo-700 hover:underline">
                  {row.client}
                </Link>{" "}
                <span className="text-slate-500">({row.email})</span>
              </td>
              <td className="px-3 py-2">
                <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium">{row.status}</span>
              </td>
              <td className="px-3 py-2 text-right tabular-nums">{money.format(row.amountCents / 100)}</td>
              <td className="px-3 py-2">
                <time dateTime={row.createdAt}>{date.format(new Date(row.createdAt))}</time>
              </td>
              <td className="px-3 py-2">
                <details className="relative">
                  <summary className="cursor-pointer rounded-md px-2 py-1">Actions</summary>
                  <ul className="absolute right-0 z-10 mt-1 w-48 rounded-md border bg-white p-1 shadow">
                    <li>
                      <Link to={`/proposals/${row.id}/offer`} className="block px-3 py-1.5 hover:bg-slate-100">
                        Offer
                      </Link>
                    </li>
                    <li>
                      <Link to={`/conversations/${row.id}`} className="block px-3 py-1.5 hover:bg-slate-100">
                        Messages
                      </Link>
                    </li>
                    <li>
                      <Link to={`/invoices?proposal=${row.id}`} className="block px-3 py-1.5 hover:bg-slate-100">
                        Invoices
                      </Link>
                    </li>
                  </ul>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <nav aria-label="Pages" className="mt-4 flex justify-between text-sm">
        <span>Page 1 of {Math.ceil(total / 25)}</span>
        <Link to="/?page=2" className="text-indigo-700 hover:underline">
          Older →
        </Link>
      </nav>
    </section>
  );
}
