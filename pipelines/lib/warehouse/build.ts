/**
 * Build `<dir>/warehouse.duckdb` from the Parquet day files: one table per folder under `<dir>/warehouse/`
 * (all days unioned by column name) plus `snapshot_manifest` from manifest.json. The database is built in a
 * temp file and renamed into place, so a reader never opens a half-built file.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import type { SnapshotMeta } from "../types.ts";
import { ident, pathLiteral } from "./sql.ts";

/** One table of the built database. */
export interface WarehouseTableInfo {
  name: string;
  rows: number;
}

export interface BuildResult {
  path: string;
  tables: WarehouseTableInfo[];
}

/** Rebuild `<dir>/warehouse.duckdb` from scratch; returns every table and its row count. */
export async function buildWarehouseDb(dir: string): Promise<BuildResult> {
  const target = join(dir, "warehouse.duckdb");
  const tmp = join(dir, `.warehouse.${process.pid}.${randomBytes(4).toString("hex")}.duckdb`);
  const tables: WarehouseTableInfo[] = [];
  const instance = await DuckDBInstance.create(tmp, { threads: "1" });
  const conn = await instance.connect();
  try {
    for (const table of await warehouseTables(dir)) {
      const glob = join(dir, "warehouse", table, "*.parquet");
      await conn.run(`CREATE TABLE ${ident(table)} AS SELECT * FROM read_parquet(${pathLiteral(glob)}, union_by_name = true)`);
    }
    await conn.run(`CREATE TABLE snapshot_manifest (
      "type" VARCHAR PRIMARY KEY, "date" DATE, last_success TIMESTAMPTZ, last_attempt TIMESTAMPTZ,
      last_changed TIMESTAMPTZ, last_error VARCHAR, "rows" BIGINT, provenance VARCHAR, sla_seconds BIGINT,
      cadence VARCHAR, sources VARCHAR)`);
    for (const meta of await manifestEntries(dir)) {
      await conn.run(
        "INSERT INTO snapshot_manifest VALUES ($1, CAST($2 AS DATE), CAST($3 AS TIMESTAMPTZ), CAST($4 AS TIMESTAMPTZ), CAST($5 AS TIMESTAMPTZ), $6, $7, $8, $9, $10, $11)",
        [
          meta.type,
          meta.date || null,
          meta.lastSuccess,
          meta.lastAttempt,
          meta.lastChanged,
          meta.lastError,
          meta.rows,
          meta.provenance,
          meta.slaSeconds,
          meta.cadence,
          JSON.stringify(meta.sources ?? []),
        ],
      );
    }
    const names = await conn.runAndReadAll("SELECT table_name FROM duckdb_tables() ORDER BY table_name");
    for (const row of names.getRowObjects()) {
      const name = String(row.table_name);
      const count = await conn.runAndReadAll(`SELECT count(*)::BIGINT AS n FROM ${ident(name)}`);
      tables.push({ name, rows: Number(count.getRowObjects()[0]?.n ?? 0) });
    }
    await conn.run("CHECKPOINT");
  } catch (error) {
    conn.closeSync();
    instance.closeSync();
    await rm(tmp, { force: true });
    await rm(`${tmp}.wal`, { force: true });
    throw new Error(`buildWarehouseDb: building ${target} failed: ${(error as Error).message}`, { cause: error });
  }
  conn.closeSync();
  instance.closeSync();
  await rm(`${target}.wal`, { force: true });
  await rename(tmp, target);
  return { path: target, tables };
}

/** Folders under `<dir>/warehouse/` that hold at least one Parquet file, sorted. */
async function warehouseTables(dir: string): Promise<string[]> {
  const root = join(dir, "warehouse");
  if (!existsSync(root)) return [];
  const out: string[] = [];
  for (const entry of await readdir(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !/^[a-z][a-z0-9_]*$/.test(entry.name)) continue;
    if (entry.name === "snapshot_manifest") continue;
    const files = await readdir(join(root, entry.name));
    if (files.some((f) => f.endsWith(".parquet"))) out.push(entry.name);
  }
  return out.sort();
}

async function manifestEntries(dir: string): Promise<SnapshotMeta[]> {
  const path = join(dir, "manifest.json");
  if (!existsSync(path)) return [];
  const text = await readFile(path, "utf8");
  let parsed: { types?: Record<string, SnapshotMeta> };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch (error) {
    throw new Error(`buildWarehouseDb: ${path} is not valid JSON`, { cause: error });
  }
  return Object.entries(parsed.types ?? {})
    .map(([type, meta]) => ({ ...meta, type }))
    .sort((a, b) => a.type.localeCompare(b.type));
}
