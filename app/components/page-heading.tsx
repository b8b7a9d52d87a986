import type { ReactNode } from "react";

/** A page's h1 with an optional lead paragraph and actions. */
export function PageHeading({ title, lead, children }: { title: string; lead?: ReactNode; children?: ReactNode }) {
  return (
    <div className="mb-6 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        {lead ? <p className="mt-1 text-slate-700">{lead}</p> : null}
      </div>
      {children}
    </div>
  );
}
