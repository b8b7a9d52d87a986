import cluster from "node:cluster";
if (cluster.isPrimary) {
  const n = Number(process.env.WEB_CONCURRENCY ?? 2);
  cluster.fork();
  cluster.once("listening", () => { for (let i = 1; i < n; i++) cluster.fork(); });
} else {
  await import("./main.ts");
}
