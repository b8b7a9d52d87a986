/**
 * `npm start` builds only when the sources changed (issue #41): the real script run twice in a
 * project directory whose `npm run build` counts its runs — the second start builds nothing and
 * says so; a changed source, a deleted build or `--force` builds again; a failed build writes no stamp.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { bundleScripts, type ScriptBundles } from "../tests/helpers/bundled-scripts";

describe("scripts/build-if-changed.ts (npm start)", () => {
  // Built once (tests/helpers/bundled-scripts.ts): each start below is plain Node, not tsx.
  let script: ScriptBundles | undefined;
  beforeAll(async () => {
    script = await bundleScripts(["scripts/build-if-changed.ts"]);
  });
  afterAll(() => script?.remove());
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "build-if-changed-"));
    // A build that appends a line to builds.log and writes build/server/main.js (fails when FAIL_BUILD exists).
    const build =
      "node -e \"const fs=require('fs');if(fs.existsSync('FAIL_BUILD'))process.exit(3);fs.appendFileSync('builds.log','built\\n');fs.mkdirSync('build/server',{recursive:true});fs.writeFileSync('build/server/main.js','')\"";
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "fixture", private: true, scripts: { build } }));
    fs.writeFileSync(path.join(dir, "package-lock.json"), "{}");
    for (const d of ["app/routes", "server", "public/generated"]) fs.mkdirSync(path.join(dir, d), { recursive: true });
    fs.writeFileSync(path.join(dir, "app/routes/home.tsx"), "export default 1;\n");
    fs.writeFileSync(path.join(dir, "server/main.ts"), "export {};\n");
    fs.writeFileSync(path.join(dir, "public/robots.txt"), "User-agent: *\n");
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const start = (...args: string[]) => {
    const run = spawnSync(process.execPath, [script!.bundleOf("scripts/build-if-changed.ts"), ...args], { cwd: dir, encoding: "utf8" });
    return { status: run.status, out: run.stdout + run.stderr };
  };
  const builds = () =>
    fs.existsSync(path.join(dir, "builds.log"))
      ? fs.readFileSync(path.join(dir, "builds.log"), "utf8").split("\n").filter(Boolean).length
      : 0;

  it("twice in a row builds once and says why each time", () => {
    const first = start();
    expect(first.status).toBe(0);
    expect(first.out).toContain("No build yet: building.");
    expect(builds()).toBe(1);
    const second = start();
    expect(second.status).toBe(0);
    expect(second.out).toMatch(/Sources unchanged since the last build \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): skipping the build\./);
    expect(builds()).toBe(1);
  });

  it("builds again after a source, the lock file or the build changed, and never for generated images or tests", () => {
    start();
    fs.writeFileSync(path.join(dir, "public/generated/portrait-320.webp"), "generated");
    fs.writeFileSync(path.join(dir, "app/routes/home.test.tsx"), "test");
    expect(start().out).toContain("skipping the build");
    fs.writeFileSync(path.join(dir, "app/routes/home.tsx"), "export default 2;\n");
    expect(start().out).toContain("Sources changed since the last build: building.");
    expect(builds()).toBe(2);
    fs.writeFileSync(path.join(dir, "package-lock.json"), '{"lockfileVersion":3}');
    start();
    expect(builds()).toBe(3);
    fs.rmSync(path.join(dir, "build"), { recursive: true });
    expect(start().out).toContain("No build yet: building.");
    expect(start("--force").out).toContain("--force: building.");
    expect(builds()).toBe(5);
  });

  it("a failed build exits with its code and leaves no stamp, so the next start builds", () => {
    fs.writeFileSync(path.join(dir, "FAIL_BUILD"), "");
    expect(start().status).toBe(3);
    expect(fs.existsSync(path.join(dir, "build/.source-stamp"))).toBe(false);
    fs.rmSync(path.join(dir, "FAIL_BUILD"));
    expect(start().out).toContain("No build yet: building.");
    expect(builds()).toBe(1);
  });
});
