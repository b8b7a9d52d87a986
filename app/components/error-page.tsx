import { Link } from "react-router";
import { SiteHeader } from "./site-header";
import { SiteFooter } from "./site-footer";

/** A full page (header, message, footer) for 404 and unexpected errors. */
export function ErrorPage({ status, title, message }: { status: number; title: string; message: string }) {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto flex max-w-3xl flex-col items-start gap-4 px-4 py-20">
        <p className="text-sm font-semibold text-brand-700">Error {status}</p>
        <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">{title}</h1>
        <p className="text-lg text-slate-700">{message}</p>
        <Link to="/" className="rounded-md bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800">
          Back to the home page
        </Link>
      </main>
      <SiteFooter />
    </>
  );
}
