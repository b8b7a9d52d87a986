/**
 * A raw Server-Sent Events reader for tests and benchmarks: opens `GET <url>` with the given
 * headers and records every frame (event name, id, data) and comment as it arrives, so a test
 * can check what a stream itself carried, not only what a page shows.
 */
import http from "node:http";

/** One frame received. */
export interface SseFrame {
  event: string;
  id?: string;
  data: string;
  /** When it was parsed (ms since the epoch; performance.timeOrigin-based). */
  at: number;
}

export interface SseStream {
  /** The response's status and headers (once received). */
  status: Promise<{ status: number; headers: http.IncomingHttpHeaders }>;
  frames: SseFrame[];
  /** Comment lines (heartbeats). */
  comments: string[];
  /** Resolves when the server ended the stream (or the connection failed). */
  ended: Promise<void>;
  isEnded(): boolean;
  /** Waits for a frame matching `predicate` (already received or future). */
  next(predicate: (frame: SseFrame) => boolean, timeoutMs?: number): Promise<SseFrame>;
  /** `event: live` frames parsed as JSON. */
  updates(): Array<{ id: number; kind: string; entityId: string; proposalId: number | null; data: Record<string, unknown> }>;
  close(): void;
  /** Called for every frame (benchmarks measure arrival times). */
  onFrame?: (frame: SseFrame) => void;
}

/**
 * @param url - e.g. `http://127.0.0.1:3000/events`.
 * @param headers - e.g. `{ cookie, "last-event-id": "12" }`.
 * @param options.agent - an http.Agent (benchmarks: one with enough sockets).
 */
export function openSse(url: string, headers: Record<string, string> = {}, options: { agent?: http.Agent | false } = {}): SseStream {
  const frames: SseFrame[] = [];
  const comments: string[] = [];
  const waiters: Array<{ predicate: (f: SseFrame) => boolean; resolve: (f: SseFrame) => void }> = [];
  let ended = false;
  let resolveEnded!: () => void;
  const endedPromise = new Promise<void>((resolve) => (resolveEnded = resolve));
  let resolveStatus!: (value: { status: number; headers: http.IncomingHttpHeaders }) => void;
  let rejectStatus!: (error: Error) => void;
  const status = new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    resolveStatus = resolve;
    rejectStatus = reject;
  });
  status.catch(() => {});
  const finish = () => {
    if (ended) return;
    ended = true;
    resolveEnded();
  };

  const stream: SseStream = {
    status,
    frames,
    comments,
    ended: endedPromise,
    isEnded: () => ended,
    next(predicate, timeoutMs = 10_000) {
      const found = frames.find(predicate);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no matching SSE frame within ${timeoutMs} ms; got ${JSON.stringify(frames)}`)),
          timeoutMs,
        );
        waiters.push({
          predicate,
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        });
      });
    },
    updates: () => frames.filter((f) => f.event === "live").map((f) => JSON.parse(f.data)),
    close: () => request.destroy(),
  };

  const request = http.get(url, { headers: { accept: "text/event-stream", ...headers }, agent: options.agent }, (res) => {
    resolveStatus({ status: res.statusCode ?? 0, headers: res.headers });
    res.setEncoding("utf8");
    let buffer = "";
    res.on("data", (chunk: string) => {
      buffer += chunk;
      let cut: number;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const frame: SseFrame = { event: "message", data: "", at: performance.timeOrigin + performance.now() };
        let hasField = false;
        for (const line of block.split("\n")) {
          if (line.startsWith(":")) {
            comments.push(line.slice(1).trim());
            continue;
          }
          const colon = line.indexOf(":");
          const name = colon < 0 ? line : line.slice(0, colon);
          const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
          if (name === "event") frame.event = value;
          else if (name === "id") frame.id = value;
          else if (name === "data") frame.data = frame.data ? `${frame.data}\n${value}` : value;
          else continue;
          hasField = true;
        }
        if (!hasField) continue;
        frames.push(frame);
        stream.onFrame?.(frame);
        for (const waiter of [...waiters]) {
          if (waiter.predicate(frame)) {
            waiters.splice(waiters.indexOf(waiter), 1);
            waiter.resolve(frame);
          }
        }
      }
    });
    res.on("end", finish);
    res.on("close", finish);
    res.on("error", finish);
  });
  request.on("error", (error) => {
    rejectStatus(error);
    finish();
  });
  return stream;
}
