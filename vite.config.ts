import path from "node:path";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * The browser bundle runs on Preact (preact/compat) instead of React DOM; the server keeps
 * rendering with React (`react-dom/server`) and Preact hydrates that HTML.
 *
 * Why: the portal's first-load JavaScript budget is 110 KB gzipped per page
 * (bench/results/portal-js.md). React DOM's client (≈ 67 KB gz) plus React and React Router
 * (≈ 43 KB gz) alone fill it; preact/compat implements every React API React Router and the
 * app use (React Router 7 needs only Children, Component, Fragment, Suspense, cloneElement,
 * createContext, createElement, forwardRef, isValidElement, memo, startTransition, the hooks
 * and ReactDOM.flushSync) in ≈ 10 KB gz.
 *
 * Only the client environment of `vite build` is redirected (the `ssr` environment and
 * `npm run dev` keep React, so the dev server still reports React's hydration warnings);
 * tests/e2e/portal-js.spec.ts checks that hydrating React's server HTML with Preact leaves
 * the document as the server rendered it.
 */
function preactInBrowserBuild(): Plugin {
  const targets: Record<string, string> = {
    react: "preact/compat",
    "react-dom": "preact/compat",
    // Preact's hydrateRoot wrapped for React Router (see the file).
    "react-dom/client": path.resolve("app/lib/preact-dom-client.ts"),
    "react/jsx-runtime": "preact/compat/jsx-runtime",
    "react/jsx-dev-runtime": "preact/compat/jsx-dev-runtime",
  };
  return {
    name: "preact-in-browser-build",
    apply: "build",
    enforce: "pre",
    applyToEnvironment: (environment) => environment.name === "client",
    resolveId(source, importer, options) {
      const target = targets[source];
      return target ? this.resolve(target, importer, { ...options, skipSelf: true }) : null;
    },
  };
}

export default defineConfig({
  // The SSR bundle's entry is our express sub-app (server/app.ts), so the server, the
  // routes and the typed context keys share one module graph (one instance of each).
  // Terser (three compress passes) instead of esbuild minifies the browser bundle: a few KB gzipped
  // less per portal page, margin under the 110 KB budget (bench/results/portal-js.md). Set at the
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
      // condition); the production build drops the development warnings.
      { find: /^react-router$/, replacement: path.resolve("node_modules/react-router/dist/production/index.mjs") },
      { find: /^react-router\/dom$/, replacement: path.resolve("node_modules/react-router/dist/production/dom-export.mjs") },
    ],
  },
  plugins: [preactInBrowserBuild(), tailwindcss(), reactRouter()],
});
