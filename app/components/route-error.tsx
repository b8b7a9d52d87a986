import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/**
 * A route's ErrorBoundary inside its area layout: shows the refusal (an AppError) the loader
 * threw (e.g. 404 "Invoice not found", 409 "Only pending proposals can be edited…"), or the
 * page's failure message for anything unexpected, with a way back.
 */
export function RouteErrorMessage({
  backTo,
  backLabel,
  failureMessage = "Something went wrong on our side. Please try again in a moment.",
}: {
  backTo: string;
  backLabel: string;
  /** Shown for an unexpected failure (500), e.g. "Failed to fetch proposal". */
  failureMessage?: string;
}) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && typeof error.data === "string" && error.data ? error.data : failureMessage;
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-4 py-10">
      <p className="text-sm font-semibold text-brand-700">Error {status}</p>
      {/* The alert wraps the heading (an h1 with role=alert is no heading: axe aria-allowed-role, page-has-heading-one). */}
      <div role="alert">
        <h1 className="text-3xl font-bold tracking-tight">{message}</h1>
      </div>
      <Link to={backTo} className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
        {backLabel}
      </Link>
    </section>
  );
}
