import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { writeWarehouse } from "./write.ts";

async function readRows(path: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    const reader = await conn.runAndReadAll("SELECT * FROM read_parquet($1)", [path]);
    // BIGINT arrives as bigint; compare as plain numbers.
    return reader.getRowObjectsJS().map((row) =>
      Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "bigint" ? Number(v) : v])),
    );
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

  it("writeWarehouse() writes one Parquet file per table and day with typed columns", async () => {
    const [r] = await writeWarehouse(dir, "2026-03-01", [
      { table: "model_prices", key: ["model"], rows: [{ model: "a", input: 1.5, context: 128000, open: true, note: null }] },
    ]);
    expect(r).toEqual({ table: "model_prices", path: join(dir, "warehouse/model_prices/2026-03-01.parquet"), rows: 1 });
    expect(await readRows(r!.path)).toEqual([{ model: "a", input: 1.5, context: 128000, open: true, note: null }]);
  });

  it("writeWarehouse() keeps the last row per key when merging into an existing day file", async () => {
    const path = join(dir, "warehouse/model_prices/2026-03-01.parquet");
    await writeWarehouse(dir, "2026-03-01", [
      { table: "model_prices", key: ["provider", "model"], rows: [
        { provider: "p", model: "a", input: 1 },
        { provider: "p", model: "b", input: 2 },
      ] },
    ]);
    await writeWarehouse(dir, "2026-03-01", [
      { table: "model_prices", key: ["provider", "model"], rows: [
        { provider: "p", model: "b", input: 3 },
        { provider: "q", model: "a", input: 4 },
        { provider: "q", model: "a", input: 5 },
      ] },
    ]);
    expect(await readRows(path)).toEqual([
      { provider: "p", model: "a", input: 1 },
      { provider: "p", model: "b", input: 3 },
      { provider: "q", model: "a", input: 5 },
    ]);
    expect((await readdir(join(dir, "warehouse/model_prices"))).sort()).toEqual(["2026-03-01.parquet"]);
  });

  it("writeWarehouse() widens a column when a later batch brings a float or a new column", async () => {
    const path = join(dir, "warehouse/t/2026-03-01.parquet");
    await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "x", v: 1 }] }]);
    await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "y", v: 2.5, extra: "e" }, { k: "z", v: null }] }]);
    expect(await readRows(path)).toEqual([
      { k: "x", v: 1, extra: null },
      { k: "y", v: 2.5, extra: "e" },
      { k: "z", v: null, extra: null },
    ]);
  });

  it("writeWarehouse() keeps separate files for two days", async () => {
    await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: "a", v: 1 }] }]);
    await writeWarehouse(dir, "2026-03-02", [{ table: "t", key: ["k"], rows: [{ k: "a", v: 2 }] }]);
    expect((await readdir(join(dir, "warehouse/t"))).sort()).toEqual(["2026-03-01.parquet", "2026-03-02.parquet"]);
    expect(await readRows(join(dir, "warehouse/t/2026-03-01.parquet"))).toEqual([{ k: "a", v: 1 }]);
  });

  it("writeWarehouse() stores values with quotes and SQL as plain data", async () => {
    const nasty = "x'); DROP TABLE incoming; --";
    const [r] = await writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k: nasty }] }]);
    expect(await readRows(r!.path)).toEqual([{ k: nasty }]);
  });

  it("writeWarehouse() from concurrent callers on one table keeps every row", async () => {
    await Promise.all(
      ["a", "b", "c", "d"].map((k) => writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["k"], rows: [{ k }] }])),
    );
    expect((await readRows(join(dir, "warehouse/t/2026-03-01.parquet"))).map((r) => r.k)).toEqual(["a", "b", "c", "d"]);
  });

  it("writeWarehouse() rejects a bad table name, a bad date and a key column no row has", async () => {
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "../x", key: [], rows: [{ a: 1 }] }])).rejects.toThrow(/invalid table name/);
    await expect(writeWarehouse(dir, "03/01/2026", [])).rejects.toThrow(/invalid date/);
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "t", key: ["id"], rows: [{ a: 1 }] }])).rejects.toThrow(/key column "id"/);
    await expect(writeWarehouse(dir, "2026-03-01", [{ table: "t", key: [], rows: [{ "a b": 1 }] }])).rejects.toThrow(/invalid identifier/);
  });
});
