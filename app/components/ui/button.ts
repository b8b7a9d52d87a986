/**
 * Button looks shared by buttons and button-like links (admin console, issue #5).
 */
const base =
  "inline-flex items-center justify-center gap-1 rounded-md font-medium whitespace-nowrap transition-colors disabled:cursor-progress disabled:opacity-60 aria-disabled:pointer-events-none aria-disabled:opacity-50";

const variants = {
  primary: "bg-brand-700 text-white hover:bg-brand-800",
  secondary: "border border-slate-300 bg-white text-slate-800 hover:bg-slate-50",
  danger: "border border-red-300 bg-white text-red-800 hover:bg-red-50",
  dangerSolid: "bg-red-700 text-white hover:bg-red-800",
} as const;

const sizes = { sm: "px-2.5 py-1.5 text-sm", md: "px-4 py-2 text-base" } as const;

/** @returns Tailwind classes for a button or a link that looks like one. */
export function buttonClass(variant: keyof typeof variants = "secondary", size: keyof typeof sizes = "sm"): string {
  return `${base} ${variants[variant]} ${sizes[size]}`;
}
