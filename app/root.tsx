import "./lib/zod-config";
import { useEffect } from "react";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useMatches, useRouteError } from "react-router";
import type { Route } from "./+types/root";
import { requestInfoContext, servicesContext } from "./context";
import { SPECULATION_RULES } from "./lib/speculation";
import { TIME_ZONE_COOKIE, timeZoneFromCookie } from "./lib/dates";
import { sessionMiddleware } from "./features/users/session.server";
import stylesheet from "./app.css?url";
import { ErrorPage } from "./components/error-page";

/** Route `handle` shape: `hydrate: false` marks a page that ships no JavaScript. */
export interface RouteHandle {
  hydrate?: boolean;
}

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

/** Loads the signed-in user for every request (app/lib/session.server.ts). */
export const middleware: Route.MiddlewareFunction[] = [sessionMiddleware];

export async function loader({ context, request }: Route.LoaderArgs) {
  return {
    origin: context.get(servicesContext).env.origin,
    nonce: context.get(requestInfoContext).nonce,
    // The viewer's zone, so that server and browser write the same times (docs/product.md#dates).
    timeZone: timeZoneFromCookie(request.headers.get("cookie")),
  };
}

export function Layout({ children }: { children: React.ReactNode }) {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const hydrate = (leaf?.handle as RouteHandle | undefined)?.hydrate !== false;
  const nonce = (matches[0]?.loaderData as { nonce?: string } | undefined)?.nonce;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1d3fa3" />
        <Meta />
        <Links />
        <script type="speculationrules" dangerouslySetInnerHTML={{ __html: SPECULATION_RULES }} />
      </head>
      <body className="min-h-screen bg-white text-slate-900 antialiased">
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
  // Marks the document once React has hydrated (used by browser tests to wait for it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
    // States the browser's time zone for the next server render (docs/product.md#dates).
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone && !document.cookie.split("; ").includes(`${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}`)) {
      document.cookie = `${TIME_ZONE_COOKIE}=${encodeURIComponent(zone)}; path=/; max-age=31536000; samesite=lax`;
    }
  }, []);
  return <Outlet />;
}

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
