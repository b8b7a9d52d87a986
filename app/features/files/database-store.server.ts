/**
 * The database `FileStore` (ADR 011): each object is a `file_object` row and its bytes are
 * `file_object_chunk` rows of {@link CHUNK_BYTES}, written one chunk per statement as the upload
 * arrives and read back one chunk per pull — so a 25 MB file is never held in memory whole,
 * works the same on PGlite and PostgreSQL (with any number of app instances), and is part of
 * every database backup.
 */
import { and, count, eq } from "drizzle-orm";
import type { Database } from "#app/db/client.server";
import { fileObject, fileObjectChunk } from "#app/db/schema";
import type { ByteRange, FileStore } from "./file-store";

/** Bytes per stored chunk: large enough for few rows, small enough to keep memory flat. */
export const CHUNK_BYTES = 256 * 1024;

/** @returns a `FileStore` keeping bytes in the app's database. */
export function createDatabaseFileStore(db: Database): FileStore {
  return {
    kind: "database",

    async put(key, body) {
      await db.insert(fileObject).values({ key });
      // One buffer per upload, refilled only once the insert of its bytes has finished (both
      // drivers copy a parameter into their protocol message before the query resolves): no
      // 256 KB garbage per chunk for the garbage collector to catch up with (issue #23).
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      let filled = 0;
      let seq = 0;
      let size = 0;
      const flush = async () => {
        if (filled === 0) return;
        await db.insert(fileObjectChunk).values({ key, seq: seq++, data: buffer.subarray(0, filled) });
        size += filled;
        filled = 0;
      };
      for await (const piece of body) {
        let offset = 0;
        while (offset < piece.length) {
          const n = Math.min(CHUNK_BYTES - filled, piece.length - offset);
          buffer.set(piece.subarray(offset, offset + n), filled);
          filled += n;
          offset += n;
          if (filled === CHUNK_BYTES) await flush();
        }
      }
      await flush();
      await db.update(fileObject).set({ size }).where(eq(fileObject.key, key));
      return { size };
    },

    async get(key, range?: ByteRange) {
      const [object] = await db.select({ size: fileObject.size }).from(fileObject).where(eq(fileObject.key, key));
      if (!object) return null;
      const start = range?.start ?? 0;
      const end = Math.min(range?.end ?? object.size - 1, object.size - 1);
      let seq = Math.floor(start / CHUNK_BYTES);
      const lastSeq = Math.floor(end / CHUNK_BYTES);
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (seq > lastSeq || end < start) return controller.close();
          const [row] = await db
            .select({ data: fileObjectChunk.data })
            .from(fileObjectChunk)
            .where(and(eq(fileObjectChunk.key, key), eq(fileObjectChunk.seq, seq)));
          if (!row) return controller.error(new Error(`file chunk ${seq} of ${key} is missing`));
          const chunkStart = seq * CHUNK_BYTES;
          const from = Math.max(start - chunkStart, 0);
          const to = Math.min(end - chunkStart + 1, row.data.length);
          controller.enqueue(new Uint8Array(row.data.buffer, row.data.byteOffset + from, to - from));
          seq++;
        },
      });
    },

    async delete(key) {
      await db.delete(fileObject).where(eq(fileObject.key, key));
    },

    async count() {
      const [row] = await db.select({ n: count() }).from(fileObject);
      return row!.n;
    },
  };
}
