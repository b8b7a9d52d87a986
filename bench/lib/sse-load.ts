/**
 * One load-generator process of bench/live-updates.ts (run with `fork`): opens the streams it is
 * given (`GET /events`, one connection each), and reports to its parent over IPC — when all are
 * open, and for every `live` event the time (ms since the epoch, sub-millisecond) each stream
 * received it. It also reports its own CPU time and event-loop delay, to show that the generator
 * is not what limits the measured latency.
 *
 * Messages in: `{ type: "open", streams: [{ url, cookie }] }`, `{ type: "report" }`, `{ type: "close" }`.
 * Messages out: `{ type: "opened", ok, failed }`, `{ type: "report", arrivals, cpuMs, wallMs, loopDelayP99Ms }`.
 */
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { openSse, type SseStream } from "../../tests/helpers/sse";

const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const streams: SseStream[] = [];
/** Per event id: the arrival time on each stream that received it. */
const arrivals = new Map<number, number[]>();
const loop = monitorEventLoopDelay({ resolution: 5 });
let cpuStart = process.cpuUsage();
let wallStart = performance.now();

function send(message: unknown) {
  process.send?.(message);
}

process.on("message", async (message: { type: string; streams?: { url: string; cookie: string }[] }) => {
  if (message.type === "open") {
    let ok = 0;
    let failed = 0;
    const batch = 100;
    const list = message.streams ?? [];
    for (let i = 0; i < list.length; i += batch) {
      await Promise.all(
        list.slice(i, i + batch).map(async ({ url, cookie }) => {
          const stream = openSse(url, { cookie }, { agent });
          stream.onFrame = (frame) => {
            if (frame.event !== "live" || !frame.id) return;
            const id = Number(frame.id);
            let times = arrivals.get(id);
            if (!times) arrivals.set(id, (times = []));
            times.push(frame.at);
          };
          streams.push(stream);
          try {
            if ((await stream.status).status !== 200) throw new Error("refused");
            await stream.next((f) => f.event === "ready", 60_000);
            ok++;
          } catch {
            failed++;
          }
        }),
      );
    }
    arrivals.clear();
    loop.reset();
    loop.enable();
    cpuStart = process.cpuUsage();
    wallStart = performance.now();
    send({ type: "opened", ok, failed });
  } else if (message.type === "report") {
    const cpu = process.cpuUsage(cpuStart);
    send({
      type: "report",
      arrivals: [...arrivals.entries()],
      open: streams.filter((s) => !s.isEnded()).length,
      endings: streams.filter((s) => s.isEnded()).map((s) => s.frames.at(-1)?.data ?? `no frame (${s.frames.length})`),
      cpuMs: (cpu.user + cpu.system) / 1000,
      wallMs: performance.now() - wallStart,
      loopDelayP99Ms: loop.percentile(99) / 1e6,
      loopDelayMaxMs: loop.max / 1e6,
    });
  } else if (message.type === "close") {
    for (const stream of streams) stream.close();
    setTimeout(() => process.exit(0), 200);
  }
});
