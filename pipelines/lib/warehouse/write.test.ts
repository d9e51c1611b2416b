import { mkdir, mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { warehouseTable, type WarehouseTables } from "../../contract/warehouse-tables.ts";
import { openWarehouseWriter, writeWarehouse, WarehouseRowError } from "./write.ts";

/** A small declared table for tests that need a shape the contract does not have. */
const tables: WarehouseTables = {
  t: warehouseTable.parse({
    name: "t",
    feed: "test",
    description: "test table",
    key: ["k"],
    columns: [
      { name: "k", type: "VARCHAR", nullable: false, description: "key" },
      { name: "v", type: "DOUBLE", nullable: true, description: "value" },
      { name: "n", type: "BIGINT", nullable: true, description: "count" },
    ],
  }),
};

async function query(sql: string, params: string[] = []): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll(sql, params);
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe("writeWarehouse()", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-wh-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("writeWarehouse() writes one Parquet file per table and day with the declared column types", async () => {
    const [r] = await writeWarehouse(dir, "2026-03-01", [
      { table: "model_prices", key: ["date", "model_id", "source"], rows: [
        { date: "2026-03-01", provider: "p", model_id: "a", input_per_1m: 1.5, output_per_1m: 6, context_window: 128000, source: "curated" },
      ] },
    ]);
    expect(r).toEqual({ table: "model_prices", path: join(dir, "warehouse/model_prices/2026-03-01.parquet"), rows: 1, changed: true });
    const types = await query("SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_parquet($1))", [r!.path]);
    expect(types).toEqual([
      { c: "date", t: "DATE" },
      { c: "provider", t: "VARCHAR" },
      { c: "model_id", t: "VARCHAR" },
      { c: "input_per_1m", t: "DOUBLE" },
      { c: "output_per_1m", t: "DOUBLE" },
      { c: "context_window", t: "BIGINT" },
      { c: "source", t: "VARCHAR" },
      { c: "source_url", t: "VARCHAR" },
      { c: "observed_at", t: "TIMESTAMP WITH TIME ZONE" },
    ]);
  });

  it("writeWarehouse() reads back one type when a number is written as text one day and as a number another", async () => {
    await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "a", v: "1.25", n: "7" }] }], { tables });
    await writeWarehouse(dir, "2026-03-02", [{ table: "t", key: ["k"], rows: [{ k: "a", v: 2, n: 8 }] }], { tables });
    const glob = join(dir, "warehouse/t/*.parquet");
    expect(await query("SELECT column_name AS c, column_type AS t FROM (DESCRIBE SELECT * FROM read_parquet($1))", [glob])).toEqual([
      { c: "k", t: "VARCHAR" },
      { c: "v", t: "DOUBLE" },
      { c: "n", t: "BIGINT" },
    ]);
    expect(await query("SELECT k, v, n::INTEGER AS n FROM read_parquet($1) ORDER BY v", [glob])).toEqual([
      { k: "a", v: 1.25, n: 7 },
      { k: "a", v: 2, n: 8 },
    ]);
  });

  it("writeWarehouse() refuses a value that does not fit, naming table, column and value, and writes nothing", async () => {
    const bad = writeWarehouse(dir, "2026-03-01", [
      { table: "t", key: ["k"], rows: [{ k: "ok", v: 1 }] },
      { table: "t", key: ["k"], rows: [{ k: "a", v: "twelve" }] },
    ], { tables });
    await expect(bad).rejects.toThrow(WarehouseRowError);
    await expect(bad).rejects.toThrow('warehouse table t, column v: value "twelve" does not fit type DOUBLE');
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "a", n: 1.5 }] }], { tables })).rejects.toThrow(
      "warehouse table t, column n: value 1.5 does not fit type BIGINT",
    );
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ v: 1 }] }], { tables })).rejects.toThrow(
      "warehouse table t, column k: value undefined is missing, but the column is NOT NULL",
    );
    await expect(
      writeWarehouse(dir, "2026-03-01", [{ table: "probe_samples", key: ["ts", "provider", "url"], rows: [
        { ts: "yesterday", date: "2026-03-01", provider: "p", url: "u", status: 200, ok: true, ttfb_ms: 1, total_ms: 2 },
      ] }]),
    ).rejects.toThrow('warehouse table probe_samples, column ts: value "yesterday" does not fit type TIMESTAMPTZ');
    await expect(
      writeWarehouse(dir, "2026-03-01", [{ table: "mcp_registry_daily", key: ["date"], rows: [{ date: "2026-02-31", count: 1, delta_1d: null }] }]),
    ).rejects.toThrow('column date: value "2026-02-31" does not fit type DATE');
    await expect(readdir(join(dir, "warehouse"))).rejects.toThrow(/ENOENT/);
  });

  it("writeWarehouse() refuses an undeclared table, an undeclared column, a wrong key and a bad date", async () => {
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "nope", key: ["k"], rows: [{ k: "a" }] }], { tables })).rejects.toThrow(
      'table "nope" is not declared',
    );
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "a", extra: 1 }] }], { tables })).rejects.toThrow(
      "column extra: value 1 is in a column the table does not declare",
    );
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["v"], rows: [{ k: "a" }] }], { tables })).rejects.toThrow(
      "table t is keyed by (k), the batch says (v)",
    );
    await expect(writeWarehouse(dir, "03/01/2026", [], { tables })).rejects.toThrow(/invalid date/);
  });

  it("writeWarehouse() keeps the last row per key when merging, and leaves the file alone when nothing changes", async () => {
    const path = join(dir, "warehouse/t/2026-03-01.parquet");
    await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "a", v: 1 }, { k: "b", v: 2 }] }], { tables });
    const [second] = await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "b", v: 3 }, { k: "c", v: 4 }, { k: "c", v: 5 }] }], { tables });
    expect(second).toMatchObject({ rows: 3, changed: true });
    expect(await query("SELECT k, v FROM read_parquet($1)", [path])).toEqual([
      { k: "a", v: 1 },
      { k: "b", v: 3 },
      { k: "c", v: 5 },
    ]);
    const before = (await stat(path)).mtimeMs;
    const [again] = await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "c", v: "5" }] }], { tables });
    expect(again).toMatchObject({ rows: 3, changed: false });
    expect((await stat(path)).mtimeMs).toBe(before);
    expect((await readdir(join(dir, "warehouse/t"))).sort()).toEqual(["2026-03-01.parquet"]);
  });

  it("writeWarehouse() stores values with quotes and SQL as plain data", async () => {
    const nasty = "x'); DROP TABLE incoming; --";
    const [r] = await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: nasty }] }], { tables });
    expect(await query("SELECT k FROM read_parquet($1)", [r!.path])).toEqual([{ k: nasty }]);
  });

  it("writeWarehouse() from concurrent callers on one table keeps every row", async () => {
    await Promise.all(
      ["a", "b", "c", "d"].map((k) => writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k }] }], { tables })),
    );
    expect((await query("SELECT k FROM read_parquet($1)", [join(dir, "warehouse/t/2026-03-01.parquet")])).map((r) => r.k)).toEqual(["a", "b", "c", "d"]);
  });

  it("openWarehouseWriter().writeDays() merges many days at once like write() day by day", async () => {
    await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "a", v: 1 }, { k: "b", v: 2 }] }], { tables });
    const writer = await openWarehouseWriter({ tables });
    try {
      const results = await writer.writeDays(dir, [
        { date: "2026-03-01", batches: [{ table: "t", key: ["k"], rows: [{ k: "b", v: 3 }, { k: "c", v: 4 }] }] },
        { date: "2026-03-02", batches: [{ table: "t", key: ["k"], rows: [{ k: "a", v: 5 }, { k: "a", v: 6 }] }] },
      ]);
      expect(results.map((r) => [r.path.slice(-18), r.rows, r.changed])).toEqual([
        ["2026-03-01.parquet", 3, true],
        ["2026-03-02.parquet", 1, true],
      ]);
      const again = await writer.writeDays(dir, [{ date: "2026-03-01", batches: [{ table: "t", key: ["k"], rows: [{ k: "c", v: 4 }] }] }]);
      expect(again.map((r) => r.changed)).toEqual([false]);
    } finally {
      writer.close();
    }
    expect(await query("SELECT k, v FROM read_parquet($1)", [join(dir, "warehouse/t/2026-03-01.parquet")])).toEqual([
      { k: "a", v: 1 },
      { k: "b", v: 3 },
      { k: "c", v: 4 },
    ]);
    expect(await query("SELECT k, v FROM read_parquet($1)", [join(dir, "warehouse/t/2026-03-02.parquet")])).toEqual([{ k: "a", v: 6 }]);
  });

  it("openWarehouseWriter() casts an older untyped day file to the declared types on the next write", async () => {
    const folder = join(dir, "warehouse/mcp_registry_daily");
    const path = join(folder, "2026-03-01.parquet");
    const instance = await DuckDBInstance.create(":memory:");
    const conn = await instance.connect();
    await conn.run(`CREATE TABLE x AS SELECT '2026-03-01' AS date, 5::BIGINT AS count, '2' AS delta_1d`);
    await mkdir(folder, { recursive: true });
    await conn.run(`COPY x TO '${path}' (FORMAT parquet)`);
    conn.closeSync();
    instance.closeSync();
    const writer = await openWarehouseWriter();
    try {
      const [r] = await writer.write(dir, "2026-03-01", [{ table: "mcp_registry_daily", key: ["date"], rows: [{ date: "2026-03-01", count: 5, delta_1d: 2 }] }]);
      expect(r).toMatchObject({ rows: 1, changed: true });
      const [again] = await writer.write(dir, "2026-03-01", [{ table: "mcp_registry_daily", key: ["date"], rows: [{ date: "2026-03-01", count: 5, delta_1d: 2 }] }]);
      expect(again).toMatchObject({ rows: 1, changed: false });
    } finally {
      writer.close();
    }
    expect(await query("SELECT column_type AS t FROM (DESCRIBE SELECT * FROM read_parquet($1))", [path])).toEqual([{ t: "DATE" }, { t: "BIGINT" }, { t: "BIGINT" }]);
  });
});
