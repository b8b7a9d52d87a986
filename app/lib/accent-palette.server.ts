/**
 * The agency's accent colour as a whole palette for both themes (docs/product.md#settings,
 * docs/product.md#dark-mode), made with culori (OKLCH, gamut mapping, WCAG contrast).
 *
 * Settings hold one hex colour that white text passes 4.5:1 on. The portal uses the brand scale
 * `--color-brand-50 … 950` everywhere (links, the active navigation item, primary buttons, the
 * brand name), each a `light-dark(light, dark)` pair. This module derives that scale from the
 * accent: the light theme's 700 is the accent itself, the other steps keep its hue at the default
 * scale's lightness; the dark theme mirrors it (50 ↔ 950, 700 → light), and its text steps are
 * lightened until they pass 4.5:1 on the dark surfaces — and the dark surface colour as text on them
 * (a primary button's "white" label in the dark theme).
 */
import { converter, formatHex, toGamut, wcagContrast, type Oklch } from "culori";

const toOklch = converter("oklch");
const fit = toGamut("rgb", "oklch");

/** The brand scale's steps. */
export const BRAND_STEPS = [50, 100, 200, 300, 400, 500, 600, 700, 800, 900, 950] as const;
type Step = (typeof BRAND_STEPS)[number];

/** The default scale's lightness per step (app/app.css), light theme. */
const LIGHTNESS: Record<Step, number> = {
  50: 0.972,
  100: 0.942,
  200: 0.885,
  300: 0.805,
  400: 0.705,
  500: 0.61,
  600: 0.535,
  700: 0.465,
  800: 0.395,
  900: 0.33,
  950: 0.245,
};
/** The default scale's chroma relative to its strongest step. */
const CHROMA: Record<Step, number> = {
  50: 0.06,
  100: 0.14,
  200: 0.28,
  300: 0.48,
  400: 0.75,
  500: 0.93,
  600: 1,
  700: 0.93,
  800: 0.78,
  900: 0.62,
  950: 0.46,
};
/** The dark theme's mirror: the step whose light value each step takes (app/app.css). */
const DARK_MIRROR: Record<Step, Step> = {
  50: 950,
  100: 900,
  200: 800,
  300: 700,
  400: 600,
  500: 400,
  600: 400,
  700: 300,
  800: 200,
  900: 100,
  950: 50,
};

/** The dark theme's surfaces (app/app.css: white, slate-50) and the light theme's. */
const DARK_SURFACES = ["#000000", formatHexOf(0.129, 0.042, 264.695), formatHexOf(0.175, 0.04, 264)];
const LIGHT_SURFACES = ["#ffffff", formatHexOf(0.984, 0.003, 247.858)];
/** Steps used as text (or as a button's background under surface-coloured text). */
const TEXT_STEPS: Step[] = [600, 700, 800, 900];
const MIN_CONTRAST = 4.5;

function formatHexOf(l: number, c: number, h: number): string {
  return formatHex(fit({ mode: "oklch", l, c, h }))!;
}

/** The lowest contrast of `color` against each of `against`. */
function minContrast(color: string, against: string[]): number {
  return Math.min(...against.map((b) => wcagContrast(color, b)));
}

/**
 * @param accent - `#rrggbb` (white text on it passes 4.5:1, as Settings check).
 * @returns per step, the light and the dark theme's `#rrggbb`.
 */
export function accentPalette(accent: string): Record<Step, { light: string; dark: string }> {
  const base = toOklch(accent) as Oklch;
  const hue = base.h ?? 0;
  const peak = Math.max(base.c / CHROMA[700], 0.02);
  const light = {} as Record<Step, string>;
  for (const step of BRAND_STEPS) {
    light[step] =
      step === 700 ? accent.toLowerCase() : formatHexOf(Math.min(LIGHTNESS[step], step > 700 ? base.l : 1), peak * CHROMA[step], hue);
  }
  // Darker steps stay darker than the accent itself (a very dark accent pulls them down).
  for (const step of [800, 900, 950] as const) {
    const l = Math.min(LIGHTNESS[step], base.l - (LIGHTNESS[700] - LIGHTNESS[step]));
    light[step] = formatHexOf(Math.max(l, 0.12), peak * CHROMA[step], hue);
  }
  for (const step of [600, 800, 900] as const) light[step] = lightenUntil(light[step], LIGHT_SURFACES, -1);

  const dark = {} as Record<Step, string>;
  for (const step of BRAND_STEPS) dark[step] = light[DARK_MIRROR[step]];
  // The light steps mirrored onto dark surfaces: text steps lightened until they pass.
  for (const step of TEXT_STEPS) dark[step] = lightenUntil(dark[step], [...DARK_SURFACES, dark[50], dark[100]], +1);
  const out = {} as Record<Step, { light: string; dark: string }>;
  for (const step of BRAND_STEPS) out[step] = { light: light[step], dark: dark[step] };
  return out;
}

/**
 * Moves a colour's lightness (up with `direction` +1, down with −1) in small steps until it passes
 * {@link MIN_CONTRAST} against every colour of `against`.
 */
function lightenUntil(color: string, against: string[], direction: 1 | -1): string {
  const c = toOklch(color) as Oklch;
  let l = c.l;
  let hex = color;
  for (let i = 0; i < 100 && minContrast(hex, against) < MIN_CONTRAST; i++) {
    l = Math.min(1, Math.max(0, l + direction * 0.01));
    hex = formatHexOf(l, c.c, c.h ?? 0);
  }
  return hex;
}

/**
 * @returns the CSS custom properties of the portal's root: every `--color-brand-<step>` as
 *   `light-dark(light, dark)`, and `--accent` (the header stripe, the brand name, primary buttons).
 */
export function accentCssVariables(accent: string): Record<string, string> {
  const cached = cache.get(accent);
  if (cached) return cached;
  const palette = accentPalette(accent);
  const vars: Record<string, string> = {};
  for (const step of BRAND_STEPS) vars[`--color-brand-${step}`] = `light-dark(${palette[step].light}, ${palette[step].dark})`;
  vars["--accent"] = vars["--color-brand-700"]!;
  if (cache.size > 20) cache.clear();
  cache.set(accent, vars);
  return vars;
}

/** Palettes already derived (every page's root loader asks; the accent rarely changes). */
const cache = new Map<string, Record<string, string>>();
