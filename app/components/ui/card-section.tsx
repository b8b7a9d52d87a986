import type { ReactNode } from "react";

/**
 * A dashboard card: a bordered `<section>` named by its `<h2>` (`aria-labelledby`), then its content.
 *
 * @param id - the heading's id (unique on the page), e.g. `balance-title`.
 * @param title - the heading text.
 * @param className - extra classes of the section (e.g. `min-w-0` in a grid).
 */
export function CardSection({ id, title, className, children }: { id: string; title: ReactNode; className?: string; children: ReactNode }) {
  return (
    <section aria-labelledby={id} className={`${className ? `${className} ` : ""}rounded-xl border border-slate-200 p-4 shadow-sm sm:p-6`}>
      <h2 id={id} className="text-xl font-semibold">
        {title}
      </h2>
      {children}
    </section>
  );
}
