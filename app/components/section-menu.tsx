/**
 * Settings split into one page per section (issue #41, as Stripe's and Epic Stack's settings): the
 * section menu — a navigation landmark whose current link has `aria-current="page"`; from 1024 px
 * a column left of the page, on phones a wrapping row of short links (no sideways scroll) — and a
 * redirect for old one-page anchors (`/account#two-factor` → `/account/security#two-factor`).
 */
import { useEffect, type ReactNode } from "react";
import { Link, useLocation, useNavigate } from "react-router";
import { PageHeading } from "./page-heading";

/** One section of a settings area: its page and its menu label. */
export interface SettingsSection {
  id: string;
  label: string;
  to: string;
  /** The anchors of the old single page that now live on this section's page (without `#`). */
  anchors?: readonly string[];
}

/**
 * The section menu.
 *
 * @param label - the landmark's name ("Settings sections").
 * @param current - the section shown, marked current even on an alias URL (`/admin/settings`).
 */
export function SectionMenu({ label, sections, current }: { label: string; sections: readonly SettingsSection[]; current: string }) {
  return (
    <nav aria-label={label} className="mb-6 lg:mb-0 lg:w-52 lg:shrink-0">
      <ul className="flex flex-wrap gap-2 lg:flex-col lg:gap-1">
        {sections.map((s) => (
          <li key={s.id}>
            <Link
              to={s.to}
              prefetch="intent"
              aria-current={s.id === current ? "page" : undefined}
              className={`block rounded-md border px-3 py-1.5 text-sm whitespace-nowrap lg:border-transparent ${
                s.id === current
                  ? "border-brand-600 bg-brand-50 font-semibold text-brand-700"
                  : "border-slate-300 text-slate-800 hover:bg-slate-100"
              }`}
            >
              {s.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/**
 * A settings area's page: the area's heading, the section menu, and the section (its own `<h2>`).
 * An old anchor of the single page (`#payment-instructions`) that belongs to another section
 * takes the browser there, keeping the query and the anchor.
 */
export function SectionLayout({
  title,
  lead,
  menuLabel,
  sections,
  current,
  sectionHeading = true,
  children,
}: {
  /** Adds the section's label as the `<h2>` (off where the section's parts have their own). */
  sectionHeading?: boolean;
  title: string;
  lead?: string;
  menuLabel: string;
  sections: readonly SettingsSection[];
  current: string;
  children: ReactNode;
}) {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const anchor = location.hash.slice(1);
    if (!anchor) return;
    const owner = sections.find((s) => s.anchors?.includes(anchor));
    if (owner && owner.id !== current) void navigate(`${owner.to}${location.search}${location.hash}`, { replace: true });
  }, [location.hash, location.search, sections, current, navigate]);
  const section = sections.find((s) => s.id === current);
  return (
    <>
      <PageHeading title={title} lead={lead} />
      <div className="lg:flex lg:items-start lg:gap-8">
        <SectionMenu label={menuLabel} sections={sections} current={current} />
        <div className="min-w-0 flex-1">
          {sectionHeading ? <h2 className="mb-4 text-xl font-semibold">{section?.label}</h2> : null}
          {children}
        </div>
      </div>
    </>
  );
}
