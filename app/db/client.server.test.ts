import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { DataDirLockedError, openDatabase } from "./client.server";

describe("PGlite data directory lock", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("refuses a directory held by another live process and takes over a stale lock", async () => {
    const base = fs.mkdtempSync(path.join(os.tmpdir(), "lock-"));
    dirs.push(base);
    const dir = path.join(base, "pglite");
    const other = spawn("sleep", ["30"]);
    try {
      fs.writeFileSync(`${dir}.lock`, String(other.pid));
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(DataDirLockedError);
      await expect(openDatabase({ pgliteDir: dir })).rejects.toThrow(/in use by another process/);
    } finally {
      other.kill();
    }
    await new Promise((r) => other.once("exit", r));
    // The holder died: its lock is stale and is taken over.
    const handle = await openDatabase({ pgliteDir: dir });
    await handle.migrate();
    await handle.ping();
    expect(fs.readFileSync(`${dir}.lock`, "utf8")).toBe(String(process.pid));
    await handle.close();
    expect(fs.existsSync(`${dir}.lock`)).toBe(false);
  });
});

describe("PGlite bytea (issue #23: binary parameters, hex results decoded by Node)", () => {
  it("round-trips every byte value, empty values, views at an offset and Buffers, in drizzle and raw queries", async () => {
    const handle = await openDatabase({ memory: true });
    try {
      const { sql } = await import("drizzle-orm");
      const all = Uint8Array.from({ length: 256 * 3 }, (_, i) => i % 256);
      const backing = Buffer.from(all);
      const cases: Uint8Array[] = [
        all,
        new Uint8Array(0),
        backing.subarray(5, 300),
        Buffer.from("small pooled buffer"),
        new Uint8Array(300_000).fill(0xab),
      ];
      for (const value of cases) {
        const result = (await handle.db.execute(sql`select ${value}::bytea as v, length(${value}::bytea) as n`)) as unknown as {
          rows: { v: Uint8Array; n: number }[];
        };
        const row = result.rows[0]!;
        expect(row.n).toBe(value.length);
        expect(row.v).toBeInstanceOf(Uint8Array);
        expect(Buffer.compare(Buffer.from(row.v), Buffer.from(value))).toBe(0);
      }
    } finally {
      await handle.close();
    }
  });
});
