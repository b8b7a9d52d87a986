import type { ReactNode } from "react";

export type BadgeTone = "gray" | "blue" | "amber" | "green" | "red" | "violet";

const TONES: Record<BadgeTone, string> = {
  gray: "bg-slate-100 text-slate-800 ring-slate-300",
  blue: "bg-blue-50 text-blue-800 ring-blue-300",
  amber: "bg-amber-50 text-amber-900 ring-amber-300",
  green: "bg-green-50 text-green-800 ring-green-300",
  red: "bg-red-50 text-red-800 ring-red-300",
  violet: "bg-violet-50 text-violet-800 ring-violet-300",
};

/** A small coloured status label; the text itself carries the meaning (not only the colour). */
export function Badge({ tone, children }: { tone: BadgeTone; children: ReactNode }) {
  return (
    // `badge`: the shape (app/app.css), the same on every badge.
    <span className={`badge ${TONES[tone]}`}>{children}</span>
  );
}
