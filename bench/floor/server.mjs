#!/usr/bin/env node
/**
 * The framework floor (issue #42): a minimal React Router 7 framework-mode app served the way the
 * app's own server serves its pages — express, compression at level 3, React Router's request
 * handler, the response streamed back with @react-router/node — with the same installed versions
 * of react, react-dom, react-router, @react-router/node, express and compression (the repository's
 * node_modules). Its one page (app/routes/table.tsx) is a 25-row table with 5 links per row inside a
 * portal-like layout, from in-memory data: no database, no session, no middleware of ours. What a
 * portal page costs above it is ours.
 *
 *   npx react-router build bench/floor          # → bench/floor/build (bench/portal-scale.ts does it)
 *   PORT=4100 node bench/floor/server.mjs       # GET / is the page, GET /healthz answers ok
 *
 * Plain JavaScript (no tsx loader in the measured process).
 */
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeReadableStreamToWritable } from "@react-router/node";
import compression from "compression";
import express from "express";
import { createRequestHandler } from "react-router";

const here = path.dirname(fileURLToPath(import.meta.url));
const build = await import(pathToFileURL(path.join(here, "build/server/index.js")).href);
const handle = createRequestHandler(build, "production");

const app = express();
app.disable("x-powered-by");
app.use(compression({ level: 3 }));
app.use("/assets", express.static(path.join(here, "build/client/assets"), { immutable: true, maxAge: "1y" }));
app.get("/healthz", (_req, res) => {
  res.type("text/plain").send("ok");
});
app.all("/{*splat}", async (req, res, next) => {
  try {
    const controller = new AbortController();
    res.on("close", () => controller.abort());
    const headers = new Headers();
    for (const [key, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(key, v);
      else if (value !== undefined) headers.set(key, value);
    }
    const request = new Request(`http://${req.get("host") ?? "localhost"}${req.originalUrl}`, {
      method: req.method,
      headers,
      signal: controller.signal,
    });
    const response = await handle(request);
    res.status(response.status);
    for (const [key, value] of response.headers.entries()) {
      if (key === "set-cookie") res.append(key, value);
      else res.setHeader(key, value);
    }
    if (response.body) await writeReadableStreamToWritable(response.body, res);
    else res.end();
  } catch (error) {
    next(error);
  }
});

const port = Number(process.env.PORT ?? 4100);
app.listen(port, process.env.HOST ?? "127.0.0.1", () => console.log(`floor listening on ${port}`));
