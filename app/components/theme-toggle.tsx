/**
 * The light / dark / system toggle (docs/product.md#dark-mode): a plain HTML form posting to
 * `/theme`, which sets a cookie and redirects back — it works without JavaScript, on the
 * prerendered public pages as in the portal. The current choice comes from the root loader
 * (read from the cookie) and is shown with `aria-pressed`.
 */
import { useLocation, useRouteLoaderData } from "react-router";
import { THEMES, type Theme } from "#app/lib/theme";

const LABELS: Record<Theme, string> = { light: "Light", dark: "Dark", system: "System" };

/** @param className - extra classes for the form (placement). */
export function ThemeToggle({ className = "" }: { className?: string }) {
  const root = useRouteLoaderData<{ theme?: Theme }>("root");
  const current = root?.theme ?? "system";
  const location = useLocation();
  return (
    <form method="post" action="/theme" className={`flex items-center gap-2 ${className}`} data-testid="theme-toggle">
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <span id="theme-label" className="text-sm text-slate-700">
        Theme
      </span>
      <div role="group" aria-labelledby="theme-label" className="inline-flex rounded-control border border-slate-300 p-0.5">
        {THEMES.map((theme) => (
          <button
            key={theme}
            type="submit"
            name="theme"
            value={theme}
            aria-pressed={theme === current}
            className={`rounded-control px-2.5 py-1 text-sm font-medium ${
              theme === current ? "bg-slate-900 text-white" : "text-slate-700 hover:bg-slate-100"
            }`}
          >
            {LABELS[theme]}
          </button>
        ))}
      </div>
    </form>
  );
}
