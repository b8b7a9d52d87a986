import { defineConfig } from "@playwright/test";
import { TEST_CHROMIUM_FLAGS, TEST_CHROMIUM_PATH } from "./tests/helpers/chromium";

/**
 * Browser tests in Debian's Chromium (never a downloaded browser; its headless shell when installed). The global setup
 * starts a real SMTP server and the built app on a free port (see tests/e2e/global-setup.ts).
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // A budget for a hang: flows that register and hash passwords run long on a busy machine.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: TEST_CHROMIUM_PATH,
      args: ["--headless", ...TEST_CHROMIUM_FLAGS],
    },
    trace: "off",
  },
  projects: [
    // The longest spec (every page of every role at two widths) is queued first, its longest tests
    // first (the admin's pages, in parts): longest-first keeps a worker from running minutes alone at
    // the end; queued alphabetically it started half-way and did (issue #42). Its tests are
    // independent and spread over two workers at most (each worker starts and seeds a demo app of
    // its own: a third would cost a third start and seed); with `--workers=3` the third takes `main`.
    { name: "sweep", testMatch: /phone-layout\.spec\.ts/, workers: 2 },
    { name: "main", testIgnore: /(hostile-input|fuzz|phone-layout)\.spec\.ts/ },
    // Measures /healthz latency while hostile requests are in flight: it runs alone, after the
    // rest, so that another worker's browser does not take the CPU from the server it measures.
    // `npm test` (scripts/test.mjs) runs hostile and fuzz in a Playwright run of their own
    // (`--no-deps --workers=1`) once the other projects and vitest have all ended.
    { name: "hostile", testMatch: /hostile-input\.spec\.ts/, dependencies: ["sweep", "main"] },
    // The 60-second fuzz (issue #28): last and alone, so its load neither slows the others nor skews the latency measured above.
    { name: "fuzz", testMatch: /fuzz\.spec\.ts/, dependencies: ["hostile"] },
  ],
});
