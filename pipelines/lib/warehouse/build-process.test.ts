import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { buildWarehouseDbInChild } from "./build-process.ts";
import type { SnapshotMeta } from "../types.ts";
import { writeWarehouse } from "./write.ts";

/** A manifest entry of a replayed type that succeeded on 2026-03-01. */
function entry(type: string): SnapshotMeta {
  const at = "2026-03-01T10:00:00.000Z";
  return { type, date: "2026-03-01", lastSuccess: at, lastAttempt: at, lastChanged: at, lastError: null, rows: 3, provenance: "replay", slaSeconds: 3600, cadence: "hourly", sources: [] };
}

describe("buildWarehouseDbInChild()", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-whchild-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("builds the database in a child process from the given day files", async () => {
    await writeWarehouse(dir, "2026-03-01", [
      { table: "mcp_registry_daily", key: ["date"], rows: [{ date: "2026-03-01", count: 120, delta_1d: 3 }] },
    ]);
    const target = join(dir, "out.duckdb");
    await buildWarehouseDbInChild({ manifestDir: dir, target, partitions: { mcp_registry_daily: [join(dir, "warehouse/mcp_registry_daily/2026-03-01.parquet")] } });
    const instance = await DuckDBInstance.create(target, { access_mode: "READ_ONLY" });
    const conn = await instance.connect();
    const rows = (await conn.runAndReadAll("SELECT CAST(count AS INTEGER) AS total FROM mcp_registry_daily")).getRowObjects();
    conn.closeSync();
    instance.closeSync();
    expect(rows).toEqual([{ total: 120 }]);
  });

  it("records the manifest entries it is given in snapshot_manifest, not the folder's manifest.json", async () => {
    await writeFile(join(dir, "manifest.json"), JSON.stringify({ types: { news: { ...entry("news"), lastSuccess: null, date: "", provenance: "live" } } }));
    const target = join(dir, "out.duckdb");
    await buildWarehouseDbInChild({ manifestDir: dir, target, partitions: {}, manifest: [entry("status"), entry("news")] });
    const instance = await DuckDBInstance.create(target, { access_mode: "READ_ONLY" });
    const conn = await instance.connect();
    const rows = (await conn.runAndReadAll("SELECT type, CAST(date AS VARCHAR) AS date, provenance FROM snapshot_manifest ORDER BY type")).getRowObjects();
    conn.closeSync();
    instance.closeSync();
    expect(rows).toEqual([
      { type: "news", date: "2026-03-01", provenance: "replay" },
      { type: "status", date: "2026-03-01", provenance: "replay" },
    ]);
  });

  it("rejects with the child's one-line cause when the build fails", async () => {
    await expect(
      buildWarehouseDbInChild({ manifestDir: dir, target: join(dir, "no-such-folder", "out.duckdb"), partitions: {} }),
    ).rejects.toThrow(/no-such-folder|No such file|directory/i);
  });
});
