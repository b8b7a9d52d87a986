/**
 * A GET whose answer is kept as sent: headers as received and the body's bytes still encoded
 * (fetch would decode gzip and brotli), for tests and benchmarks that compare encodings.
 */
import http from "node:http";

/** A raw answer: parsed headers, the header list as received (name, value, name, value …), and the body's bytes. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

/**
 * @param url - absolute http URL.
 * @param headers - request headers (e.g. `accept-encoding`).
 * @throws the connection's error.
 */
export function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res
          .on("data", (c: Buffer) => chunks.push(c))
          .on("end", () =>
            resolve({ status: res.statusCode ?? 0, headers: res.headers, rawHeaders: res.rawHeaders, body: Buffer.concat(chunks) }),
          )
          .on("error", reject);
      })
      .on("error", reject);
  });
}
