/**
 * The S3 `FileStore` (ADR 011): objects in one bucket of any S3-compatible service, through the
 * official AWS SDK v3 (`@aws-sdk/client-s3`; uploads of unknown length with `@aws-sdk/lib-storage`,
 * which sends one 5 MB part at a time, so memory stays flat). Chosen when `S3_BUCKET` is set.
 */
import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  S3Client,
  type ListObjectsV2CommandOutput,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import type { FileStore } from "./file-store";

/** Where the bucket is and how to reach it (the `S3_*` variables, README "Configuration"). */
export interface S3StoreOptions {
  bucket: string;
  /** An S3-compatible service's URL (MinIO, R2, …); unset → AWS. Path-style addressing is used when set. */
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/** A transform keeping bytes `start`…`end` (inclusive) of a stream. */
function slice(start: number, end: number): TransformStream<Uint8Array, Uint8Array> {
  let offset = 0;
  return new TransformStream({
    transform(chunk, controller) {
      const from = Math.max(start - offset, 0);
      const to = Math.min(end + 1 - offset, chunk.length);
      if (from < to) controller.enqueue(chunk.subarray(from, to));
      offset += chunk.length;
    },
  });
}

/** Bytes per uploaded part (S3's minimum for all but the last). */
const PART_BYTES = 5 * 1024 * 1024;

/** @returns a `FileStore` keeping bytes in an S3 bucket. */
export function createS3FileStore(options: S3StoreOptions): FileStore {
  const client = new S3Client({
    region: options.region,
    endpoint: options.endpoint,
    forcePathStyle: options.endpoint !== undefined,
    credentials:
      options.accessKeyId && options.secretAccessKey
        ? { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey }
        : undefined,
  });
  const Bucket = options.bucket;
  return {
    kind: "s3",

    async put(key, body, contentType) {
      let size = 0;
      const counted = Readable.from(
        (async function* () {
          for await (const piece of body) {
            size += piece.length;
            yield piece;
          }
        })(),
      );
      const upload = new Upload({
        client,
        params: { Bucket, Key: key, Body: counted, ContentType: contentType },
        partSize: PART_BYTES,
        queueSize: 1,
        leavePartsOnError: false,
      });
      await upload.done();
      return { size };
    },

    async get(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({ Bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end}` : undefined }),
        );
        if (!answer.Body) return null;
        const body = answer.Body.transformToWebStream() as ReadableStream<Uint8Array>;
        if (!range) return body;
        // A server may serve more than the range asked (HTTP allows ignoring it; s3rver answers
        // `bytes=0-0` with the whole object): cut what came to the range.
        const served = /^bytes (\d+)-(\d+)\//.exec(answer.ContentRange ?? "");
        const servedStart = served ? Number(served[1]) : 0;
        const servedEnd = served ? Number(served[2]) : Number.POSITIVE_INFINITY;
        if (servedStart === range.start && servedEnd === range.end) return body;
        return body.pipeThrough(slice(range.start - servedStart, range.end - servedStart));
      } catch (error) {
        if (error instanceof NoSuchKey || (error as { name?: string }).name === "NoSuchKey") return null;
        throw error;
      }
    },

    async delete(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: key }));
    },

    async count() {
      let n = 0;
      let token: string | undefined;
      do {
        const page: ListObjectsV2CommandOutput = await client.send(new ListObjectsV2Command({ Bucket, ContinuationToken: token }));
        n += page.KeyCount ?? 0;
        token = page.IsTruncated ? page.NextContinuationToken : undefined;
      } while (token);
      return n;
    },
  };
}
