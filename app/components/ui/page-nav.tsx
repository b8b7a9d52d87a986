import { Link } from "react-router";

/**
 * "← Newer · Page n of m · Older →" links under a numbered list (newest first; a list in time
 * order names its links "Earlier" and "Later"); renders nothing when everything fits on one page.
 * A missing link keeps its place so the parts stay aligned.
 *
 * @param page - the page shown, from 1.
 * @param pageCount - how many pages there are.
 * @param href - the link to a page number (keeps the list's other query parameters).
 * @param linkClassName - classes of the two links.
 * @param order - `newest` first (default) or `soonest` first: names the links.
 * @returns the `<nav aria-label="Pages">`, or null.
 */
export function PageNav({
  page,
  pageCount,
  href,
  linkClassName,
  order = "newest",
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  linkClassName: string;
  order?: "newest" | "soonest";
}) {
  if (pageCount <= 1) return null;
  const [previous, next] = order === "newest" ? ["Newer", "Older"] : ["Earlier", "Later"];
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4 text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClassName}>
          ← {previous}
        </Link>
      ) : (
        <span />
      )}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClassName}>
          {next} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
