// ESLint: typescript-eslint, React hooks, and the layers of the app (docs/architecture.md).
//   routes → features → context.ts → lib / db / components / content
// - features never import routes;
// - components (shared UI) never import the database or a feature;
// - context.ts (the services' router context key) imports only db and lib types, never a feature: a
//   feature's own service has its own key in the feature (authContext, filesContext);
// - lib never imports features, routes or context.ts (its request facts are in lib/request-info.ts), so
//   it cannot reach a feature through the context module either;
// - db imports nothing of the app above it (features, routes, components, context); it may use lib (e.g. the logger).
// Type-only imports count too. tests/lint/layers.test.ts checks that a wrong import is reported and that
// the app has no import circle (scripts/import-cycles.ts).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** `no-restricted-imports` patterns for the given app folders (or modules, e.g. `context`), by alias and by relative path. */
function forbid(folders, why) {
  return {
    "no-restricted-imports": [
      "error",
      {
        patterns: folders.map((folder) => ({
          regex: `^(#app/|\\./|(\\.\\./)+(app/)?)${folder}(/|$)`,
          message: why,
        })),
      },
    ],
  };
}

/** Layer rules apply to the app's code; tests are integration tests across the layers. */
const layer = (folder, folders, why) => ({
  files: [folder.endsWith(".ts") ? folder : `${folder}/**`],
  ignores: ["**/*.test.ts", "**/*.test.tsx"],
  rules: forbid(folders, why),
});

export default tseslint.config(
  {
    ignores: [
      "build/",
      "node_modules/",
      ".react-router/",
      "data/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      // The framework floor's build output (bench/floor, built by bench/portal-scale.ts).
      "bench/floor/build/",
      "bench/floor/.react-router/",
      "drizzle/",
      "tests/lint/fixtures/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports", disallowTypeAnnotations: false }],
      "no-control-regex": "off",
    },
  },
  {
    files: ["app/**/*.tsx"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      "react-hooks/rules-of-hooks": "error",
      "react-hooks/exhaustive-deps": "error",
    },
  },
  // Playwright fixtures declare their dependencies with an object pattern, empty when there are none.
  { files: ["tests/e2e/**"], rules: { "no-empty-pattern": "off" } },
  layer("app/features", ["routes"], "Features never import routes: move the shared piece into the feature."),
  layer(
    "app/components",
    ["db", "features", "routes"],
    "Shared components take data as props; they never import the database, a feature or a route.",
  ),
  layer(
    "app/context.ts",
    ["features", "routes", "components"],
    "app/context.ts is below the features: a feature's service gets its own context key in the feature.",
  ),
  layer(
    "app/lib",
    ["features", "routes", "context"],
    "app/lib is below the features and the services' context: take what you need as a parameter (request facts: lib/request-info).",
  ),
  layer("app/db", ["features", "routes", "components", "context"], "app/db imports nothing of the app above it."),
);
