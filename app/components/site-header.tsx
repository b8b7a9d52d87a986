import { NavLink } from "react-router";
import { owner } from "#app/content/site";

const links = [
  { to: "/", label: "Home" },
  { to: "/about", label: "About" },
  { to: "/projects", label: "Projects" },
  { to: "/contact", label: "Contact" },
];

/** Sticky public header (spec §2): Home, About, Projects, Contact, Client Portal (→ /login). */
export function SiteHeader() {
  return (
    <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/95 backdrop-blur">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
        <NavLink to="/" className="text-lg font-bold tracking-tight text-slate-900" prefetch="intent">
          {owner.name}
        </NavLink>
        <nav aria-label="Main">
          <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm font-medium sm:gap-x-6">
            {links.map((link) => (
              <li key={link.to}>
                <NavLink
                  to={link.to}
                  end
                  prefetch="intent"
                  className={({ isActive }) =>
                    `rounded px-1 py-2 hover:text-brand-700 ${isActive ? "text-brand-700 underline underline-offset-8" : "text-slate-700"}`
                  }
                >
                  {link.label}
                </NavLink>
              </li>
            ))}
            <li>
              <NavLink to="/login" className="rounded-control bg-brand-700 px-3 py-2 text-white hover:bg-brand-800">
                Client Portal
              </NavLink>
            </li>
          </ul>
        </nav>
      </div>
    </header>
  );
}
