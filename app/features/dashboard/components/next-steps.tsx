/**
 * The head of a dashboard (docs/product.md#client-dashboard, #admin-dashboard): what waits, each
 * item a link to where it is done; a new client's first steps instead of an empty page.
 */
import { Link } from "react-router";
import { buttonClass } from "#app/components/ui/button";

/** One item as the server's `NextStep` (app/features/dashboard/next-steps.server.ts). */
export interface NextStepItem {
  key: string;
  kind: "action" | "info";
  title: string;
  text: string;
  href: string;
  cta: string;
}

/**
 * The list of what waits (`action`) and what comes (`info`).
 *
 * @param empty - shown when there is nothing.
 */
export function NextSteps({ id, title, items, empty }: { id: string; title: string; items: NextStepItem[]; empty: string }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6" data-testid="next-steps">
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {items.length === 0 ? (
        <p className="mt-3 text-slate-700">{empty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-200">
          {items.map((item) => (
            <li
              key={item.key}
              className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-3"
              data-testid={`next-${item.key}`}
            >
              <div className="min-w-0">
                <p className="flex items-center gap-2 font-medium wrap-anywhere">
                  {item.kind === "action" ? (
                    <span aria-hidden="true" className="inline-block h-2 w-2 shrink-0 rounded-full bg-brand-700" />
                  ) : null}
                  {item.title}
                </p>
                {item.text ? <p className="text-sm wrap-anywhere text-slate-700">{item.text}</p> : null}
              </div>
              <Link to={item.href} className="shrink-0 text-brand-700 underline underline-offset-4">
                {item.cta}
                <span className="sr-only">: {item.title}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** A new client's first dashboard: the next step as the primary action, then what happens after. */
export function FirstSteps() {
  return (
    <section
      aria-labelledby="first-steps-title"
      className="rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6"
      data-testid="first-steps"
    >
      <h2 id="first-steps-title" className="text-xl font-semibold">
        Your first step
      </h2>
      <p className="mt-2 text-slate-700">
        Tell us about the website you need. It takes a few minutes; only the project details are required.
      </p>
      <p className="mt-4">
        <Link to="/proposal-request" className={buttonClass("primary", "md")}>
          Request your first proposal
        </Link>
      </p>
      <h3 className="mt-6 font-semibold">What happens after</h3>
      <ol className="mt-2 list-decimal space-y-1 pl-5 text-slate-700">
        <li>The agency reads your request and answers, usually within a few days.</li>
        <li>You meet to talk it through: book a time that suits you from the agency&apos;s free times.</li>
        <li>You receive an offer, and your project&apos;s status shows every next step here.</li>
      </ol>
      <p className="mt-4">
        <Link to="/meetings/book" className="text-brand-700 underline underline-offset-4">
          Or book a meeting first
        </Link>
      </p>
    </section>
  );
}
