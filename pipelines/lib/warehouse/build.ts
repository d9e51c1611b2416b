/**
 * Build `<dir>/warehouse.duckdb` from the Parquet day files: one table per declared warehouse table
 * (pipelines/contract/warehouse-tables.ts), created with its declared column types and descriptions (as
 * COMMENTs) and filled with every day's partition, plus `snapshot_manifest` from manifest.json. Folders that
 * no table declares are left out and listed. The database is built in a temp file and renamed into place, so
 * a reader never opens a half-built file.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { WAREHOUSE_TABLES, type WarehouseTables } from "../../contract/warehouse-tables.ts";
import type { SnapshotMeta } from "../types.ts";
import { ident, pathLiteral, textLiteral } from "./sql.ts";

/** One table of the built database. */
export interface WarehouseTableInfo {
  name: string;
  rows: number;
}

export interface BuildResult {
  path: string;
  tables: WarehouseTableInfo[];
  /** Folders under `<dir>/warehouse/` that no declared table names (left out of the database). */
  undeclared: string[];
}

export interface BuildOptions {
  /** The declared tables (default: the contract's WAREHOUSE_TABLES). */
  tables?: WarehouseTables;
  /** Where to write the database (default `<dir>/warehouse.duckdb`); its folder must exist. */
  target?: string;
  /**
   * The Parquet files of each table (table → paths), instead of every `<dir>/warehouse/<table>/*.parquet`: a
   * server that serves two snapshot folders builds from the files it serves.
   */
  partitions?: Readonly<Record<string, readonly string[]>>;
  /**
   * The entries `snapshot_manifest` records, instead of `<dir>/manifest.json`: a server that serves two snapshot
   * folders records, type by type, the entry it serves.
   */
  manifest?: readonly SnapshotMeta[];
}

/**
 * `model_price_history`: effective-dated prices from the daily `model_prices` rows. Per model and source, a
 * row opens on the first day and on every day the price or context window differs from the day before;
 * `valid_to` is the day the next row opens (NULL for the current one).
 */
export const MODEL_PRICE_HISTORY_SQL = `CREATE TABLE model_price_history AS
WITH days AS (
  SELECT *,
    (lag(date) OVER w IS NULL
      OR lag(input_per_1m) OVER w IS DISTINCT FROM input_per_1m
      OR lag(output_per_1m) OVER w IS DISTINCT FROM output_per_1m
      OR lag(context_window) OVER w IS DISTINCT FROM context_window)::INTEGER AS opens
  FROM model_prices WINDOW w AS (PARTITION BY model_id, source ORDER BY date)
), runs AS (
  SELECT *, sum(opens) OVER (PARTITION BY model_id, source ORDER BY date) AS run FROM days
)
SELECT model_id, source, arg_max(provider, date) AS provider, arg_max(source_url, date) AS source_url,
  input_per_1m, output_per_1m, context_window,
  min(date) AS valid_from,
  lead(min(date)) OVER (PARTITION BY model_id, source ORDER BY min(date)) AS valid_to,
  max(date) AS last_seen, min(observed_at) AS first_observed_at, max(observed_at) AS last_observed_at
FROM runs
GROUP BY model_id, source, run, input_per_1m, output_per_1m, context_window
ORDER BY model_id, source, valid_from`;

/** COMMENTs of the two tables the database derives (the day files' tables take theirs from the contract). */
const DERIVED_COMMENTS: Record<string, { table: string; columns: Record<string, string> }> = {
  model_price_history: {
    table: "Effective-dated prices per model and source, derived from model_prices: a row opens on the first day and on every day the price or context window changes",
    columns: {
      model_id: "Model id, as in model_prices",
      source: "curated (the catalog) or aggregator",
      provider: "Provider id on the row's last day",
      source_url: "Where the price was read on the row's last day: the provider's pricing page (curated) or the aggregator's model list",
      input_per_1m: "USD per 1M input tokens",
      output_per_1m: "USD per 1M output tokens",
      context_window: "Context window in tokens",
      valid_from: "First day of this price",
      valid_to: "The day the next price of this model and source opens (NULL for the current one)",
      last_seen: "Last day this price was captured",
      first_observed_at: "Earliest time the source stated this price",
      last_observed_at: "Latest time the source stated this price",
    },
  },
  snapshot_manifest: {
    table: "Freshness of every snapshot type when the database was built: the entry a server serves for each type (its own run or the bundled one, whichever succeeded last), or the folder's manifest.json for `npm run warehouse` (provenance replay: built from recorded fixtures)",
    columns: {
      type: "Snapshot type",
      date: "UTC day of its latest snapshot",
      last_success: "Last successful run",
      last_attempt: "Last run, successful or not",
      last_changed: "Last run that changed the data",
      last_error: "Error of the last failed run (NULL after a success)",
      rows: "Rows in the latest snapshot",
      provenance: "live (fetched from upstream) or replay (recorded fixtures)",
      sla_seconds: "Age beyond which the type is stale",
      cadence: "How often its feed runs",
      sources: "JSON array of the sources of the last run and whether each answered",
    },
  },
};

/** Rebuild `<dir>/warehouse.duckdb` (or `options.target`) from scratch; returns every table and its row count. */
export async function buildWarehouseDb(dir: string, options: BuildOptions = {}): Promise<BuildResult> {
  const declared = options.tables ?? WAREHOUSE_TABLES;
  const target = options.target ?? join(dir, "warehouse.duckdb");
  await removeAbandonedBuilds(dirname(target));
  const tmp = join(dirname(target), `.warehouse.${process.pid}.${randomBytes(4).toString("hex")}.duckdb`);
  const tables: WarehouseTableInfo[] = [];
  const undeclared: string[] = [];
  const instance = await DuckDBInstance.create(tmp, { threads: "1" });
  const conn = await instance.connect();
  try {
    const given = options.partitions;
    const present = given ? Object.keys(given).filter((t) => (given[t]?.length ?? 0) > 0).sort() : await warehouseTables(dir);
    for (const table of Object.values(declared)) {
      const name = ident(table.name);
      await conn.run(`CREATE TABLE ${name} (${table.columns.map((c) => `${ident(c.name)} ${c.type}${c.nullable ? "" : " NOT NULL"}`).join(", ")})`);
      await conn.run(`COMMENT ON TABLE ${name} IS ${textLiteral(table.description)}`);
      for (const c of table.columns) await conn.run(`COMMENT ON COLUMN ${name}.${ident(c.name)} IS ${textLiteral(c.description)}`);
      if (!present.includes(table.name)) continue;
      const files = given ? given[table.name]!.map(pathLiteral) : [pathLiteral(join(dir, "warehouse", table.name, "*.parquet"))];
      await conn.run(`INSERT INTO ${name} BY NAME SELECT * FROM read_parquet([${files.join(", ")}], union_by_name = true)`);
    }
    undeclared.push(...present.filter((t) => !Object.hasOwn(declared, t)));
    if (Object.hasOwn(declared, "model_prices")) await conn.run(MODEL_PRICE_HISTORY_SQL);
    await conn.run(`CREATE TABLE snapshot_manifest (
      "type" VARCHAR PRIMARY KEY, "date" DATE, last_success TIMESTAMPTZ, last_attempt TIMESTAMPTZ,
      last_changed TIMESTAMPTZ, last_error VARCHAR, "rows" BIGINT, provenance VARCHAR, sla_seconds BIGINT,
      cadence VARCHAR, sources VARCHAR)`);
    const entries = options.manifest ? [...options.manifest].sort((a, b) => a.type.localeCompare(b.type)) : await manifestEntries(dir);
    for (const meta of entries) {
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
    const built = new Set((await conn.runAndReadAll("SELECT table_name FROM duckdb_tables()")).getRowObjects().map((r) => String(r.table_name)));
    for (const [table, comments] of Object.entries(DERIVED_COMMENTS)) {
      if (!built.has(table)) continue;
      await conn.run(`COMMENT ON TABLE ${ident(table)} IS ${textLiteral(comments.table)}`);
      for (const [column, text] of Object.entries(comments.columns)) await conn.run(`COMMENT ON COLUMN ${ident(table)}.${ident(column)} IS ${textLiteral(text)}`);
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
  return { path: target, tables, undeclared };
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

/** A build's temp database (and its write-ahead log) while it is written: `.warehouse.<pid>.<8 hex>.duckdb`. */
const TEMP_BUILD = /^\.warehouse\.(\d+)\.[0-9a-f]{8}\.duckdb(?:\.wal)?$/;

/**
 * Remove the temp files of builds whose process is gone (stopped by Ctrl-C or killed while writing), so they do
 * not pile up in the data folder nor get committed with the snapshots. A live process's build is left alone.
 */
async function removeAbandonedBuilds(folder: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = TEMP_BUILD.exec(name)?.[1];
    if (pid !== undefined && !isAlive(Number(pid))) await rm(join(folder, name), { force: true });
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
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
