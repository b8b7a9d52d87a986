import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedPgliteDir } from "../../tests/helpers/test-database";
import { contactMessage } from "./schema";
import { openDatabase } from "./client.server";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "backup-"));
// The two commands built once, as `npm run build:server` builds the server (esbuild, packages
// external), into node_modules where their packages resolve: each of the five runs below then
// starts as plain Node (≈ 0.3 s of CPU) instead of through tsx (≈ 1.1 s); the code run is the same.
// node_modules/.cache does not exist in a fresh clone until something writes there.
fs.mkdirSync(path.resolve("node_modules/.cache"), { recursive: true });
const bin = fs.mkdtempSync(path.resolve("node_modules/.cache/backup-test-"));
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  fs.rmSync(bin, { recursive: true, force: true });
});
beforeAll(async () => {
  await build({
    entryPoints: ["scripts/db-backup.ts", "scripts/db-restore.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    outdir: bin,
    outExtension: { ".js": ".mjs" },
    logLevel: "warning",
  });
});

const run = (script: string, args: string[], dataDir: string) =>
  spawnSync(process.execPath, [path.join(bin, `${path.basename(script, ".ts")}.mjs`), ...args], {
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "" },
    encoding: "utf8",
    timeout: 60_000,
  });

describe("npm run db:backup / db:restore (embedded database)", () => {
  it("round-trips the data, refuses to overwrite without --force, and keeps the old database aside", async () => {
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
