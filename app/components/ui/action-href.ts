/**
 * The URLs a page's forms and links keep: its action with the current filters and cursor, and the
 * current URL with some parameters changed — without the one-visit parameters of a confirmation
 * step. Its own module so that a page with a form but no table does not load the table's code.
 */
import { useFormAction, useLocation } from "react-router";

/** Query parameters that belong to one visit only (confirmation steps) and are dropped from links. */
export const TRANSIENT_PARAMS = ["confirm", "target"];

/**
 * The current URL with some parameters set or removed (null removes), transient ones dropped.
 */
export function useHrefWith(): (changes: Record<string, string | null>) => string {
  const location = useLocation();
  return (changes) => {
    const params = new URLSearchParams(location.search);
    for (const name of TRANSIENT_PARAMS) params.delete(name);
    params.delete("index");
    for (const [name, value] of Object.entries(changes)) {
      if (value === null) params.delete(name);
      else params.set(name, value);
    }
    const search = params.toString();
    return `${location.pathname}${search ? `?${search}` : ""}`;
  };
}

/**
 * Where this page's forms post: the route's action URL (with `?index` for an index route)
 * and the current filters and cursor, without transient parameters — so after a POST
 * without JavaScript the same list is shown again.
 */
export function useActionHref(): string {
  const formAction = useFormAction();
  const url = new URL(formAction, "http://local");
  for (const name of TRANSIENT_PARAMS) url.searchParams.delete(name);
  const search = url.searchParams.toString().replace(/(^|&)index=(&|$)/, "$1index$2");
  return `${url.pathname}${search ? `?${search}` : ""}`;
}
