import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: [{ find: /^#app\/(.*)$/, replacement: `${path.resolve("app")}/$1` }],
  },
  test: {
    include: ["app/**/*.test.ts", "server/**/*.test.ts", "scripts/**/*.test.ts", "tests/lint/**/*.test.ts", "tests/helpers/**/*.test.ts"],
    environment: "node",
    // Password hashes (scrypt) computed once per password and worker: see the file (issue #42).
    setupFiles: ["tests/helpers/vitest-setup.ts"],
    // Budgets for a hang, not speed checks: on a busy 2-core machine an integration test that
    // hashes passwords or copies a database (the backup round trip) took over 30 s (issue #28).
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // PGlite instances are memory-hungry; two files at a time suits a 2-core machine. Test
    // databases are copies of a template migrated once (tests/helpers/test-database.ts).
    maxWorkers: 2,
    // Test files share their worker's module registry (no re-import of the app, PGlite's
    // WebAssembly and better-auth per file): 113 s → 40 s for the suite on this machine. Tests
    // keep no module-level state between files; each opens its own database.
    isolate: false,
  },
});
