/**
 * `npm run build`'s last step (`npm run build:server`): bundles the server with its dependencies so
 * that a start of the built app loads a few files instead of ≈ 1,600 from node_modules (issue #42:
 * Node's module loader costs ≈ 0.8 ms of CPU per file; the browser tests start the built app ≈ 45
 * times per `npm test`; bench/results/test-speed.md has the figures).
 *
 * Input: `server/main.ts` and Vite's SSR build (`build/server/index.js`, which imports its
 * `assets/` chunks and the packages Vite left external). Output, in `build/server/`: `main.js`,
 * `index.js` (replacing Vite's) and their shared code in `chunks/`, one copy of each module for
 * both (one express; one react-router, the production build as vite.config.ts aliases it), so
 * `main.js` and `index.js` share one module graph as before. Modules imported only dynamically keep
 * their own chunk (loaded when used). Vite's `assets/` chunks are removed: nothing imports them any more.
 *
 * Kept external (loaded from node_modules at run time) are the packages that cannot be bundled:
 * native addons, packages that read files next to their own at run time, optional peers that are
 * not installed, and development-only ones (see EXTERNAL). Stack traces stay readable: nothing is
 * minified.
 *
 *   npx tsx scripts/build-server.ts
 *
 * Exits non-zero (with esbuild's messages) when the bundle does not build.
 */
import fs from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const OUT_DIR = "build/server";

/** Packages (and their subpaths) loaded from node_modules at run time instead of bundled. */
const EXTERNAL = [
  // A native addon (.node binaries per platform).
  "sharp",
  // Loads its .wasm and .data files next to its own with import.meta.url.
  "@electric-sql/pglite",
  // Reads its standard fonts' metric files (data/*.afm) next to its own with fs.
  "pdfkit",
  // pg's optional native binding, required only when asked for (never here) and not installed.
  "pg-native",
  // pino: its transports run worker files by path; pino-pretty (development only) is loaded with
  // createRequire when LOG_FORMAT=pretty.
  "pino",
  "pino-pretty",
  // Development only: server/main.ts imports Vite when NODE_ENV is not production.
  "vite",
  // CommonJS packages the app imports only dynamically (`await import(…)`): esbuild's chunk of one
  // exports only `default` (esbuild issue #3245, with splitting), so `{ simpleParser }` would be
  // undefined; loaded from node_modules, Node gives the named exports. checkDynamicChunks() below
  // fails the build when one is missing here.
  "mailparser",
].flatMap((name) => [name, `${name}/*`]);

/** Bundled CommonJS modules require Node's built-in modules: an ES module has no `require` of its own. */
const BANNER =
  'import { createRequire as __bundleCreateRequire } from "node:module"; const require = __bundleCreateRequire(import.meta.url);';

/**
 * Bundles the server into OUT_DIR (see the file's comment).
 *
 * @throws the esbuild error when the bundle does not build; an Error when `build/server/index.js` is
 *   not Vite's SSR build (missing, or this script's output already).
 */
async function buildServer(): Promise<void> {
  const viteEntry = path.join(OUT_DIR, "index.js");
  if (!fs.existsSync(viteEntry) || fs.readFileSync(viteEntry, "utf8").startsWith(BANNER))
    throw new Error(`${viteEntry} is not Vite's SSR build (missing, or bundled already): run \`npm run build\`.`);
  // Vite's output is read from a folder of its own: the bundle replaces index.js, and its chunks/
  // would otherwise sit beside an older bundle's.
  const input = fs.mkdtempSync(path.join(OUT_DIR, ".vite-ssr-"));
  try {
    fs.renameSync(viteEntry, path.join(input, "index.js"));
    const viteAssets = path.join(OUT_DIR, "assets");
    if (fs.existsSync(viteAssets)) fs.renameSync(viteAssets, path.join(input, "assets"));
    fs.rmSync(path.join(OUT_DIR, "chunks"), { recursive: true, force: true });
    await build({
      entryPoints: { main: "server/main.ts", index: path.join(input, "index.js") },
      bundle: true,
      splitting: true,
      platform: "node",
      format: "esm",
      target: "node20",
      outdir: OUT_DIR,
      chunkNames: "chunks/[name]-[hash]",
      external: EXTERNAL,
      // @react-router/node imports "react-router": the same production build as the app's (vite.config.ts).
      alias: { "react-router": path.resolve("node_modules/react-router/dist/production/index.mjs") },
      banner: { js: BANNER },
      logLevel: "warning",
      // Vite's chunks repeat a bare `import "pkg"` of each package their modules import; for packages
      // marked side-effect free esbuild drops it, rightly, and would warn ≈ 140 times.
      logOverride: { "ignored-bare-import": "silent" },
    });
  } finally {
    fs.rmSync(input, { recursive: true, force: true });
  }
  checkDynamicChunks();
}

/**
 * Fails on a chunk that holds a CommonJS module loaded with `import()` (esbuild issue #3245): such a
 * chunk ends in `export default require_<name>();` and has no named exports, unlike the package
 * loaded by Node, so the app's `const { x } = await import("pkg")` would get undefined at run time.
 *
 * @throws an Error naming the chunks: add their packages to EXTERNAL.
 */
function checkDynamicChunks(): void {
  const dir = path.join(OUT_DIR, "chunks");
  const bad = fs
    .readdirSync(dir)
    .filter((name) => /^export default require_\w+\(\);$/m.test(fs.readFileSync(path.join(dir, name), "utf8")));
  if (bad.length > 0)
    throw new Error(
      `CommonJS modules loaded with import() in ${bad.join(", ")}: add their packages to EXTERNAL in scripts/build-server.ts.`,
    );
}

await buildServer();
