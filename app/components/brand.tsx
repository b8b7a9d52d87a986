/**
 * The agency's identity in the portal (docs/product.md#header-bars): its logo, or its company
 * name, linking to the signed-in user's home; and its accent colour as the brand scale of the
 * portal's root element (`--color-brand-*` and `--accent`, both themes), so links, the active
 * navigation item, primary buttons and the header all take it.
 * The data comes from the root loader; this module reads no database.
 */
import type { CSSProperties } from "react";
import { Link, useRouteLoaderData } from "react-router";

/** What the root loader sends for portal headers. */
export interface PortalBrand {
  /** Company name from Settings ("" when not set). */
  name: string;
  /** The logo's URL path, or null. */
  logoPath: string | null;
  /** `#rrggbb` or "" (the default colours). */
  accent: string;
  /**
   * The brand scale derived from the accent for both themes (`--color-brand-*`, `--accent`, each a
   * `light-dark()` pair: app/lib/accent-palette.server.ts); empty without an accent.
   */
  accentVars?: Record<string, string>;
  /** The signed-in user's home (`/admin`, `/ambassador/dashboard`, `/client-dashboard`), or `/` when signed out. */
  home: string;
}

const FALLBACK: PortalBrand = { name: "", logoPath: null, accent: "", home: "/" };

/** @returns the brand of the root loader (the defaults while it is missing, e.g. on the root error page). */
export function useBrand(): PortalBrand {
  const root = useRouteLoaderData("root") as { brand?: PortalBrand } | undefined;
  return root?.brand ?? FALLBACK;
}

/**
 * @returns the portal root's style: the brand scale and `--accent` derived from the accent colour
 *   (both themes) when one is set, else nothing.
 */
export function accentStyle(brand: PortalBrand): CSSProperties | undefined {
  if (!brand.accent) return undefined;
  return (brand.accentVars && Object.keys(brand.accentVars).length ? brand.accentVars : { "--accent": brand.accent }) as CSSProperties;
}

/**
 * The header's brand: the logo (alt text: the company name) or the company name, then the
 * area's title; links to the user's home.
 *
 * @param title - the area's title ("Admin Console", "Client Portal" …).
 */
export function BrandLink({ title }: { title: string }) {
  const brand = useBrand();
  const name = brand.name || title;
  return (
    <Link to={brand.home} className="portal-brand flex min-w-0 items-center gap-3" data-testid="portal-brand">
      {brand.logoPath ? (
        <img src={brand.logoPath} alt={brand.name || "Home"} className="h-9 w-auto max-w-[10rem] object-contain" />
      ) : (
        <span className="truncate text-lg font-bold tracking-tight">{name}</span>
      )}
      {brand.name || brand.logoPath ? <span className="hidden text-sm font-medium text-slate-600 sm:inline">{title}</span> : null}
    </Link>
  );
}
