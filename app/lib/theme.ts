/**
 * Light / dark / system colour theme (docs/product.md#dark-mode). The choice is a cookie set by
 * a plain form post (no JavaScript); the server renders it as a class on `<html>`, so the first
 * paint already has the right colours. "system" (no cookie) leaves the class off and the CSS
 * follows `prefers-color-scheme` (app/app.css: `color-scheme` + `light-dark()`).
 */

/** The three choices, in the toggle's order. */
export const THEMES = ["light", "dark", "system"] as const;
export type Theme = (typeof THEMES)[number];

/** Name of the cookie holding the choice. */
export const THEME_COOKIE = "theme";

/** How long the browser remembers the choice: one year, in seconds. */
export const THEME_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * @param cookieHeader - the request's `Cookie` header (or null).
 * @returns the theme it chooses; "system" when absent or not one of {@link THEMES}.
 */
export function themeFromCookie(cookieHeader: string | null | undefined): Theme {
  if (!cookieHeader) return "system";
  const match = /(?:^|;\s*)theme=([a-z]+)(?:;|$)/.exec(cookieHeader);
  const value = match?.[1];
  return value === "light" || value === "dark" ? value : "system";
}

/**
 * @returns the `<html>` class for a theme: `theme-light`, `theme-dark`, or undefined for "system".
 */
export function themeClass(theme: Theme): string | undefined {
  return theme === "system" ? undefined : `theme-${theme}`;
}

/**
 * @param secure - add `Secure` (the site is served over HTTPS).
 * @returns the `Set-Cookie` value remembering `theme` for a year ("system" deletes the cookie).
 */
export function themeCookieHeader(theme: Theme, secure: boolean): string {
  const flags = `Path=/; SameSite=Lax; HttpOnly${secure ? "; Secure" : ""}`;
  return theme === "system"
    ? `${THEME_COOKIE}=; Max-Age=0; ${flags}`
    : `${THEME_COOKIE}=${theme}; Max-Age=${THEME_COOKIE_MAX_AGE}; ${flags}`;
}

/**
 * Where to go back to after choosing: a same-site path, else "/".
 *
 * @param value - the form's `returnTo` (a path such as `/projects?x=1`).
 */
export function safeReturnPath(value: unknown): string {
  if (typeof value !== "string" || value.length > 2_000) return "/";
  return /^\/(?![/\\])[^\s]*$/.test(value) ? value : "/";
}
