/**
 * The layer rules of eslint.config.js report a wrong import: the fixture is a shared
 * component that imports the database and a feature (it is excluded from `npm run lint`).
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

describe("lint layer rules", () => {
  it("report a component importing the database and a feature", async () => {
    const eslint = new ESLint({ ignore: false });
    const [result] = await eslint.lintFiles(["tests/lint/fixtures/components/wrong-import.tsx"]);
    const layerErrors = result!.messages.filter((m) => m.ruleId === "no-restricted-imports").map((m) => m.message);
    expect(layerErrors).toHaveLength(2);
    expect(layerErrors[0]).toContain("'#app/db/schema' import is restricted");
    expect(layerErrors[1]).toContain("'#app/features/users/actor' import is restricted");
  });

  it("pass on the app's own code", async () => {
    const eslint = new ESLint();
    const results = await eslint.lintFiles(["app/components", "app/lib", "app/db"]);
    expect(results.flatMap((r) => r.messages.filter((m) => m.ruleId === "no-restricted-imports"))).toEqual([]);
  });
});
