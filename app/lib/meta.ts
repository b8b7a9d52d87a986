/**
 * Page meta helpers: title, description, Open Graph and canonical URL for every page.
 * The origin comes from the root loader (`BETTER_AUTH_URL`).
 */
import { isRouteErrorResponse, type MetaDescriptor } from "react-router";
import { owner } from "#app/content/site";

interface MetaArgsLike {
  location: { pathname: string };
  matches: ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;
}

/** Reads the public origin that the root loader exposes. */
export function originFrom(args: MetaArgsLike): string {
  const root = args.matches.find((m) => m?.id === "root");
  return (root?.loaderData as { origin?: string } | undefined)?.origin ?? "";
}

/**
 * Builds the meta tags of one page.
 *
 * @param args - the route's meta function arguments.
 * @param page.title - page title; the owner's name is appended.
 * @param page.description - one or two sentences for search results and link previews.
 */
export function pageMeta(args: MetaArgsLike, page: { title: string; description: string; image?: string }): MetaDescriptor[] {
  const origin = originFrom(args);
  const url = `${origin}${args.location.pathname === "/" ? "/" : args.location.pathname.replace(/\/+$/, "")}`;
  const title = `${page.title} | ${owner.name}`;
  const tags: MetaDescriptor[] = [
    { title },
    { name: "description", content: page.description },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:type", content: "website" },
    { property: "og:url", content: url },
    { property: "og:site_name", content: owner.name },
    { name: "twitter:card", content: page.image ? "summary_large_image" : "summary" },
    { tagName: "link", rel: "canonical", href: url },
  ];
  if (page.image) tags.push({ property: "og:image", content: `${origin}${page.image}` });
  return tags;
}

/**
 * The `<title>` of an error page (issue #41: a record-not-found page had an empty title, axe
 * `document-title`): the refusal's own message ("Invoice not found") or the status's words, then
 * `suffix` (the area's name). A layout whose ErrorBoundary shows the error returns these from its
 * `meta`; for a page without an error it returns nothing (the page's own meta applies).
 *
 * @param error - the `error` of the meta function's arguments (undefined when the page rendered).
 * @param suffix - e.g. "Client Portal"; the owner's name on public pages.
 */
export function errorMeta(error: unknown, suffix: string): MetaDescriptor[] {
  if (error === undefined || error === null) return [];
  const routeError = isRouteErrorResponse(error) ? error : null;
  const status = routeError?.status ?? 500;
  const message =
    routeError && typeof routeError.data === "string" && routeError.data.trim() && status < 500
      ? routeError.data.trim()
      : status === 404
        ? "Page not found"
        : status < 500
          ? "This request could not be completed"
          : "Something went wrong";
  return [{ title: `${message} | ${suffix}` }, { name: "robots", content: "noindex" }];
}
