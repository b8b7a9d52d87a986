/**
 * Debian's Chromium as the browser tests and the Lighthouse benchmark start it: never a downloaded
 * browser, no sandbox (containers), and none of the background traffic (updates, sync, QUIC) that
 * would add requests or noise to what is measured.
 */

/** The Chromium binary (`CHROMIUM_PATH`, default Debian's). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Command-line flags after the headless one (which differs between Playwright and chrome-launcher). */
export const CHROMIUM_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];
