import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

/**
 * Shared chunks that follow the route tree (issue #29, bench/results/portal-js.md): every app module
 * the root route imports (statically, through any chain) goes into one chunk with them — every page
 * loads these anyway, so a page loads no byte more, in one request instead of one per small module
 * (Rollup adds the React Router code only they use). Per-area chunks were tried: the areas' layouts
 * import nothing that another area or the sign-in pages do not import too, so none formed. Other
 * modules keep Rollup's default chunking (one chunk per set of routes that import it).
 */
function routeTreeChunk(
  id: string,
  { getModuleInfo }: { getModuleInfo: (id: string) => { importers: readonly string[] } | null },
): string | undefined {
  const file = (moduleId: string) => path.relative(process.cwd(), moduleId.split("?")[0]!);
  if (file(id).startsWith("..") || file(id).includes("node_modules") || file(id).startsWith("app/routes/") || file(id) === "app/root.tsx")
    return undefined;
  const seen = new Set<string>([id]);
  const stack = [id];
  while (stack.length > 0) {
    for (const importer of getModuleInfo(stack.pop()!)?.importers ?? []) {
      if (file(importer) === "app/root.tsx") return "root-shared";
      if (!seen.has(importer)) {
        seen.add(importer);
        stack.push(importer);
      }
    }
  }
  return undefined;
}

/**
 * Dependencies Vite bundles into the SSR build itself. scripts/build-server.ts then bundles the SSR
 * build with the rest of the server's dependencies (issue #42: Node's module loader costs ≈ 0.8 ms
 * of CPU per file), so what this list still decides is which packages share Vite's copy of a
 * package that Vite inlines: every package that imports better-auth is in the list, so there is one
 * copy of it, and @react-router/node is, so that it imports the app's react-router (the production
 * build aliased below) rather than a second copy. The others were bundled here first (issue #42)
 * and are kept: bundled either way. Build only: `npm run dev` keeps them external (Vite's
 * dependency pre-bundling).
 */
const SERVER_BUNDLED = [
  /^date-fns(\/|$)/,
  /^@date-fns\//,
  /^culori(\/|$)/,
  /^better-auth(\/|$)/,
  /^@better-auth\//,
  /^better-call(\/|$)/,
  /^kysely(\/|$)/,
  /^jose(\/|$)/,
  /^@react-router\/node(\/|$)/,
];

export default defineConfig(({ command }) => ({
  // The SSR bundle's entry is our express sub-app (server/app.ts), so the server, the
  // routes and the typed context keys share one module graph (one instance of each).
  // Terser (three compress passes) instead of esbuild minifies the browser bundle: a few KB gzipped
  // less per portal page (bench/results/portal-js.md). Set at the
  // top level because Vite 7's terser plugin reads the top-level `build.minify`; the server bundle
  // stays unminified (readable stack traces in the logs).
  // No gzip of every chunk just to print its size (the build log's size column): CPU the build
  // spends for nothing (scripts/compress-assets.ts makes the files served), issue #42.
  build: { minify: "terser", terserOptions: { compress: { passes: 3 } }, reportCompressedSize: false },
  ...(command === "build" ? { ssr: { noExternal: SERVER_BUNDLED } } : {}),
  environments: {
    ssr: { build: { minify: false, rollupOptions: { input: "./server/app.ts" } } },
    client: { build: { rollupOptions: { output: { manualChunks: routeTreeChunk } } } },
  },
  resolve: {
    alias: [
      { find: /^#app\/(.*)$/, replacement: `${path.resolve("app")}/$1` },
      // React Router's package resolves to its development build (no "production" export
      // condition); the production build drops the development warnings. `npm run dev` keeps the
      // development build (its warnings, and Vite's dependency pre-bundling of "react-router").
      ...(command === "build"
        ? [
            { find: /^react-router$/, replacement: path.resolve("node_modules/react-router/dist/production/index.mjs") },
            { find: /^react-router\/dom$/, replacement: path.resolve("node_modules/react-router/dist/production/dom-export.mjs") },
          ]
        : []),
    ],
  },
  plugins: [tailwindcss(), reactRouter()],
}));
