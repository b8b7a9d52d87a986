/**
 * One storage test for both `FileStore` implementations (ADR 011): the database store on PGlite and
 * PostgreSQL, and the S3 store against a local S3-compatible server (s3rver) through the real SDK.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDatabases } from "../../../tests/helpers/db";
import { startLocalS3, type LocalS3 } from "../../../tests/helpers/s3-server";
import { createDatabaseFileStore, CHUNK_BYTES } from "./database-store.server";
import type { FileStore } from "./file-store";
import { createS3FileStore } from "./s3-store.server";

async function* pieces(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

async function readAll(stream: ReadableStream<Uint8Array> | null): Promise<Buffer> {
  if (!stream) throw new Error("no such object");
  const parts: Uint8Array[] = [];
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) parts.push(part);
  return Buffer.concat(parts);
}

const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

/** The behaviour every store must have. */
function storageContract(name: string, open: () => Promise<{ store: FileStore; close(): Promise<void> }>) {
  describe(`file store: ${name}`, () => {
    let store: FileStore;
    let close: () => Promise<void>;
    beforeAll(async () => {
      ({ store, close } = await open());
    });
    afterAll(async () => close());

    it("round-trips bytes written in odd pieces, larger than one chunk, and reads ranges", async () => {
      const bytes = randomBytes(CHUNK_BYTES * 2 + 12_345);
      const before = await store.count();
      expect(await store.put("roundtrip-1", pieces(bytes, 65_537), "application/octet-stream")).toEqual({ size: bytes.length });
      expect(await store.count()).toBe(before + 1);
      expect(sha(await readAll(await store.get("roundtrip-1")))).toBe(sha(bytes));
      for (const [start, end] of [
        [0, 0],
        [10, 99],
        [CHUNK_BYTES - 5, CHUNK_BYTES + 5],
        [CHUNK_BYTES * 2, bytes.length - 1],
      ] as const) {
        expect(Buffer.compare(await readAll(await store.get("roundtrip-1", { start, end })), bytes.subarray(start, end + 1))).toBe(0);
      }
      await store.delete("roundtrip-1");
      expect(await store.get("roundtrip-1")).toBeNull();
      expect(await store.count()).toBe(before);
      await store.delete("roundtrip-1"); // deleting twice is not an error
    });

    it("leaves only what delete removes when the body fails halfway", async () => {
      const before = await store.count();
      async function* cut() {
        yield randomBytes(1000);
        throw new Error("client went away");
      }
      await expect(store.put("cut-1", cut(), "text/plain")).rejects.toThrow();
      await store.delete("cut-1");
      expect(await store.count()).toBe(before);
    });

    it("answers null for an unknown key", async () => {
      expect(await store.get("no-such-key")).toBeNull();
    });
  });
}

for (const [name, openDb] of testDatabases()) {
  storageContract(`database on ${name}`, async () => {
    const t = await openDb();
    return { store: createDatabaseFileStore(t.db), close: () => t.close() };
  });
}

let s3: LocalS3;
storageContract("S3 (s3rver)", async () => {
  s3 = await startLocalS3();
  return {
    store: createS3FileStore({
      bucket: s3.bucket,
      endpoint: s3.endpoint,
      region: "us-east-1",
      accessKeyId: s3.accessKeyId,
      secretAccessKey: s3.secretAccessKey,
    }),
    close: () => s3.stop(),
  };
});
