/**
 * The layer rules of eslint.config.js report a wrong import, and the app has no import circle.
 * Each fixture in tests/lint/fixtures is linted as if it were at its place in app/ (so the app's
 * own rules apply, not a copy of them); the fixtures are excluded from `npm run lint`.
 *
 * That the app's own code keeps to the layer rules is checked by `npm run lint` (`eslint .`, part
 * of `npm test`), which runs the same rules on the same files and fails on any of their errors; a
 * case here that linted app/ again with the layer rule cost ≈ 20 s of CPU per run (issue #42).
 */
import { readFileSync } from "node:fs";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";
import { importCycles, importGraph } from "../../scripts/import-cycles";

/** The layer errors ESLint reports for `fixture` linted as the app file `asPath`. */
async function layerErrors(fixture: string, asPath: string): Promise<string[]> {
  const eslint = new ESLint();
  const [result] = await eslint.lintText(readFileSync(`tests/lint/fixtures/${fixture}`, "utf8"), { filePath: asPath });
  return result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
}

describe("lint layer rules", () => {
  it("report a component importing the database and a feature", async () => {
    const errors = await layerErrors("components/wrong-import.tsx", "app/components/wrong-import.tsx");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain("'#app/db/schema' import is restricted");
    expect(errors[1]).toContain("'#app/features/users/actor' import is restricted");
  });

  it("report lib importing the context module, by alias and by relative path, type-only too (the circle through context.ts)", async () => {
    const errors = await layerErrors("lib/request-shortcuts.server.ts", "app/lib/request-shortcuts.server.ts");
    expect(errors).toHaveLength(2);
    expect(errors[0]).toContain("'#app/context' import is restricted");
    expect(errors[1]).toContain("'../context' import is restricted");
  });

  it("report lib reaching a feature by a type-only import, an inline type import and a type re-export", async () => {
    const errors = await layerErrors("lib/auth-type.ts", "app/lib/auth-type.ts");
    expect(errors).toHaveLength(3);
    expect(errors[0]).toContain("'#app/features/users/auth.server' import is restricted");
    expect(errors[1]).toContain("'../features/files/file-store' import is restricted");
    expect(errors[2]).toContain("'#app/features/users/actor' import is restricted");
  });

  it("report the context module importing a feature's type (the arrow that closed the circle upwards)", async () => {
    const errors = await layerErrors("context/context.ts", "app/context.ts");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("'./features/users/auth.server' import is restricted");
  });
});

describe("import circles", () => {
  it("are found, type-only imports included", () => {
    expect(importCycles(importGraph("tests/lint/fixtures/circle"))).toEqual([
      [
        "tests/lint/fixtures/circle/a.ts",
        "tests/lint/fixtures/circle/b.ts",
        "tests/lint/fixtures/circle/c.ts",
        "tests/lint/fixtures/circle/a.ts",
      ],
    ]);
  });

  it("none in the app (type-only imports included)", () => {
    expect(importCycles(importGraph("app"))).toEqual([]);
  });
});
