/**
 * The admin lists' table, pager and search bar: one accessible table (caption,
 * column headers, horizontal scroll on narrow screens, empty state), keyset pager links that
 * keep the page's other query parameters, and a GET search form that works without JS.
 */
import { nounFor } from "#app/lib/vocabulary";
import { Fragment, type ReactNode } from "react";
import { Form, Link, useLocation, useNavigation } from "react-router";
import { cursorParamNames } from "#app/lib/pagination";
import { buttonClass } from "./button";
import { TRANSIENT_PARAMS, useHrefWith } from "./action-href";
import { ListNavigationProvider } from "./list-navigation";

/** A column: its header and how to render a row's cell. */
export interface Column<T> {
  header: ReactNode;
  /** The header as text, shown before the cell when the table is stacked into cards (phones); default the header when it is text. */
  label?: string;
  cell: (row: T) => ReactNode;
  /** Extra classes for the header and cells (e.g. `text-right`). */
  className?: string;
}

/**
 * A table of rows with column headers. Under 640 px it becomes stacked cards (each cell preceded
 * by its column's label, `.stack-table` in app/app.css), so no page scrolls sideways on a phone
 * (docs/product.md#phone-layouts); wider, it scrolls inside its own box if it must.
 *
 * @param caption - names the table for assistive technology (visually hidden).
 * @param empty - shown instead of the table when there are no rows.
 * @param after - optional extra full-width row under a row (e.g. a confirmation step).
 */
export function DataTable<T>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
  after,
}: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string | number;
  empty: ReactNode;
  after?: (row: T) => ReactNode;
}) {
  if (rows.length === 0) {
    return <div className="rounded-lg border border-dashed border-slate-300 px-4 py-10 text-center text-slate-600">{empty}</div>;
  }
  const labels = columns.map((column) => column.label ?? (typeof column.header === "string" ? column.header : ""));
  return (
    // One navigate/submit for every row's ListLink, ListForm and ConfirmLink (list-navigation.tsx).
    <ListNavigationProvider>
      <div className="relative overflow-x-auto rounded-lg border border-slate-200">
        <table className="stack-table min-w-full divide-y divide-slate-200 text-left text-sm">
          <caption className="sr-only">{caption}</caption>
          <thead className="bg-slate-50">
            <tr>
              {columns.map((column, i) => (
                // The cells' look is `.stack-table`'s (app/app.css): only a column's own classes are written per cell.
                <th key={i} scope="col" className={column.className}>
                  {column.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100 bg-white">
            {rows.map((row) => {
              const extra = after?.(row);
              return (
                <Fragment key={rowKey(row)}>
                  <tr>
                    {columns.map((column, i) => (
                      <td key={i} data-label={labels[i]} className={column.className}>
                        {column.cell(row)}
                      </td>
                    ))}
                  </tr>
                  {extra ? (
                    <tr>
                      <td colSpan={columns.length} data-label="" className="bg-red-50/40 px-3 py-3">
                        {extra}
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
    </ListNavigationProvider>
  );
}

export { TRANSIENT_PARAMS, useActionHref, useHrefWith } from "./action-href";
export { ListForm, ListLink } from "./list-navigation";

/**
 * Previous/next links of a keyset-paginated list and its row count.
 *
 * @param page - `{ total, next, prev }` from the use-case.
 * @param noun - what is counted, plural (e.g. "proposals"); the singular (`one`, default the
 *   plural without its final "s") is used where `Intl.PluralRules` asks for it ("1 proposal").
 * @param prefix - the list's cursor parameter prefix when a page has two lists.
 */
export function Pager({
  page,
  noun,
  one,
  prefix,
  shown,
}: {
  page: { total: number; totalIsLowerBound?: boolean; next: string | null; prev: string | null };
  noun: string;
  one?: string;
  prefix?: string;
  shown: number;
}) {
  const hrefWith = useHrefWith();
  const names = cursorParamNames(prefix);
  const linkClass = buttonClass("secondary");
  return (
    <nav aria-label={`Pages of ${noun}`} className="mt-3 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-700">
      <p>
        {page.total.toLocaleString("en-US")}
        {page.totalIsLowerBound ? "+" : ""} {page.totalIsLowerBound ? noun : nounFor(page.total, one ?? noun.replace(/s$/, ""), noun)}
        {page.total > shown ? ` · showing ${shown}` : ""}
      </p>
      <div className="flex gap-2">
        {page.prev ? (
          <Link className={linkClass} to={hrefWith({ [names.after]: null, [names.before]: page.prev })} preventScrollReset>
            ← Newer
          </Link>
        ) : (
          <span className={linkClass} aria-disabled="true">
            ← Newer
          </span>
        )}
        {page.next ? (
          <Link className={linkClass} to={hrefWith({ [names.before]: null, [names.after]: page.next })} preventScrollReset>
            Older →
          </Link>
        ) : (
          <span className={linkClass} aria-disabled="true">
            Older →
          </span>
        )}
      </div>
    </nav>
  );
}

/**
 * A GET search form (`?q=`) with optional filter controls; changing it starts from the first
 * page. Works without JavaScript.
 *
 * @param label - the search box's label.
 * @param children - extra controls (e.g. a status `<select name="status">`).
 */
export function SearchBar({
  label,
  defaultValue,
  placeholder,
  children,
}: {
  label: string;
  defaultValue?: string;
  placeholder?: string;
  children?: ReactNode;
}) {
  const location = useLocation();
  const navigation = useNavigation();
  // Only this form's own submission (a GET carrying `q`) searches: following a link of the page
  // (Details, a confirmation, paging) does not.
  const searching =
    navigation.state === "loading" &&
    navigation.formMethod?.toUpperCase() === "GET" &&
    navigation.formData?.has("q") === true &&
    navigation.location?.pathname === location.pathname;
  return (
    <Form method="get" role="search" className="mb-4 flex flex-wrap items-end gap-3">
      <div className="flex min-w-56 flex-1 flex-col gap-1">
        <label htmlFor="list-search" className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <input
          id="list-search"
          type="search"
          name="q"
          defaultValue={defaultValue}
          placeholder={placeholder}
          maxLength={100}
          className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm"
        />
      </div>
      {children}
      <button type="submit" className={buttonClass("primary", "md")} aria-busy={searching || undefined}>
        {searching ? "Searching…" : "Search"}
      </button>
    </Form>
  );
}

/** A labelled `<select>` for a list filter inside {@link SearchBar}. */
export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={`filter-${name}`} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={`filter-${name}`}
        name={name}
        defaultValue={value}
        className="rounded-md border border-slate-400 bg-white px-3 py-2 text-slate-900 shadow-sm"
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * "Export CSV": a plain download link to a list's export route carrying the
 * list's current filters and search, without its page cursors or transient parameters.
 *
 * @param to - the export route, e.g. `/admin/proposals/export.csv`.
 */
export function ExportCsvLink({ to, noun }: { to: string; noun: string }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  for (const name of [...TRANSIENT_PARAMS, "after", "before", "index"]) params.delete(name);
  const search = params.toString();
  return (
    <a href={`${to}${search ? `?${search}` : ""}`} download className={buttonClass("secondary")} aria-label={`Export CSV of these ${noun}`}>
      Export CSV
    </a>
  );
}
