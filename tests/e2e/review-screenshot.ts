/**
 * Screenshots that a test saves for a person to look at (the PNGs under test-results/): no test
 * compares or reads them, so they are taken only on demand (issue #42: a full-page capture is a
 * layout, a raster and a PNG encoding of the whole page in Chromium, paid on every run for nothing).
 */
import type { Page } from "@playwright/test";

/**
 * Saves a screenshot of the page when `SCREENSHOTS` is set (as for the screenshots specs:
 * `SCREENSHOTS=1 npx playwright test <spec>`); otherwise does nothing.
 *
 * @param page - the page, at the viewport and state to capture.
 * @param path - the PNG file to write.
 * @param options - `fullPage`: the whole page rather than the viewport (default false).
 * @returns when the file is written (at once when not asked for).
 */
export async function reviewScreenshot(page: Page, path: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (!process.env.SCREENSHOTS) return;
  await page.screenshot({ path, ...options });
}
