// ESLint: typescript-eslint, React hooks, and the layers of the app (docs/architecture.md).
//   routes → features → lib / db / components / content
// - features never import routes;
// - components (shared UI) never import the database or a feature;
// - lib never imports features or routes;
// - db imports nothing of the app above it (features, routes, components); it may use lib (e.g. the logger).
import js from "@eslint/js";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

/** `no-restricted-imports` patterns for the given app folders, by alias and by relative path. */
function forbid(folders, why) {
  return {
    "no-restricted-imports": [
      "error",
      {
        patterns: folders.map((folder) => ({
          regex: `^(#app/|(\\.\\./)+(app/)?)${folder}/`,
          message: why,
        })),
      },
    ],
  };
}

/** Layer rules apply to the app's code; tests are integration tests across the layers. */
const layer = (folder, folders, why) => ({
  files: [`${folder}/**`],
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
  layer("app/lib", ["features", "routes"], "app/lib is below the features: take what you need as a parameter."),
  layer("app/db", ["features", "routes", "components"], "app/db imports nothing of the app above it."),
  // The lint test's fixture (tests/lint/): a shared component that imports a feature.
  layer(
    "tests/lint/fixtures/components",
    ["db", "features", "routes"],
    "Shared components never import the database, a feature or a route.",
  ),
);
