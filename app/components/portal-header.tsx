import { useRef, type ReactNode } from "react";
import { Form, Link, NavLink, useLocation, useNavigation } from "react-router";
import { accentStyle, BrandLink, useBrand } from "./brand";
import { ThemeToggle } from "./theme-toggle";
import { cappedCount } from "#app/lib/vocabulary";

/** One link of a header bar. */
export type NavItem = { to: string; label: string; end?: boolean; /** An unread count shown as a badge ("3 unread"). */ badge?: number };

/** Links of one job in the admin sidebar ("Work", "Money" …; issue #41). */
export type NavGroup = { label: string; items: NavItem[] };

const BREAKPOINTS = {
  md: { inline: "hidden md:block", menu: "md:hidden" },
  lg: { inline: "hidden lg:block", menu: "lg:hidden" },
  xl: { inline: "hidden xl:block", menu: "xl:hidden" },
} as const;

/** A bar with more links than this folds them into the menu below 1280 px instead of 1024 px. */
const LINKS_IN_A_1024_ROW = 8;

/**
 * A header bar (docs/product.md#header-bars, #phone-layouts): the title and the links. From
 * `collapseBelow` up the links sit in one row; below it (phones) the bar is one 56 px row with a
 * **Menu** button — a `<details>` disclosure, so it opens with the keyboard and without
 * JavaScript — whose panel floats over the page (opening it moves nothing). Only one of the two
 * navigations is displayed at any width. The links are data (one list per role, `navItemsFor`),
 * so adding one is one line there.
 *
 * @param items - the links, in order.
 * @param label - the navigation landmark's name ("Portal", "Main").
 * @param cta - an optional last link drawn as a button (the public site's Client Portal).
 * @param logout - adds the Logout button (a POST form, never prefetched).
 * @param title - the title link's content (to `/`).
 * @param home - replaces the title link (the portal's agency brand, linking to the user's home).
 * @param className - extra classes of the `<header>` (`portal-header`: the accent colour's border).
 */
export function HeaderBar({
  items,
  label,
  title,
  cta,
  logout = false,
  collapseBelow = "lg",
  progress = false,
  busy = false,
  home,
  className = "",
}: {
  items: NavItem[];
  label: string;
  title: ReactNode;
  cta?: NavItem;
  logout?: boolean;
  collapseBelow?: keyof typeof BREAKPOINTS;
  /** Shows the navigation progress bar and its "Loading…" announcement (`busy`). */
  progress?: boolean;
  busy?: boolean;
  home?: ReactNode;
  className?: string;
}) {
  const bp = BREAKPOINTS[collapseBelow];
  const isActive = useIsActive();
  const links = (layout: "row" | "menu") =>
    items.map((item) => {
      const active = isActive(item);
      return (
        <li key={item.to}>
          <Link
            to={item.to}
            prefetch="intent"
            aria-current={active ? "page" : undefined}
            className={
              layout === "row"
                ? `rounded px-1 py-2 hover:text-brand-700 ${active ? "text-brand-700 underline underline-offset-8" : "text-slate-700"}`
                : `block rounded px-3 py-2.5 hover:bg-slate-50 ${active ? "font-semibold text-brand-700" : "text-slate-800"}`
            }
          >
            {item.label}
            <UnreadBadge count={item.badge} className="ml-1 no-underline" />
          </Link>
        </li>
      );
    });
  const ctaLink = (layout: "row" | "menu") =>
    cta ? (
      <li>
        <NavLink
          to={cta.to}
          className={
            layout === "row"
              ? "rounded-md bg-brand-700 px-3 py-2 text-white hover:bg-brand-800"
              : "mt-1 block rounded-md bg-brand-700 px-3 py-2.5 text-center text-white hover:bg-brand-800"
          }
        >
          {cta.label}
        </NavLink>
      </li>
    ) : null;
  const logoutButton = (layout: "row" | "menu") =>
    logout ? (
      <li className={layout === "menu" ? "mt-1 border-t border-slate-200 pt-2" : undefined}>
        <Form method="post" action="/logout">
          <button
            type="submit"
            className={
              layout === "row"
                ? "rounded-md border border-slate-300 px-3 py-1.5 text-slate-800 hover:bg-slate-50"
                : "w-full rounded-md border border-slate-300 px-3 py-2 text-left text-slate-800 hover:bg-slate-50"
            }
          >
            Logout
          </button>
        </Form>
      </li>
    ) : null;
  return (
    <header className={`sticky top-0 z-20 border-b border-slate-200 bg-white ${className}`}>
      {progress ? <ProgressBar busy={busy} /> : null}
      <SkipLink />
      <div className="relative mx-auto flex h-14 max-w-6xl items-center justify-between gap-4 px-4">
        {home ?? (
          <NavLink to="/" prefetch="intent" className="min-w-0 truncate text-lg font-bold tracking-tight text-slate-900">
            {title}
          </NavLink>
        )}
        <nav aria-label={label} className={bp.inline}>
          <ul className="flex items-center gap-x-4 text-sm font-medium">
            {links("row")}
            {ctaLink("row")}
            {logoutButton("row")}
          </ul>
        </nav>
        <MenuDisclosure className={bp.menu} label={label}>
          <ul className="flex flex-col text-base font-medium">
            {links("menu")}
            {ctaLink("menu")}
            {logoutButton("menu")}
          </ul>
        </MenuDisclosure>
      </div>
    </header>
  );
}

/**
 * Whether a navigation link is the current page, as React Router's `NavLink` decides it (its path,
 * compared without case, is the location's path or, unless `end`, one of its parents), from one
 * reading of the location for all the links of a bar: a `NavLink` per link resolved its path and
 * read the router's state again for each of the 20–40 links of a portal page (issue #42).
 *
 * @returns a test taking a link (`to`: an absolute path without query; `end`: only the exact path).
 */
export function useIsActive(): (item: Pick<NavItem, "to" | "end">) => boolean {
  const pathname = useLocation().pathname.toLowerCase();
  return ({ to, end }) => {
    const target = to.toLowerCase();
    const endSlash = target !== "/" && target.endsWith("/") ? target.length - 1 : target.length;
    return pathname === target || (!end && pathname.startsWith(target) && pathname.charAt(endSlash) === "/");
  };
}

/** A link's unread count ("3 unread" to a screen reader; "99+" past 99), nothing at zero. */
export function UnreadBadge({ count, className }: { count: number | undefined; className: string }) {
  return count ? (
    <span data-testid="nav-unread" className={`unread-badge ${className}`}>
      {cappedCount(count)}
      <span className="sr-only"> unread</span>
    </span>
  ) : null;
}

/**
 * The navigation progress bar (a thin bar along the header's top) and its "Loading…"
 * announcement, replacing the spec's "Loading...".
 */
export function ProgressBar({ busy }: { busy: boolean }) {
  return (
    <>
      <div
        aria-hidden="true"
        className={`absolute top-0 left-0 h-1 bg-brand-600 transition-all duration-500 ${busy ? "w-2/3 opacity-100" : "w-0 opacity-0"}`}
      />
      <p role="status" className="sr-only">
        {busy ? "Loading…" : ""}
      </p>
    </>
  );
}

/** "Skip to content", the first stop of the keyboard, to the page's `#main`. */
export function SkipLink() {
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-30 focus:rounded focus:bg-white focus:px-3 focus:py-2"
    >
      Skip to content
    </a>
  );
}

/**
 * The phones' **Menu** (docs/product.md#phone-layouts): a `<details>` disclosure (keyboard and
 * no-JavaScript friendly; Escape closes it and returns focus to its button) whose panel, a
 * navigation landmark, floats over the page. Closed again on every navigation.
 *
 * @param className - when it shows (e.g. `lg:hidden`).
 * @param label - the navigation landmark's name ("Portal").
 * @param children - the panel's links.
 */
export function MenuDisclosure({ className, label, children }: { className: string; label: string; children: ReactNode }) {
  const location = useLocation();
  const menuRef = useRef<HTMLDetailsElement>(null);
  return (
    <details
      key={location.pathname}
      ref={menuRef}
      className={`menu ${className}`}
      onKeyDown={(event) => {
        if (event.key === "Escape" && menuRef.current?.open) {
          menuRef.current.open = false;
          menuRef.current.querySelector("summary")?.focus();
        }
      }}
    >
      <summary className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
        <span aria-hidden="true" className="flex w-4 flex-col gap-[3px]">
          <span className="h-0.5 rounded bg-current" />
          <span className="h-0.5 rounded bg-current" />
          <span className="h-0.5 rounded bg-current" />
        </span>
        Menu
      </summary>
      <nav
        aria-label={label}
        className="absolute top-full right-2 left-2 z-30 mt-1 max-h-[calc(100dvh-5rem)] overflow-y-auto rounded-lg border border-slate-200 bg-white p-2 shadow-lg sm:left-auto sm:w-72"
      >
        {children}
      </nav>
    </details>
  );
}

/**
 * The portal header: the agency's logo or name linking to the user's home (`BrandLink`), the
 * role's links (`navItemsFor`), Logout when signed in, and a pending indicator during navigation
 * (replacing the spec's "Loading...").
 */
export function PortalHeader({ items, title, signedIn }: { items: NavItem[]; title: string; signedIn: boolean }) {
  const navigation = useNavigation();
  return (
    <HeaderBar
      items={items}
      label="Portal"
      title={title}
      home={<BrandLink title={title} />}
      className="portal-header"
      collapseBelow={items.length > LINKS_IN_A_1024_ROW ? "xl" : "lg"}
      logout={signedIn}
      progress
      busy={navigation.state !== "idle"}
    />
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
            <NavLink to="/account/profile" className="underline hover:text-brand-700">
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
