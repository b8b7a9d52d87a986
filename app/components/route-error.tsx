import { isRouteErrorResponse, Link, useRouteError } from "react-router";

/**
 * A route's ErrorBoundary inside its area layout: shows the refusal the loader threw
 * (e.g. 404 "Invoice not found", 409 "Only pending proposals can be edited…") with a way back.
 */
export function RouteErrorMessage({ backTo, backLabel }: { backTo: string; backLabel: string }) {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    isRouteErrorResponse(error) && typeof error.data === "string" && error.data
      ? error.data
      : "Something went wrong on our side. Please try again in a moment.";
  return (
    <section className="mx-auto flex max-w-2xl flex-col items-start gap-4 py-10">
      <p className="text-sm font-semibold text-brand-700">Error {status}</p>
      <h1 role="alert" className="text-3xl font-bold tracking-tight">
        {message}
      </h1>
      <Link to={backTo} className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
        {backLabel}
      </Link>
    </section>
  );
}
