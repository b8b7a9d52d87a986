/**
 * Debian's Chromium as the browser tests and the Lighthouse benchmark start it: never a downloaded
 * browser, no sandbox (containers), and none of the background traffic (updates, sync, QUIC) that
 * would add requests or noise to what is measured.
 */
import fs from "node:fs";

/** The Chromium binary of the Lighthouse benchmark (`CHROMIUM_PATH`, default Debian's full browser). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** Debian's `chromium-headless-shell` (the old headless mode, the same Chromium version as `chromium`). */
const HEADLESS_SHELL_PATH = "/usr/lib/chromium/chromium-headless-shell";

/**
 * The Chromium binary of the browser tests: `CHROMIUM_PATH` when set, else Debian's headless shell
 * when installed (`apt-get install chromium-headless-shell`, as .ci/run does), else the full browser.
 * The shell is the same Blink and V8 without the browser's UI layer: on the e2e specs it spends about
 * half the CPU of the full browser's headless mode (issue #42, bench/results/test-speed.md).
 */
export const TEST_CHROMIUM_PATH =
  process.env.CHROMIUM_PATH === undefined && fs.existsSync(HEADLESS_SHELL_PATH) ? HEADLESS_SHELL_PATH : CHROMIUM_PATH;

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

/**
 * Flags of the browser tests: {@link CHROMIUM_FLAGS}, and in the headless shell no font hinting, which
 * lays text out as the full browser does (the shell hints fully by default: a line of the app's font
 * measured 562 px there against 557.3 px in the browser, and wrapped differently at 390 px).
 */
export const TEST_CHROMIUM_FLAGS =
  TEST_CHROMIUM_PATH === HEADLESS_SHELL_PATH ? [...CHROMIUM_FLAGS, "--font-render-hinting=none"] : CHROMIUM_FLAGS;
