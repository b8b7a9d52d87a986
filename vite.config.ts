import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

export default defineConfig(({ command }) => ({
  // The SSR bundle's entry is our express sub-app (server/app.ts), so the server, the
  // routes and the typed context keys share one module graph (one instance of each).
  // Terser (three compress passes) instead of esbuild minifies the browser bundle: a few KB gzipped
  // less per portal page (bench/results/portal-js.md). Set at the
  // top level because Vite 7's terser plugin reads the top-level `build.minify`; the server bundle
  // stays unminified (readable stack traces in the logs).
  build: { minify: "terser", terserOptions: { compress: { passes: 3 } } },
  environments: {
    ssr: { build: { minify: false, rollupOptions: { input: "./server/app.ts" } } },
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
