/**
 * The framework floor's document: a portal-like layout (header with the brand and a menu of links,
 * a side navigation, the page, a footer) around the one route (bench/floor/server.mjs).
 */
import type { ReactNode } from "react";
import { Link, Links, Meta, NavLink, Outlet, Scripts, ScrollRestoration } from "react-router";

const NAV = [
  ["/", "Dashboard"],
  ["/proposals", "Proposals"],
  ["/invoices", "Invoices"],
  ["/conversations", "Conversations"],
  ["/meetings", "Meetings"],
  ["/users", "Users"],
  ["/ambassadors", "Ambassadors"],
  ["/messages", "Messages"],
  ["/audit", "Audit"],
  ["/settings", "Settings"],
] as const;

export function Layout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased">
        <a href="#main" className="sr-only focus:not-sr-only">
          Skip to content
        </a>
        <header className="sticky top-0 z-10 flex h-14 items-center justify-between border-b border-slate-200 bg-white px-4">
          <Link to="/" className="text-lg font-semibold">
            Agency portal
          </Link>
          <details className="menu relative lg:hidden">
            <summary className="cursor-pointer rounded-md px-3 py-2">Menu</summary>
            <nav aria-label="Main" className="absolute right-0 mt-2 w-56 rounded-md border bg-white p-2 shadow">
              <ul>
                {NAV.map(([to, label]) => (
                  <li key={to}>
                    <NavLink to={to} className="block rounded px-3 py-2 hover:bg-slate-100">
                      {label}
                    </NavLink>
                  </li>
                ))}
              </ul>
              <form method="post" action="/logout">
                <button type="submit" className="block w-full rounded px-3 py-2 text-left">
                  Logout
                </button>
              </form>
            </nav>
          </details>
        </header>
        <div className="mx-auto flex max-w-7xl gap-6 px-4">
          <nav aria-label="Sections" className="hidden w-56 shrink-0 py-6 lg:block">
            <ul className="space-y-1">
              {NAV.map(([to, label]) => (
                <li key={to}>
                  <NavLink to={to} className="block rounded-md px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
                    {label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <main id="main" className="min-w-0 flex-1 py-6">
            {children}
          </main>
        </div>
        <footer className="border-t border-slate-200 px-4 py-6 text-sm text-slate-600">© Agency portal</footer>
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}
