/**
 * Finds import circles among the app's modules (type-only imports included, tests excluded).
 * Prints each strongly connected group of modules with one circle through it; exits 1 if any.
 *
 *   npx tsx scripts/import-cycles.ts [folder=app]
 *
 * Also used by tests/lint/layers.test.ts (`importCycles`).
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";

const EXTENSIONS = [".ts", ".tsx"];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    if (!EXTENSIONS.some((e) => name.endsWith(e)) || /\.test\.tsx?$/.test(name) || name.endsWith(".d.ts")) return [];
    return [full];
  });
}

/** Resolves a specifier the way tsconfig does (`#app/*` and relative paths); null for packages. */
function resolve(from: string, spec: string, root: string): string | null {
  let base: string;
  if (spec.startsWith("#app/")) base = path.join(root, "app", spec.slice("#app/".length));
  else if (spec.startsWith(".")) base = path.resolve(path.dirname(from), spec);
  else return null;
  for (const candidate of [base, ...EXTENSIONS.map((e) => base + e), ...EXTENSIONS.map((e) => path.join(base, "index" + e))]) {
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** The app's import graph: module → modules it imports (type-only imports and re-exports included). */
export function importGraph(folder = "app", root = process.cwd()): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(path.join(root, folder))) {
    const info = ts.preProcessFile(readFileSync(file, "utf8"), true, true);
    const targets = info.importedFiles
      .map((f) => resolve(file, f.fileName, root))
      .filter((t): t is string => t !== null && !/\.test\.tsx?$/.test(t));
    graph.set(path.relative(root, file), [...new Set(targets.map((t) => path.relative(root, t)))]);
  }
  return graph;
}

/** Strongly connected groups of more than one module (or a module importing itself), each with one circle through it. */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  const visit = (v: string) => {
    indices.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indices.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || (graph.get(v) ?? []).includes(v)) groups.push(group);
    }
  };
  for (const v of [...graph.keys()].sort()) if (!indices.has(v)) visit(v);
  return groups.map((group) => circleThrough(group, graph));
}

/** One circle within a strongly connected group, starting at its first module in sort order. */
function circleThrough(group: string[], graph: Map<string, string[]>): string[] {
  const inGroup = new Set(group);
  const start = [...group].sort()[0]!;
  // Breadth-first search back to start, staying in the group.
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const circle = [v];
        while (circle[0] !== start) circle.unshift(previous.get(circle[0]!)!);
        return [...circle, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const cycles = importCycles(importGraph(process.argv[2] ?? "app"));
  for (const circle of cycles) console.log(circle.join("\n  → "), "\n");
  console.log(cycles.length === 0 ? "No import circle." : `${cycles.length} import circle group(s).`);
  process.exit(cycles.length === 0 ? 0 : 1);
}
