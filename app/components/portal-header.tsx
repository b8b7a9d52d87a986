import type { ReactNode } from "react";
import { Form, NavLink, useNavigation } from "react-router";
import { ThemeToggle } from "./theme-toggle";
import { accentStyle, BrandLink, useBrand } from "./brand";

/** One link of a header bar. */
export type NavItem = { to: string; label: string; end?: boolean };

/**
 * The portal header: the agency's logo or name linking to the user's home (`BrandLink`), role navigation, Logout (a POST form, so it works without
 * JavaScript and is never prefetched) and a pending indicator during navigation
 * (replacing the spec's "Loading..."). The links come from the route (`portalNav`).
 */
export function PortalHeader({ items, title, signedIn }: { items: NavItem[]; title: string; signedIn: boolean }) {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <header className="portal-header sticky top-0 z-20 border-b border-slate-200 bg-white">
      <div aria-hidden="true" className={`h-1 bg-brand-600 transition-all duration-500 ${busy ? "w-2/3 opacity-100" : "w-0 opacity-0"}`} />
      <p role="status" className="sr-only">
        {busy ? "Loading…" : ""}
      </p>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2"
      >
        Skip to content
      </a>
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-6 gap-y-2 px-4 py-3">
        <BrandLink title={title} />
        <nav aria-label="Portal">
          <ul className="flex flex-wrap items-center gap-x-4 gap-y-1 text-sm font-medium">
            {items.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  end={item.end}
                  prefetch="intent"
                  className={({ isActive }) =>
                    `rounded px-1 py-2 hover:text-brand-700 ${isActive ? "text-brand-700 underline underline-offset-8" : "text-slate-700"}`
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
            {signedIn ? (
              <li>
                <Form method="post" action="/logout">
                  <button type="submit" className="rounded-md border border-slate-300 px-3 py-1.5 text-slate-800 hover:bg-slate-50">
                    Logout
                  </button>
                </Form>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
    </header>
  );
}

/**
 * A portal page's frame: header bar, main landmark (`#main`, the skip link's target) and footer.
 *
 * @param width - the main column's width: "wide" for the role areas, "narrow" for sign-in forms.
 */
export function PortalShell({
  items,
  title,
  signedIn,
  width = "wide",
  children,
}: {
  items: NavItem[];
  title: string;
  signedIn: boolean;
  width?: "wide" | "medium" | "narrow";
  children: ReactNode;
}) {
  const column = { wide: "max-w-6xl py-8", medium: "max-w-2xl py-8", narrow: "max-w-md py-12" }[width];
  const brand = useBrand();
  return (
    // The agency's accent colour, as the --accent custom property of the portal (app.css).
    <div className={brand.accent ? "portal-root has-accent" : "portal-root"} style={accentStyle(brand)}>
      <PortalHeader items={items} title={title} signedIn={signedIn} />
      <main id="main" className={`mx-auto w-full px-4 ${column}`}>
        {children}
      </main>
      <PortalFooter signedIn={signedIn} />
    </div>
  );
}

/** Portal footer: account settings (notification preferences) and the public site. */
export function PortalFooter({ signedIn }: { signedIn: boolean }) {
  return (
    <footer className="mt-12 border-t border-slate-200">
      <ul className="mx-auto flex max-w-6xl flex-wrap items-center gap-4 px-4 py-6 text-sm text-slate-700">
        {signedIn ? (
          <li>
            <NavLink to="/account" className="underline hover:text-brand-700">
              Account settings
            </NavLink>
          </li>
        ) : null}
        <li>
          <NavLink to="/" className="underline hover:text-brand-700">
            Public site
          </NavLink>
        </li>
        <li className="sm:ml-auto">
          <ThemeToggle />
        </li>
      </ul>
    </footer>
  );
}
