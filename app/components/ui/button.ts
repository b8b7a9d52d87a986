/**
 * Button looks shared by buttons and button-like links (admin console). The classes
 * are defined once in `app/app.css` (`@utility btn…`), so each button in a long list costs a
 * few bytes of HTML instead of ~25 utility classes.
 */
const variants = {
  primary: "btn-primary",
  secondary: "btn-secondary",
  danger: "btn-danger",
  dangerSolid: "btn-danger-solid",
} as const;

const sizes = { sm: "btn-sm", md: "btn-md" } as const;

/** @returns the classes for a button or a link that looks like one. */
export function buttonClass(variant: keyof typeof variants = "secondary", size: keyof typeof sizes = "sm"): string {
  return `btn ${variants[variant]} ${sizes[size]}`;
}
