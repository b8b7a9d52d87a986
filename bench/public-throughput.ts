/**
 * Throughput of `/` and `/project3` from our server vs nginx serving the same HTML files,
 * side by side in one run (target ratio ≥ 0.5). Same load: autocannon, 50
 * connections, 10 s each; once asking for gzip (both send the same precompressed bytes:
 * nginx `gzip_static`, our page cache's level-9 gzip) and once uncompressed.
 *
 *   npm run build && npx tsx bench/public-throughput.ts
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import autocannon from "autocannon";
import { freePort, startApp, writeResults } from "./lib/server";

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;

async function load(url: string, encoding: string) {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION, headers: { "accept-encoding": encoding } });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function main() {
  if (spawnSync("nginx", ["-v"]).error) throw new Error("nginx is missing: apt-get install -y nginx-light");
  const app = await startApp();
  await new Promise((r) => setTimeout(r, 2_000)); // let the page cache warm
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "nginx-bench-"));
  const pages = ["/", "/project3"];
  for (const page of pages) {
    const html = Buffer.from(await (await fetch(`${app.baseUrl}${page}`, { headers: { "accept-encoding": "identity" } })).arrayBuffer());
    const file = path.join(root, page === "/" ? "index.html" : `${page.slice(1)}.html`);
    fs.writeFileSync(file, html);
    fs.writeFileSync(`${file}.gz`, gzipSync(html, { level: 9 }));
  }
  const nginxPort = await freePort();
  fs.writeFileSync(
    path.join(root, "nginx.conf"),
    `worker_processes auto; daemon off; pid ${root}/nginx.pid; error_log ${root}/error.log;
events { worker_connections 1024; }
http { access_log off; sendfile on; gzip_static on;
  client_body_temp_path ${root}; proxy_temp_path ${root}; fastcgi_temp_path ${root}; uwsgi_temp_path ${root}; scgi_temp_path ${root};
  server { listen 127.0.0.1:${nginxPort}; root ${root}; default_type text/html;
    location = / { try_files /index.html =404; }
    location / { try_files $uri.html =404; } } }\n`,
  );
  const nginx = spawn("nginx", ["-c", path.join(root, "nginx.conf"), "-p", root], { stdio: "inherit" });
  await new Promise((r) => setTimeout(r, 1_000));

  const rows: string[] = [];
  try {
    for (const [page, encoding] of pages.flatMap(
      (p) =>
        [
          [p, "gzip"],
          [p, "identity"],
        ] as const,
    )) {
      const ours = await load(`${app.baseUrl}${page}`, encoding);
      const theirs = await load(`http://127.0.0.1:${nginxPort}${page}`, encoding);
      rows.push(
        `| \`${page}\` | ${encoding} | ${ours.rps.toFixed(0)} | ${theirs.rps.toFixed(0)} | **${(ours.rps / theirs.rps).toFixed(2)}** | ${ours.p50} / ${ours.p99} | ${theirs.p50} / ${theirs.p99} | ${ours.errors} / ${theirs.errors} |`,
      );
      console.log(rows.at(-1));
    }
  } finally {
    nginx.kill("SIGTERM");
    await app.stop();
    fs.rmSync(root, { recursive: true, force: true });
  }
  const file = writeResults(
    "public-throughput",
    "Public pages: our server vs nginx (same HTML)",
    "npm run build && npx tsx bench/public-throughput.ts",
    `${CONNECTIONS} connections, ${DURATION} s per target, autocannon in the same process as the runner, both servers on this machine (nginx: worker_processes auto, gzip_static on with the file gzipped at level 9; ours: one Node process, pages prerendered in memory and answered before express, full security headers). Each row asks both servers for the same encoding, so both send the same bytes.

| page | encoding | ours req/s | nginx req/s | ratio (target ≥ 0.5) | ours p50/p99 ms | nginx p50/p99 ms | errors ours/nginx |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`,
  );
  console.log(`wrote ${file}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
