import { defineConfig } from "@playwright/test";
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from "./tests/helpers/chromium";

/**
 * Browser tests in Debian's Chromium (never a downloaded browser). The global setup
 * starts a real SMTP server and the built app on a free port (see tests/e2e/global-setup.ts).
 */
export default defineConfig({
  testDir: "tests/e2e",
  globalSetup: "./tests/e2e/global-setup.ts",
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
    browserName: "chromium",
    launchOptions: {
      executablePath: CHROMIUM_PATH,
      args: ["--headless", ...CHROMIUM_FLAGS],
    },
    trace: "off",
  },
  projects: [
    { name: "main", testIgnore: /hostile-input\.spec\.ts/ },
    // Measures /healthz latency while hostile requests are in flight: it runs alone, after the
    // rest, so that another worker's browser does not take the CPU from the server it measures.
    { name: "hostile", testMatch: /hostile-input\.spec\.ts/, dependencies: ["main"] },
  ],
});
