import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { Form, Link, NavLink, useLocation, useNavigation } from "react-router";
import { accentStyle, BrandLink, useBrand } from "./brand";
import { ThemeToggle } from "./theme-toggle";
import { cappedCount } from "#app/lib/vocabulary";

/** One link of a header bar. */
export type NavItem = { to: string; label: string; end?: boolean; /** An unread count shown as a badge ("3 unread"). */ badge?: number };

/** Links of one job in the admin sidebar ("Work", "Money" …; issue #41). */
export type NavGroup = { label: string; items: NavItem[] };

/**
 * Per breakpoint, the classes of the bar's one navigation (literal, for Tailwind's scan): below the
 * breakpoint hidden until the Menu before it is open (`peer-open`), then the Menu's floating panel
 * (`menu-sheet`); from the breakpoint a row (`data-collapse` selects the row rules, app/app.css).
 */
const BREAKPOINTS = {
  md: { nav: "hidden peer-open:block max-md:menu-sheet md:block", menu: "md:hidden" },
  lg: { nav: "hidden peer-open:block max-lg:menu-sheet lg:block", menu: "lg:hidden" },
  xl: { nav: "hidden peer-open:block max-xl:menu-sheet xl:block", menu: "xl:hidden" },
} as const;

/** A bar with more links than this folds them into the menu below 1280 px instead of 1024 px. */
const LINKS_IN_A_1024_ROW = 8;

/**
 * A header bar (docs/product.md#header-bars, #phone-layouts): the title and the links. From
 * `collapseBelow` up the links sit in one row; below it (phones) the bar is one 56 px row with a
 * **Menu** button — a `<details>` disclosure, so it opens with the keyboard and without
 * JavaScript — whose panel floats over the page (opening it moves nothing). One navigation, laid
 * out by CSS as the row or as the Menu's panel (`MenuDisclosure`). The links are data (one list per role, `navItemsFor`),
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
  // One list of links for every width (issue #42: it was rendered twice, a row and the Menu's panel);
  // `bar-*` (app/app.css) lay it out as the panel below the breakpoint and as a row from it.
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
        <MenuDisclosure className={bp.menu} panelClassName={bp.nav} label={label} collapse={collapseBelow}>
          <ul className="bar-list">
            {items.map((item) => (
              <li key={item.to}>
                <Link to={item.to} prefetch="intent" aria-current={isActive(item) ? "page" : undefined} className="bar-link">
                  {item.label}
                  <UnreadBadge count={item.badge} className="ml-1 no-underline" />
                </Link>
              </li>
            ))}
            {cta ? (
              <li>
                <NavLink to={cta.to} className="bar-cta">
                  {cta.label}
                </NavLink>
              </li>
            ) : null}
            {logout ? (
              <li className="bar-logout">
                <Form method="post" action="/logout">
                  <button type="submit">Logout</button>
                </Form>
              </li>
            ) : null}
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
 * The phones' **Menu** (docs/product.md#phone-layouts) and the navigation it opens, rendered once
 * for every width (issue #42): a `<details>` disclosure holding only the Menu button (keyboard and
 * no-JavaScript friendly; Escape, in the button or the links, closes it and returns focus to the
 * button), followed by the navigation landmark, which CSS shows below the breakpoint only while
 * the disclosure is open (`peer-open`, as a panel floating over the page) and from the breakpoint
 * always (as the wide layout: a row, a sidebar). Closed again on every navigation.
 *
 * @param className - when the Menu button shows (e.g. `lg:hidden`).
 * @param panelClassName - the navigation's classes: `hidden peer-open:block` below the breakpoint,
 *   visible from it (`BREAKPOINTS`).
 * @param label - the navigation landmark's name ("Portal").
 * @param collapse - the breakpoint, as `data-collapse` for the row rules of app/app.css (header bars).
 * @param children - the links.
 */
export function MenuDisclosure({
  className,
  panelClassName,
  label,
  collapse,
  children,
}: {
  className: string;
  panelClassName: string;
  label: string;
  collapse?: keyof typeof BREAKPOINTS;
  children: ReactNode;
}) {
  const location = useLocation();
  const menuRef = useRef<HTMLDetailsElement>(null);
  const closeOnEscape = (event: KeyboardEvent) => {
    if (event.key === "Escape" && menuRef.current?.open) {
      menuRef.current.open = false;
      menuRef.current.querySelector("summary")?.focus();
    }
  };
  return (
    <>
      <details key={location.pathname} ref={menuRef} className={`menu peer ${className}`} onKeyDown={closeOnEscape}>
        <summary className="inline-flex items-center gap-2 rounded-md border border-slate-300 px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50">
          <span aria-hidden="true" className="flex w-4 flex-col gap-[3px]">
            <span className="h-0.5 rounded bg-current" />
            <span className="h-0.5 rounded bg-current" />
            <span className="h-0.5 rounded bg-current" />
          </span>
          Menu
        </summary>
      </details>
      <nav aria-label={label} data-collapse={collapse} className={panelClassName} onKeyDown={closeOnEscape}>
        {children}
      </nav>
    </>
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
