/**
 * The import boundary between pipelines/ and api/ (api/README.md, pipelines/contract/README.md):
 * - api/ imports from pipelines/ only the contract (pipelines/contract/); the composition root api/server.ts
 *   may also wire the live weather source, the in-process scheduler and the warehouse build; test files may also use the
 *   pipelines' test helpers, HTTP client and test server, feeds, catalogs and replay runner (TEST_ALLOWED);
 * - pipelines/contract/ imports nothing else of pipelines/ (nor api/);
 * - a verdict (api/verdicts/) never imports a route;
 * - api/ has no import cycle.
 * Imports are read with the TypeScript parser (static, dynamic and type-only imports, and re-exports).
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const API = join(ROOT, "api");
const PIPELINES = join(ROOT, "pipelines");
const CONTRACT = join(PIPELINES, "contract");

/** api/ modules (besides pipelines/contract/) that may import from pipelines/, and what. */
const COMPOSITION_ROOT: Record<string, readonly string[]> = {
  "api/server.ts": [
    "pipelines/feeds/weather-alerts-live.ts",
    "pipelines/runner/scheduler.ts",
    "pipelines/feeds/index.ts",
    "pipelines/lib/warehouse/build-process.ts",
  ],
};

/** What a test file under api/ may import from pipelines/ besides the contract (folders end with a slash). */
export const TEST_ALLOWED: readonly string[] = [
  "pipelines/lib/testing/",
  "pipelines/lib/http/client.ts",
  "pipelines/lib/http/test-server.ts",
  "pipelines/lib/probe/window.ts",
  "pipelines/feeds/",
  "pipelines/catalog/",
  "pipelines/runner/run-feeds.ts",
  "pipelines/lib/warehouse/build.ts",
  "pipelines/lib/warehouse/write.ts",
  "pipelines/lib/research/evaluate.ts",
];

/** Every .ts file under `dir`, as absolute paths. */
export function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

/** The relative modules `file` imports (static, dynamic, type-only, re-exports), resolved to absolute paths. */
export function importsOf(file: string, text = readFileSync(file, "utf8")): string[] {
  const info = ts.preProcessFile(text, true, true);
  return info.importedFiles.map((i) => i.fileName).filter((s) => s.startsWith(".")).map((s) => resolve(dirname(file), s));
}

const rel = (p: string) => relative(ROOT, p).split(sep).join("/");

/** Broken rules of one api/ file (paths relative to the repository). */
export function apiViolations(file: string, imports: readonly string[]): string[] {
  const from = rel(file);
  const isTest = from.endsWith(".test.ts");
  const out: string[] = [];
  for (const target of imports.map(rel)) {
    if (target.startsWith("pipelines/") && !target.startsWith("pipelines/contract/")) {
      const allowed = (COMPOSITION_ROOT[from] ?? []).includes(target) || (isTest && TEST_ALLOWED.some((a) => (a.endsWith("/") ? target.startsWith(a) : target === a)));
      if (!allowed) out.push(`${from} imports ${target}: api/ may import only pipelines/contract/ from pipelines/`);
    }
    if (from.startsWith("api/verdicts/") && !isTest && target.startsWith("api/routes/")) out.push(`${from} imports ${target}: a verdict never imports a route`);
  }
  return out;
}

/** Every import cycle among `graph`'s files (strongly connected components of two or more, or a self-import). */
export function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next++;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("import boundary", () => {
  const apiGraph = new Map(tsFiles(API).map((f) => [f, importsOf(f)]));

  it("api/ imports from pipelines/ only the contract (composition root and test allowlist aside); verdicts import no route", () => {
    expect([...apiGraph].flatMap(([file, imports]) => apiViolations(file, imports))).toEqual([]);
  });

  it("pipelines/contract/ imports nothing of pipelines/ outside itself, nor api/", () => {
    const outside = tsFiles(CONTRACT).flatMap((file) =>
      importsOf(file)
        .filter((target) => !target.startsWith(CONTRACT + sep))
        .map((target) => `${rel(file)} imports ${rel(target)}`),
    );
    expect(outside).toEqual([]);
  });

  it("api/ has no import cycle", () => {
    expect(cycles(apiGraph).map((c) => c.map(rel).join(" -> "))).toEqual([]);
  });

  it("the rules catch what they forbid", () => {
    const route = join(API, "verdicts/x.ts");
    expect(apiViolations(route, [join(PIPELINES, "feeds/news.ts"), join(API, "routes/news.ts")])).toHaveLength(2);
    expect(apiViolations(join(API, "routes/x.test.ts"), [join(PIPELINES, "feeds/news.ts"), join(PIPELINES, "sources/rss.ts")])).toEqual([
      "api/routes/x.test.ts imports pipelines/sources/rss.ts: api/ may import only pipelines/contract/ from pipelines/",
    ]);
    expect(apiViolations(join(API, "routes/x.ts"), [join(CONTRACT, "snapshots/news.ts")])).toEqual([]);
    expect(cycles(new Map([["a", ["b"]], ["b", ["a"]], ["c", ["c"]], ["d", ["a"]]]))).toEqual([["a", "b"], ["c"]]);
    expect(importsOf("/x/api/a.ts", 'import type { A } from "./b.ts";\nexport { c } from "../c.ts";\nconst d = await import("./d.ts");')).toEqual([
      "/x/api/b.ts",
      "/x/c.ts",
      "/x/api/d.ts",
    ]);
  });
});
