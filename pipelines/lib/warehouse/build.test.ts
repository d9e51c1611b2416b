import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../contract/warehouse-tables.ts";
import { buildWarehouseDb } from "./build.ts";
import { writeWarehouse } from "./write.ts";

describe("buildWarehouseDb()", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-whdb-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const price = (date: string, model_id: string, input: number | string, output: number | null = null) => ({
    date, provider: "p", model_id, input_per_1m: input, output_per_1m: output, context_window: null, source: "curated",
    source_url: "https://example.test/pricing", observed_at: "2026-02-01T00:00:00Z",
  });
  const priceKey = ["date", "model_id", "source"];

  it("buildWarehouseDb() unions every day of every declared table with its declared types and loads the manifest", async () => {
    await writeWarehouse(dir, "2026-03-01", [
      { table: "model_prices", key: priceKey, rows: [price("2026-03-01", "a", 1), price("2026-03-01", "b", "2")] },
      { table: "status_samples", key: ["ts", "provider"], rows: [
        { ts: "2026-03-01T10:00:00Z", date: "2026-03-01", provider: "p", status: "operational", components_total: 3, components_degraded: 0, components_down: 0 },
      ] },
    ]);
    await writeWarehouse(dir, "2026-03-02", [{ table: "model_prices", key: priceKey, rows: [price("2026-03-02", "a", 1.25, 4)] }]);
    await mkdir(join(dir, "warehouse/stray_folder"), { recursive: true });
    await writeFile(join(dir, "warehouse/stray_folder/2026-03-01.parquet"), "not parquet");
    await writeFile(
      join(dir, "manifest.json"),
      JSON.stringify({
        version: 1,
        types: {
          news: { type: "news", date: "2026-03-02", lastSuccess: "2026-03-02T10:00:00.000Z", lastAttempt: "2026-03-02T10:00:00.000Z",
            lastChanged: "2026-03-02T10:00:00.000Z", lastError: null, rows: 12, provenance: "replay", slaSeconds: 600,
            cadence: "every 10 minutes", sources: [{ id: "s", ok: true, rows: 12 }] },
        },
      }),
    );
    const result = await buildWarehouseDb(dir);
    expect(result.path).toBe(join(dir, "warehouse.duckdb"));
    expect(result.undeclared).toEqual(["stray_folder"]);
    expect(result.tables.filter((t) => t.rows > 0)).toEqual([
      { name: "model_price_history", rows: 3 },
      { name: "model_prices", rows: 3 },
      { name: "snapshot_manifest", rows: 1 },
      { name: "status_samples", rows: 1 },
    ]);
    expect(result.tables.map((t) => t.name).sort()).toEqual([...Object.keys(WAREHOUSE_TABLES), "model_price_history", "snapshot_manifest"].sort());

    const instance = await DuckDBInstance.create(result.path, { access_mode: "READ_ONLY" });
    const conn = await instance.connect();
    try {
      const prices = await conn.runAndReadAll("SELECT CAST(date AS VARCHAR) AS date, model_id, input_per_1m, output_per_1m FROM model_prices ORDER BY date, model_id");
      expect(prices.getRowObjectsJson()).toEqual([
        { date: "2026-03-01", model_id: "a", input_per_1m: 1, output_per_1m: null },
        { date: "2026-03-01", model_id: "b", input_per_1m: 2, output_per_1m: null },
        { date: "2026-03-02", model_id: "a", input_per_1m: 1.25, output_per_1m: 4 },
      ]);
      const types = await conn.runAndReadAll("SELECT data_type, comment FROM duckdb_columns() WHERE table_name = 'model_prices' AND column_name = 'input_per_1m'");
      expect(types.getRowObjectsJson()).toEqual([{ data_type: "DOUBLE", comment: "Input price, USD per 1M tokens" }]);
      // The contract's non-nullable columns are NOT NULL in the database too, so a researcher's schema reading shows them.
      const nullability = await conn.runAndReadAll(
        "SELECT column_name, is_nullable FROM duckdb_columns() WHERE table_name = 'model_prices' AND column_name IN ('model_id', 'output_per_1m') ORDER BY column_name",
      );
      expect(nullability.getRowObjectsJson()).toEqual([
        { column_name: "model_id", is_nullable: false },
        { column_name: "output_per_1m", is_nullable: true },
      ]);
      const manifest = await conn.runAndReadAll("SELECT type, CAST(date AS VARCHAR) AS d, rows, provenance, epoch(last_success) AS s FROM snapshot_manifest");
      expect(manifest.getRowObjectsJson()).toEqual([{ type: "news", d: "2026-03-02", rows: "12", provenance: "replay", s: Date.parse("2026-03-02T10:00:00Z") / 1000 }]);
      // The derived tables are described like the others: a table comment and one per column.
      const uncommented = await conn.runAndReadAll(
        "SELECT table_name, column_name FROM duckdb_columns() WHERE table_name IN ('model_price_history', 'snapshot_manifest') AND comment IS NULL",
      );
      expect(uncommented.getRowObjectsJson()).toEqual([]);
      const tableComments = await conn.runAndReadAll("SELECT table_name FROM duckdb_tables() WHERE comment IS NULL");
      expect(tableComments.getRowObjectsJson()).toEqual([]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    expect((await readdir(dir)).filter((f) => f.includes(".tmp") || f.startsWith("."))).toEqual([]);
  });

  it("buildWarehouseDb() derives model_price_history: a price change opens a new effective-dated row", async () => {
    const day = (date: string, input: number) => writeWarehouse(dir, date, [{ table: "model_prices", key: priceKey, rows: [price(date, "m", input)] }]);
    await day("2026-03-01", 1);
    await day("2026-03-02", 1);
    await day("2026-03-03", 2);
    await day("2026-03-05", 2);
    const result = await buildWarehouseDb(dir);
    const instance = await DuckDBInstance.create(result.path, { access_mode: "READ_ONLY" });
    const conn = await instance.connect();
    try {
      const rows = await conn.runAndReadAll(
        "SELECT input_per_1m, CAST(valid_from AS VARCHAR) AS f, CAST(valid_to AS VARCHAR) AS t, CAST(last_seen AS VARCHAR) AS l FROM model_price_history ORDER BY valid_from",
      );
      expect(rows.getRowObjectsJson()).toEqual([
        { input_per_1m: 1, f: "2026-03-01", t: "2026-03-03", l: "2026-03-02" },
        { input_per_1m: 2, f: "2026-03-03", t: null, l: "2026-03-05" },
      ]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it("buildWarehouseDb() replaces an existing database with a fresh one", async () => {
    await writeWarehouse(dir, "2026-03-01", [{ table: "model_prices", key: priceKey, rows: [price("2026-03-01", "a", 1)] }]);
    expect((await buildWarehouseDb(dir)).tables.find((t) => t.name === "model_prices")?.rows).toBe(1);
    await rm(join(dir, "warehouse/model_prices"), { recursive: true });
    const result = await buildWarehouseDb(dir);
    expect(result.tables.find((t) => t.name === "model_prices")?.rows).toBe(0);
    expect(existsSync(join(dir, "warehouse.duckdb.wal"))).toBe(false);
  });

  it("buildWarehouseDb() removes the temp files of builds whose process is gone, and keeps a live one's", async () => {
    // A pid no process can have (above the kernel's limit) stands for a build stopped by Ctrl-C or killed.
    const gone = [".warehouse.2147483646.0badc0de.duckdb", ".warehouse.2147483646.0badc0de.duckdb.wal"];
    const live = `.warehouse.${process.ppid}.cafef00d.duckdb`;
    for (const name of [...gone, live, ".warehouse.notes.txt"]) await writeFile(join(dir, name), "x");
    await buildWarehouseDb(dir);
    const left = await readdir(dir);
    expect(left).toEqual(expect.arrayContaining([live, ".warehouse.notes.txt", "warehouse.duckdb"]));
    for (const name of gone) expect(left).not.toContain(name);
  });

  it("buildWarehouseDb() with target and partitions loads exactly the files given and writes where asked", async () => {
    await writeWarehouse(dir, "2026-03-01", [{ table: "model_prices", key: priceKey, rows: [price("2026-03-01", "a", 1), price("2026-03-01", "b", 2)] }]);
    await writeWarehouse(dir, "2026-03-02", [{ table: "model_prices", key: priceKey, rows: [price("2026-03-02", "a", 3)] }]);
    const out = join(dir, "elsewhere");
    await mkdir(out);
    const result = await buildWarehouseDb(dir, {
      target: join(out, "built.duckdb"),
      partitions: { model_prices: [join(dir, "warehouse/model_prices/2026-03-02.parquet")], status_samples: [] },
    });
    expect(result.path).toBe(join(out, "built.duckdb"));
    expect(existsSync(join(dir, "warehouse.duckdb"))).toBe(false);
    expect(result.tables.find((t) => t.name === "model_prices")?.rows).toBe(1);
    expect(result.tables.find((t) => t.name === "status_samples")?.rows).toBe(0);
    expect((await readdir(out)).sort()).toEqual(["built.duckdb"]);
  });
});
