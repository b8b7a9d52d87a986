/**
 * Chooses the `FileStore` from the configuration (ADR 011): S3 when `S3_BUCKET` is set, else the
 * database. The S3 store (and with it the AWS SDK, ≈ 1.5 MB of code) is loaded only when chosen:
 * each start of a server without S3 saves that loading (issue #42).
 */
import type { Database } from "#app/db/client.server";
import type { Env } from "#app/lib/env.server";
import { createDatabaseFileStore } from "./database-store.server";
import type { FileStore } from "./file-store";

/** @returns the store the server uses for shared files. */
export async function createFileStore(
  env: Pick<Env, "S3_BUCKET" | "S3_ENDPOINT" | "S3_REGION" | "S3_ACCESS_KEY_ID" | "S3_SECRET_ACCESS_KEY">,
  db: Database,
): Promise<FileStore> {
  if (!env.S3_BUCKET) return createDatabaseFileStore(db);
  const { createS3FileStore } = await import("./s3-store.server");
  return createS3FileStore({
    bucket: env.S3_BUCKET,
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
  });
}
