/**
 * `npm run db:generate` must be safe (issue #36): drizzle-kit compares `app/db/schema.ts` with the
 * newest snapshot in `drizzle/meta/`, so a schema change without its migration, or a migration
 * without its snapshot, makes the next `drizzle-kit generate` write a migration that re-creates
 * or drops what is already there. This runs drizzle-kit on a copy of `drizzle/` and fails when it
 * would write anything (or ask a question, which it cannot here: it needs a terminal).
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);

describe("drizzle/ matches app/db/schema.ts", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "drizzle-sync-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("drizzle-kit generate on the committed schema writes nothing", async () => {
    const root = path.resolve(".");
    const out = path.join(dir, "drizzle");
    fs.cpSync(path.join(root, "drizzle"), out, { recursive: true });
    const before = fs.readdirSync(out, { recursive: true }).map(String).sort();
    // drizzle-kit resolves the config's imports from its own directory (so the config sits under
    // the project's node_modules/, where `drizzle-kit` resolves and which tsc, ESLint and Prettier
    // skip: `npm test` runs them beside vitest, and a config file at the project's root could be
    // half-seen by them) and reads `out` relative to the working directory.
    const cache = path.join(root, "node_modules/.cache");
    fs.mkdirSync(cache, { recursive: true });
    const config = path.join(cache, `drizzle.sync-check.${process.pid}.config.ts`);
    fs.writeFileSync(
      config,
      `import { defineConfig } from "drizzle-kit";\nexport default defineConfig({ dialect: "postgresql", schema: "./app/db/schema.ts", out: ${JSON.stringify(path.relative(root, out))}, casing: "snake_case" });\n`,
    );
    try {
      const { stdout, stderr } = await run(
        process.execPath,
        [path.join(root, "node_modules/drizzle-kit/bin.cjs"), "generate", "--config", config],
        {
          cwd: root,
          env: { ...process.env, FORCE_COLOR: "0" },
        },
      );
      expect(stdout + stderr).toContain("No schema changes");
    } finally {
      fs.rmSync(config, { force: true });
    }
    expect(fs.readdirSync(out, { recursive: true }).map(String).sort()).toEqual(before);
  });

  it("the journal's times rise with every migration (drizzle's migrator skips one older than the last applied)", () => {
    const journal = JSON.parse(fs.readFileSync(path.resolve("drizzle/meta/_journal.json"), "utf8")) as {
      entries: { tag: string; when: number }[];
    };
    const backwards = journal.entries.filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when).map((e) => e.tag);
    expect(backwards, "migrations dated before the one they follow: give them a later `when`").toEqual([]);
  });
});
