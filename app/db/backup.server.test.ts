import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleScripts, type ScriptBundles } from "../../tests/helpers/bundled-scripts";
import { migratedPgliteDir } from "../../tests/helpers/test-database";
import { contactMessage } from "./schema";
import { openDatabase } from "./client.server";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "backup-"));
// The two commands built once (tests/helpers/bundled-scripts.ts): each of the five runs below
// starts as plain Node instead of through tsx; the code run is the same.
let scripts: ScriptBundles | undefined;
beforeAll(async () => {
  scripts = await bundleScripts(["scripts/db-backup.ts", "scripts/db-restore.ts"]);
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  scripts?.remove();
});

/** Each run's budget for a hang: a backup or restore opens and copies a whole embedded database. */
const RUN_BUDGET_MS = 60_000;
const run = (script: string, args: string[], dataDir: string) =>
  spawnSync(process.execPath, [scripts!.bundleOf(script), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: RUN_BUDGET_MS,
  });

describe("npm run db:backup / db:restore (embedded database)", () => {
  // A budget for a hang, not a speed check: four runs with a budget each, and the databases opened
  // here. It takes about 23 s on a quiet 2-core machine, but 123 s (over vitest's 120 s) there
  // during a whole `npm test` (issue #42's fresh-clone run).
  const budget = { timeout: 4 * RUN_BUDGET_MS + 60_000 };
  it("round-trips the data, refuses to overwrite without --force, and keeps the old database aside", budget, async () => {
    const source = path.join(tmp, "source");
    await migratedPgliteDir(path.join(source, "pglite"));
    const handle = await openDatabase({ pgliteDir: path.join(source, "pglite") });
    await handle.db.insert(contactMessage).values({ userName: "Backup Test", userEmail: "b@example.com", message: "keep me" });
    await handle.close();

    const archive = path.join(tmp, "portal.tar.gz");
    const backup = run("scripts/db-backup.ts", ["--out", archive], source);
    expect(backup.status, backup.stderr).toBe(0);
    expect(backup.stdout).toContain(`to ${archive}`);
    expect(fs.statSync(archive).size).toBeGreaterThan(1000);

    const target = path.join(tmp, "target");
    const restore = run("scripts/db-restore.ts", [archive], target);
    expect(restore.status, restore.stderr).toBe(0);
    const restored = await openDatabase({ pgliteDir: path.join(target, "pglite") });
    expect((await restored.db.select().from(contactMessage)).map((r) => r.message)).toEqual(["keep me"]);
    await restored.db.insert(contactMessage).values({ userName: "After", userEmail: "a@example.com", message: "newer" });
    await restored.close();

    const refused = run("scripts/db-restore.ts", [archive], target);
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain("already holds a database");

    const forced = run("scripts/db-restore.ts", [archive, "--force"], target);
    expect(forced.status, forced.stderr).toBe(0);
    const asideDir = /kept in (\S+)\./.exec(forced.stdout)![1]!;
    const again = await openDatabase({ pgliteDir: path.join(target, "pglite") });
    expect((await again.db.select().from(contactMessage)).map((r) => r.message)).toEqual(["keep me"]);
    await again.close();
    const aside = await openDatabase({ pgliteDir: asideDir });
    expect((await aside.db.select().from(contactMessage)).map((r) => r.message).sort()).toEqual(["keep me", "newer"]);
    await aside.close();
  });

  it("refuses to back up while another process holds the database", async () => {
    const dir = path.join(tmp, "busy");
    await migratedPgliteDir(path.join(dir, "pglite"));
    const handle = await openDatabase({ pgliteDir: path.join(dir, "pglite") });
    // This test process holds the lock, like a running server would.
    const result = run("scripts/db-backup.ts", ["--out", path.join(tmp, "x.tar.gz")], dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("in use by another process");
    await handle.close();
  });
});
