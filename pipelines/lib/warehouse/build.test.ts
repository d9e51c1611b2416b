import { existsSync } from "node:fs";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildWarehouseDb } from "./build.ts";
import { writeWarehouse } from "./write.ts";

describe("buildWarehouseDb()", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-whdb-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("buildWarehouseDb() unions every day of every table and loads the manifest", async () => {
    await writeWarehouse(dir, "2026-03-01", [
      { table: "model_prices", key: ["model"], rows: [{ date: "2026-03-01", model: "a", input: 1 }, { date: "2026-03-01", model: "b", input: 2 }] },
      { table: "status_samples", key: ["provider"], rows: [{ provider: "p", ok: true }] },
    ]);
    await writeWarehouse(dir, "2026-03-02", [
      { table: "model_prices", key: ["model"], rows: [{ date: "2026-03-02", model: "a", input: 1.25, output: 4 }] },
    ]);
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
    expect(result.tables).toEqual([
      { name: "model_prices", rows: 3 },
      { name: "snapshot_manifest", rows: 1 },
      { name: "status_samples", rows: 1 },
    ]);

    const instance = await DuckDBInstance.create(result.path, { access_mode: "READ_ONLY" });
    const conn = await instance.connect();
    try {
      const prices = await conn.runAndReadAll("SELECT date, model, input, output FROM model_prices ORDER BY date, model");
      expect(prices.getRowObjectsJson()).toEqual([
        { date: "2026-03-01", model: "a", input: 1, output: null },
        { date: "2026-03-01", model: "b", input: 2, output: null },
        { date: "2026-03-02", model: "a", input: 1.25, output: "4" },
      ]);
      const manifest = await conn.runAndReadAll("SELECT type, CAST(date AS VARCHAR) AS d, rows, provenance, epoch(last_success) AS s FROM snapshot_manifest");
      expect(manifest.getRowObjectsJson()).toEqual([{ type: "news", d: "2026-03-02", rows: "12", provenance: "replay", s: Date.parse("2026-03-02T10:00:00Z") / 1000 }]);
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
    expect((await readdir(dir)).filter((f) => f.includes(".tmp") || f.startsWith("."))).toEqual([]);
  });

  it("buildWarehouseDb() replaces an existing database with a fresh one", async () => {
    await writeWarehouse(dir, "2026-03-01", [{ table: "a_table", key: ["k"], rows: [{ k: "x" }] }]);
    await buildWarehouseDb(dir);
    await rm(join(dir, "warehouse/a_table"), { recursive: true });
    await writeWarehouse(dir, "2026-03-01", [{ table: "b_table", key: ["k"], rows: [{ k: "y" }] }]);
    const result = await buildWarehouseDb(dir);
    expect(result.tables.map((t) => t.name)).toEqual(["b_table", "snapshot_manifest"]);
    expect(existsSync(join(dir, "warehouse.duckdb.wal"))).toBe(false);
  });
});
