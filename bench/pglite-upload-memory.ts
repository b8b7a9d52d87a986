/**
 * Where PGlite upload memory goes (issue #23, bench/results/conversations.md): the database
 * `FileStore` on an on-disk PGlite, in this process (no HTTP), one 25 MB warm-up upload then 4
 * uploads of 25 MB at once, written in 64 KB pieces as busboy hands them over. Every 20 ms it
 * samples `process.memoryUsage()` (rss, heapUsed, external, arrayBuffers) and the size of PGlite's
 * WebAssembly memory, and prints each one's growth over the idle figures just before (and the
 * figures before the warm-up, so what the warm-up itself took shows); then it
 * times reading one file back.
 *
 *   npx tsx bench/pglite-upload-memory.ts [--stock-bytea] [--random]
 *
 * `--stock-bytea` puts back PGlite's own bytea serializer/parser (hex text built per byte) instead
 * of the binary parameters `openDatabase` sets up (`useBinaryBytea`): the figures before the fix.
 * `--random` uploads random (incompressible) bytes instead of mostly zeros (TOAST compresses those).
 */
import { randomFillSync } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { PGlite, types } from "@electric-sql/pglite";
import { openDatabase, PGLITE_EXTENSIONS } from "../app/db/client.server";
import { createDatabaseFileStore } from "../app/features/files/database-store.server";

const { values } = parseArgs({ options: { "stock-bytea": { type: "boolean" }, random: { type: "boolean" } } });
const MB = 1024 * 1024;
const SIZE = 25 * MB - 1024;
const PIECE = 64 * 1024;

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pglite-upload-memory-"));
const client = await PGlite.create(path.join(dir, "pglite"), { extensions: PGLITE_EXTENSIONS });
const handle = await openDatabase({ pglite: client });
await handle.migrate();
if (values["stock-bytea"]) {
  client.serializers[types.BYTEA] = types.serializers[types.BYTEA]!;
  client.parsers[types.BYTEA] = types.parsers[types.BYTEA]!;
}
const store = createDatabaseFileStore(handle.db);

type Sample = Record<"rss" | "heapUsed" | "external" | "arrayBuffers" | "wasm", number>;
function sample(): Sample {
  const m = process.memoryUsage();
  // PGlite keeps its Emscripten module in a protected field; its HEAPU8 spans the whole WebAssembly memory.
  const wasm = (client as unknown as { mod?: { HEAPU8: Uint8Array } }).mod?.HEAPU8.length ?? NaN;
  return { rss: m.rss / MB, heapUsed: m.heapUsed / MB, external: m.external / MB, arrayBuffers: m.arrayBuffers / MB, wasm: wasm / MB };
}
const show = (s: Sample) =>
  Object.entries(s)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(", ");

const file = new Uint8Array(SIZE);
if (values.random) randomFillSync(file);
else file.set(new TextEncoder().encode("%PDF-1.4\n%bench\n"));
async function* upload(): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < SIZE; offset += PIECE) {
    yield file.subarray(offset, offset + PIECE);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

try {
  const cold = sample();
  await store.put("warm-up", upload(), "application/pdf");
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const idle = sample();
  const peak = { ...idle };
  const timer = setInterval(() => {
    const now = sample();
    for (const k of Object.keys(now) as (keyof Sample)[]) peak[k] = Math.max(peak[k], now[k]);
  }, 20);
  const started = performance.now();
  await Promise.all([0, 1, 2, 3].map((i) => store.put(`upload-${i}`, upload(), "application/pdf")));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  const readStarted = performance.now();
  let read = 0;
  for await (const part of (await store.get("upload-0"))! as unknown as AsyncIterable<Uint8Array>) read += part.length;
  const readSeconds = (performance.now() - readStarted) / 1000;
  const growth = Object.fromEntries(Object.keys(peak).map((k) => [k, peak[k as keyof Sample] - idle[k as keyof Sample]])) as Sample;
  console.log(
    `bytea: ${values["stock-bytea"] ? "PGlite's hex text" : "binary"}; content: ${values.random ? "random" : "zeros"}; load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  console.log(`before the warm-up upload, MB: ${show(cold)}`);
  console.log(`idle MB:   ${show(idle)}`);
  console.log(`peak MB:   ${show(peak)}`);
  console.log(`growth MB: ${show(growth)}`);
  console.log(`4 × 25 MB written in ${seconds.toFixed(1)} s; ${(read / MB).toFixed(0)} MB read back in ${readSeconds.toFixed(1)} s`);
} finally {
  await handle.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
