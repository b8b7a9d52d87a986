import { formatHex, wcagContrast } from "culori";
import { describe, expect, it } from "vitest";
import { accentCssVariables, accentPalette, BRAND_STEPS } from "./accent-palette.server";

/** The dark theme's surfaces (app/app.css --color-white and --color-slate-50 in dark). */
const DARK_SURFACES = [
  formatHex({ mode: "oklch", l: 0.129, c: 0.042, h: 264.695 })!,
  formatHex({ mode: "oklch", l: 0.175, c: 0.04, h: 264 })!,
];

/** Accent colours an admin may save (white text passes 4.5:1), from pale-edge to very dark, every hue. */
function accents(): string[] {
  const list = ["#1d3fa3", "#0f766e", "#b91c1c", "#6d28d9", "#000000", "#767676", "#1a1a2e", "#9a3412", "#166534", "#be185d"];
  let seed = 42;
  const rnd = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
  while (list.length < 200) {
    const hex = `#${[0, 0, 0]
      .map(() =>
        Math.floor(rnd() * 256)
          .toString(16)
          .padStart(2, "0"),
      )
      .join("")}`;
    // What Settings accept: white text on it passes 4.5:1.
    if (wcagContrast(hex, "#ffffff") >= 4.5) list.push(hex);
  }
  return list;
}

describe("accent palette", () => {
  it("keeps the accent as the light theme's 700 and passes 4.5:1 for text and buttons in both themes", () => {
    for (const accent of accents()) {
      const p = accentPalette(accent);
      expect(p[700].light, accent).toBe(accent);
      for (const step of [600, 700, 800, 900] as const) {
        // Light theme: the step as text on white, and white text on the step (buttons).
        expect(wcagContrast(p[step].light, "#ffffff"), `${accent} light ${step}`).toBeGreaterThanOrEqual(4.5);
        // Dark theme: the step as text on the dark surfaces, and the dark surface as a button's label on it.
        for (const surface of [...DARK_SURFACES, p[50].dark, p[100].dark]) {
          expect(wcagContrast(p[step].dark, surface), `${accent} dark ${step} on ${surface}`).toBeGreaterThanOrEqual(4.5);
        }
      }
    }
  });

  it("writes every step as a light-dark() pair and --accent as the 700 step", () => {
    const vars = accentCssVariables("#0f766e");
    expect(Object.keys(vars)).toEqual([...BRAND_STEPS.map((s) => `--color-brand-${s}`), "--accent"]);
    expect(vars["--color-brand-700"]).toMatch(/^light-dark\(#0f766e, #[0-9a-f]{6}\)$/);
    expect(vars["--accent"]).toBe(vars["--color-brand-700"]);
  });
});
