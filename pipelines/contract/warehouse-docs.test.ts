import { readdir, readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { renderWarehouseExamples, renderWarehouseTables, withWarehouseExamples, withWarehouseTables } from "./warehouse-docs.ts";
import { WAREHOUSE_EXAMPLES } from "./warehouse-examples.ts";
import { WAREHOUSE_TABLES, warehouseTable } from "./warehouse-tables.ts";

describe("warehouse contract", () => {
  it("snapshots/warehouse/README.md lists every declared table, column and example question as generated (npm run warehouse -- --docs)", async () => {
    const readme = await readFile(new URL("../../snapshots/warehouse/README.md", import.meta.url), "utf8");
    expect(readme).toBe(withWarehouseExamples(withWarehouseTables(readme, WAREHOUSE_TABLES), WAREHOUSE_EXAMPLES));
    for (const e of WAREHOUSE_EXAMPLES) expect(readme).toContain(e.question);
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

  it("renderWarehouseExamples() numbers the questions and gives each its SQL and columns", () => {
    const md = renderWarehouseExamples([{ id: "x", question: "How many?", sql: "SELECT 1 AS n", columns: ["n"] }]);
    expect(md).toBe("#### 1. How many?\n\n```sql\nSELECT 1 AS n;\n```\n\nAnswers with: `n`.\n");
  });

  it("withWarehouseExamples() throws when the README has no examples section", () => {
    expect(() => withWarehouseExamples("# nothing here\n", WAREHOUSE_EXAMPLES)).toThrow(/no <!-- warehouse-examples:start/);
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
