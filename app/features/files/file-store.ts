/**
 * The storage of shared files' bytes (docs/product.md#files, ADR 011): one interface, two
 * implementations — the database (default: `database-store.server.ts`, in every backup) and an
 * S3-compatible bucket (`s3-store.server.ts`, when `S3_BUCKET` is set). Metadata (name, type,
 * size, who, which message) lives in the `file` table whatever the store; the store only knows
 * opaque keys.
 */

/** An inclusive byte range, as in an HTTP `Range: bytes=start-end` header. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where shared files' bytes are kept. Every method is safe to call from several instances at once. */
export interface FileStore {
  readonly kind: "database" | "s3";
  /**
   * Writes `body` under a new `key`, reading it chunk by chunk (never the whole file in memory).
   *
   * @returns the number of bytes written.
   * @throws whatever `body` throws (a refused or cut upload): bytes written so far may remain
   *   under `key` until {@link FileStore.delete} is called — the caller always does.
   */
  put(key: string, body: AsyncIterable<Uint8Array>, contentType: string): Promise<{ size: number }>;
  /**
   * @param range - the bytes to read (inclusive), within the object; the whole object when absent.
   * @returns the bytes as a stream (read lazily), or null when there is no such key.
   */
  get(key: string, range?: ByteRange): Promise<ReadableStream<Uint8Array> | null>;
  /** Deletes the key's bytes; a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** How many objects the store holds (tests compare it before and after a refused upload). */
  count(): Promise<number>;
}
