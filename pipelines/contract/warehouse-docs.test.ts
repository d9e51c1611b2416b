import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderWarehouseTables, withWarehouseTables } from "./warehouse-docs.ts";
import { WAREHOUSE_TABLES, warehouseTable } from "./warehouse-tables.ts";

describe("warehouse contract", () => {
  it("snapshots/README.md lists every declared table and column as generated (npm run warehouse -- --docs)", async () => {
    const readme = await readFile(new URL("../../snapshots/README.md", import.meta.url), "utf8");
    expect(readme).toBe(withWarehouseTables(readme, WAREHOUSE_TABLES));
    for (const t of Object.values(WAREHOUSE_TABLES)) {
      expect(readme).toContain(`#### \`${t.name}\``);
      for (const c of t.columns) expect(readme).toContain(`| \`${c.name}\` | ${c.type} |`);
    }
  });

  it("renderWarehouseTables() writes one section per table with its key and columns", () => {
    const md = renderWarehouseTables({ mcp_registry_daily: WAREHOUSE_TABLES.mcp_registry_daily });
    expect(md).toContain("Key: (`date`).");
    expect(md).toContain("| `delta_1d` | BIGINT | yes | Change since the previous day (NULL when that day has no snapshot) |");
  });

  it("warehouseTable rejects a key column that is undeclared or nullable", () => {
    const base = { name: "t", feed: "f", description: "d", columns: [{ name: "a", type: "VARCHAR", nullable: true, description: "a" }] };
    expect(warehouseTable.safeParse({ ...base, key: ["b"] }).success).toBe(false);
    expect(warehouseTable.safeParse({ ...base, key: ["a"] }).success).toBe(false);
  });

  it("pipelines/contract imports nothing else of pipelines/", async () => {
    const folder = new URL("./", import.meta.url);
    for (const file of (await readdir(folder)).filter((f) => f.endsWith(".ts"))) {
      const text = await readFile(new URL(file, folder), "utf8");
      const specifiers = [...text.matchAll(/^\s*(?:import|export)[^"']*["']([^"']+)["']/gm)].map((m) => m[1]!);
      const outside = specifiers.filter((s) => s.startsWith(".") && !/^\.\/[^/]+$/.test(s));
      expect(outside, file).toEqual([]);
    }
  });
});
