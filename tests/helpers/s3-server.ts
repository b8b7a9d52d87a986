/**
 * A local S3-compatible server for tests and benchmarks (s3rver, in this process, on a free port,
 * with a fresh directory): the S3 `FileStore` is tested against it with the real AWS SDK, never a
 * mock of the SDK.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
// s3rver ships no types: the few members used here.
// @ts-expect-error -- untyped CommonJS module
import S3rver from "s3rver";

/** A running local S3 server with one bucket. */
export interface LocalS3 {
  endpoint: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 with bucket `bucket` (3+ characters). */
export async function startLocalS3(bucket = "portal-files"): Promise<LocalS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), "s3rver-"));
  const server = new S3rver({ address: "127.0.0.1", port: 0, silent: true, directory, configureBuckets: [{ name: bucket }] }) as {
    run(): Promise<{ port: number }>;
    close(): Promise<void>;
  };
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucket,
    // s3rver's fixed credentials.
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    async stop() {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
