/**
 * The admin console's frame (issue #41, docs/product.md#header-bars): from 1024 px a sidebar on the
 * left — the agency's brand, the search field, the links grouped by job, Logout — and the page on
 * its right; below 1024 px (phones, tablets) the same `<header>` is one 56 px bar with the brand and
 * a **Menu** disclosure (a `<details>`: keyboard and no-JavaScript friendly) opening the same groups:
 * one navigation, laid out by CSS as the sidebar or as the Menu's panel.
 * The brand is a column (logo above name above the area's title), so a long name or a logo never
 * runs into the links; every link is one line (long labels are truncated, never wrapped).
 */
import type { ReactNode } from "react";
import { Form, Link, useNavigation } from "react-router";
import { accentStyle, useBrand } from "./brand";
import { MenuDisclosure, PortalFooter, ProgressBar, SkipLink, UnreadBadge, useIsActive, type NavGroup } from "./portal-header";

function SidebarBrand({ title }: { title: string }) {
  const brand = useBrand();
  return (
    <Link
      to={brand.home}
      className="portal-brand flex min-w-0 items-center gap-3 lg:flex-col lg:items-start lg:gap-1"
      data-testid="portal-brand"
    >
      {brand.logoPath ? (
        <img
          src={brand.logoPath}
          alt={brand.name || "Home"}
          className="h-9 w-auto max-w-[9rem] object-contain lg:h-10 lg:max-w-full lg:object-left"
        />
      ) : null}
      <span
        className={`min-w-0 truncate text-lg font-bold tracking-tight lg:line-clamp-3 lg:text-base lg:leading-snug lg:break-words lg:whitespace-normal ${
          brand.logoPath ? "hidden lg:block" : ""
        }`}
        data-testid="brand-name"
        aria-hidden={brand.logoPath ? true : undefined}
      >
        {brand.name || title}
      </span>
      {brand.name || brand.logoPath ? <span className="hidden text-xs font-medium text-slate-600 lg:inline">{title}</span> : null}
    </Link>
  );
}

/** The groups of links, once for every width (`nav-link`: the Menu's rows below 1024 px, the sidebar's from it). */
function Groups({ groups }: { groups: NavGroup[] }) {
  const isActive = useIsActive();
  return (
    <>
      {groups.map((group) => {
        const id = `nav-group-${group.label.toLowerCase()}`;
        return (
          <div key={group.label} role="group" aria-labelledby={id} className="mt-3 first:mt-0">
            <p id={id} className="nav-group-label">
              {group.label}
            </p>
            <ul className="flex flex-col">
              {group.items.map((item) => {
                const active = isActive(item);
                return (
                  <li key={item.to}>
                    <Link
                      to={item.to}
                      prefetch="intent"
                      data-testid="nav-item"
                      aria-current={active ? "page" : undefined}
                      // `nav-link` (app/app.css): the shape of every link, written once per link instead of ~8 utility classes.
                      className={`nav-link ${active ? "bg-brand-50 font-semibold text-brand-700" : "text-slate-800"}`}
                    >
                      <span className="min-w-0 truncate">{item.label}</span>
                      <UnreadBadge count={item.badge} className="ml-auto" />
                    </Link>
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </>
  );
}

/**
 * A page of the admin console in its sidebar frame, with the main landmark (`#main`) and the footer.
 *
 * @param groups - the links by job (`adminNavGroups`).
 * @param title - the area's title ("Admin Console"), shown under the brand.
 * @param search - what goes above the sidebar's links (the global search field), or nothing; the
 *   phone's Menu then links to /admin/search instead.
 */
export function SidebarShell({
  groups,
  title,
  search,
  children,
}: {
  groups: NavGroup[];
  title: string;
  search?: ReactNode;
  children: ReactNode;
}) {
  const brand = useBrand();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div className={`${brand.accent ? "portal-root has-accent" : "portal-root"} lg:flex`} style={accentStyle(brand)}>
      <header className="portal-header sticky top-0 z-20 border-b border-slate-200 bg-white lg:h-dvh lg:w-60 lg:shrink-0 lg:overflow-y-auto lg:border-r lg:border-b-0">
        <ProgressBar busy={busy} />
        <SkipLink />
        {/* Phones and tablets: one 56 px bar, the brand and the Menu; from 1024 px a column: brand, search, links. */}
        <div className="relative flex h-14 items-center justify-between gap-4 px-4 lg:h-auto lg:flex-col lg:items-stretch lg:justify-start lg:px-3 lg:py-4">
          <div className="min-w-0 lg:px-3">
            <SidebarBrand title={title} />
          </div>
          {search ? <div className="hidden px-1 lg:block">{search}</div> : null}
          {/* One navigation for every width (issue #42: it was rendered twice, sidebar and phone menu). */}
          <MenuDisclosure
            className="lg:hidden"
            panelClassName="hidden font-medium peer-open:block max-lg:menu-sheet lg:block"
            label="Portal"
          >
            {search ? (
              <Link to="/admin/search" className="mb-2 block rounded-md px-3 py-2.5 text-base text-slate-800 hover:bg-slate-100 lg:hidden">
                Search
              </Link>
            ) : null}
            <Groups groups={groups} />
            <Form method="post" action="/logout" className="mt-2 border-t border-slate-200 pt-2 lg:mt-4 lg:border-t-0 lg:pt-0">
              <button
                type="submit"
                className="w-full rounded-md border border-slate-300 px-3 py-1.5 text-left text-sm font-medium text-slate-800 hover:bg-slate-50"
              >
                Logout
              </button>
            </Form>
          </MenuDisclosure>
        </div>
      </header>
      <div className="flex min-w-0 flex-1 flex-col">
        <main id="main" className="mx-auto w-full max-w-6xl px-4 py-8 lg:px-8">
          {children}
        </main>
        <PortalFooter signedIn />
      </div>
    </div>
  );
}
