import { Link } from "react-router";

/**
 * "← Newer · Page n of m · Older →" links under a numbered list (newest first); renders nothing
 * when everything fits on one page. A missing link keeps its place so the parts stay aligned.
 *
 * @param page - the page shown, from 1.
 * @param pageCount - how many pages there are.
 * @param href - the link to a page number (keeps the list's other query parameters).
 * @param linkClassName - classes of the two links.
 * @returns the `<nav aria-label="Pages">`, or null.
 */
export function PageNav({
  page,
  pageCount,
  href,
  linkClassName,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
  linkClassName: string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pages" className="mt-6 flex items-center justify-between gap-4 text-sm">
      {page > 1 ? (
        <Link to={href(page - 1)} className={linkClassName}>
          ← Newer
        </Link>
      ) : (
        <span />
      )}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={href(page + 1)} className={linkClassName}>
          Older →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
