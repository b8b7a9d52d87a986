import { accentCssVariables } from "./lib/accent-palette.server";
import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteError } from "react-router";
import type { Route } from "./+types/root";
import { servicesContext } from "./context";
import { requestInfoContext } from "#app/lib/request-info";
import { SPECULATION_RULES } from "./lib/speculation";
import { sessionMiddleware, sessionUserContext } from "./features/users/session.server";
import { withRequestMemo } from "./db/request-memo.server";
import { getBrand } from "./features/settings/settings.server";
import { homeFor } from "./features/users/actor";
import type { PortalBrand } from "./components/brand";
import { TIME_ZONE_COOKIE, timeZoneFromCookie } from "./lib/dates";
import stylesheet from "./app.css?url";
import fontUrl from "@fontsource-variable/plus-jakarta-sans/files/plus-jakarta-sans-latin-wght-normal.woff2?url";
import { ErrorPage } from "./components/error-page";
import { errorMeta } from "./lib/meta";
import { owner } from "./content/site";
import { themeClass, themeFromCookie, type Theme } from "./lib/theme";
import { ignoreAbortRejections } from "./lib/abort-rejections";

/** Route `handle` shape: `hydrate: false` marks a page that ships no JavaScript. */
export interface RouteHandle {
  hydrate?: boolean;
}

/**
 * Links of every page: the typeface's file first (fetched with the stylesheet, not after it),
 * then the icon and the stylesheet.
 */
export const links: Route.LinksFunction = () => [
  // The self-hosted typeface's Latin file (app/app.css): fetched with the stylesheet, not after it.
  { rel: "preload", href: fontUrl, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: stylesheet },
];

/**
 * Every request: a page read (GET) gets its own view of the database, so that its loaders read
 * the settings, the brand, the tallies and the unread badge once (issue #30,
 * app/db/request-memo.server.ts; an action and the loaders after it read afresh); then the
 * signed-in user is loaded (app/features/users/session.server.ts).
 */
export const middleware: Route.MiddlewareFunction[] = [
  ({ request, context }) => {
    if (request.method !== "GET" && request.method !== "HEAD") return;
    const services = context.get(servicesContext);
    context.set(servicesContext, { ...services, db: withRequestMemo(services.db) });
  },
  sessionMiddleware,
];

/**
 * Every page: the origin, the CSP nonce, the visitor's light/dark choice (rendered on <html>,
 * docs/product.md#dark-mode), the viewer's time zone (so that server and browser write the same
 * times, docs/product.md#dates) and the agency's brand for portal headers (docs/product.md#header-bars).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const { env, db } = context.get(servicesContext);
  const user = context.get(sessionUserContext);
  const { companyName, logoPath, accentColor } = await getBrand(db);
  const brand: PortalBrand = {
    name: companyName,
    logoPath,
    accent: accentColor,
    accentVars: accentColor ? accentCssVariables(accentColor) : undefined,
    home: user ? homeFor(user.role) : "/",
  };
  const cookie = request.headers.get("cookie");
  return {
    origin: env.origin,
    nonce: context.get(requestInfoContext).nonce,
    theme: themeFromCookie(cookie),
    timeZone: timeZoneFromCookie(cookie),
    brand,
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const hydrate = (leaf?.handle as RouteHandle | undefined)?.hydrate !== false;
  const rootData = matches[0]?.loaderData as { nonce?: string; theme?: Theme } | undefined;
  const nonce = rootData?.nonce;
  const theme = rootData?.theme ?? "system";
  return (
    <html lang="en" className={themeClass(theme)}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === "system" ? "light dark" : theme} />
        <Meta />
        <Links nonce={nonce} />
        <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
      </head>
      <body className="min-h-screen bg-white font-sans text-slate-900 antialiased">
        {children}
        {hydrate ? (
          <>
            <ScrollRestoration nonce={nonce} />
            <Scripts nonce={nonce} />
          </>
        ) : null}
      </body>
    </html>
  );
}

export default function App() {
  // Marks the document once this component's first effect has run, i.e. after hydration (browser tests wait for it).
  useEffect(() => {
    // A data request the router cancelled is no uncaught error (app/lib/abort-rejections.ts).
    const stopIgnoring = ignoreAbortRejections(window);
    document.documentElement.dataset.hydrated = "true";
    // States the browser's time zone for the next server render (docs/product.md#dates).
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && !document.cookie.split("; ").includes(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`)) {
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
    }
    return stopIgnoring;
  }, []);
  return <Outlet />;
}

/** The title of the root error page (a 404 or a refusal outside the role areas); pages give their own otherwise. */
export const meta: Route.MetaFunction = ({ error }) => errorMeta(error, owner.name);

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return <ErrorPage status={404} title="Page not found" message="The page you are looking for does not exist or has moved." />;
  }
  // A refusal (an AppError thrown outside a role area: a bad page link, too many attempts …).
  if (isRouteErrorResponse(error) && error.status < 500 && typeof error.data === "string" && error.data) {
    return <ErrorPage status={error.status} title="This request could not be completed" message={error.data} />;
  }
  return (
    <ErrorPage
      status={isRouteErrorResponse(error) ? error.status : 500}
      title="Something went wrong"
      message="An unexpected error occurred on our side. It has been logged; please try again in a moment."
    />
  );
}
