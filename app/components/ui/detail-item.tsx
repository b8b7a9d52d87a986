import type { HTMLAttributes, ReactNode } from "react";

/**
 * One term and its value inside a grid `<dl>`, wrapped in a `<div>` so the pair stays together
 * in a grid cell: a muted label above a medium-weight value.
 *
 * @param label - the term (`<dt>`), e.g. "Issued".
 * @param children - the value (`<dd>`).
 * @param className - the `<dd>` classes (default `font-medium`); other props (e.g. `data-testid`) go to the `<dd>`.
 */
export function DetailItem({
  label,
  children,
  className = "font-medium",
  ...dd
}: { label: ReactNode; children: ReactNode } & HTMLAttributes<HTMLElement> & { "data-testid"?: string }) {
  return (
    <div>
      <dt className="text-slate-600">{label}</dt>
      <dd className={className} {...dd}>
        {children}
      </dd>
    </div>
  );
}
