/**
 * Write warehouse rows as Parquet: `<dir>/warehouse/<table>/<date>.parquet`, one file per table and UTC day.
 * An existing day file is read back, the new rows are unioned after it, and the LAST row per key wins; the
 * result is copied to a temp file and renamed over the day file. DuckDB runs in memory for each call.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import type { WarehouseBatch, WarehouseValue } from "../types.ts";
import { ident, pathLiteral } from "./sql.ts";

/** What one table's write did. */
export interface WarehouseWriteResult {
  table: string;
  path: string;
  /** Rows in the day file after the merge. */
  rows: number;
}

const TABLE_RE = /^[a-z][a-z0-9_]*$/;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
type ColumnType = "BOOLEAN" | "BIGINT" | "DOUBLE" | "VARCHAR";

/** In-process lock per day file, so two feeds writing one table never lose each other's rows. */
const locks = new Map<string, Promise<unknown>>();

function withLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const prev = locks.get(key) ?? Promise.resolve();
  const next = prev.then(fn);
  const settled = next.catch(() => undefined);
  locks.set(key, settled);
  void settled.then(() => {
    if (locks.get(key) === settled) locks.delete(key);
  });
  return next;
}

/** Merge each batch into its table's day file under `<dir>/warehouse/`. Batches for one table are merged in order. */
export async function writeWarehouse(dir: string, date: string, batches: WarehouseBatch[]): Promise<WarehouseWriteResult[]> {
  if (!DATE_RE.test(date)) throw new Error(`writeWarehouse: invalid date ${JSON.stringify(date)} (want YYYY-MM-DD)`);
  const results: WarehouseWriteResult[] = [];
  for (const batch of batches) {
    if (!TABLE_RE.test(batch.table)) throw new Error(`writeWarehouse: invalid table name ${JSON.stringify(batch.table)} (want ${TABLE_RE})`);
    if (batch.rows.length === 0) continue;
    const folder = join(dir, "warehouse", batch.table);
    const path = join(folder, `${date}.parquet`);
    const rows = await withLock(path, async () => {
      await mkdir(folder, { recursive: true });
      return mergeDayFile(path, batch);
    });
    results.push({ table: batch.table, path, rows });
  }
  return results;
}

async function mergeDayFile(path: string, batch: WarehouseBatch): Promise<number> {
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const conn = await instance.connect();
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    const existing = existsSync(path) ? await fileColumnTypes(conn, path) : new Map<string, string>();
    const columns = inferColumns(batch, existing);
    for (const k of batch.key) {
      if (!columns.has(k)) throw new Error(`key column ${JSON.stringify(k)} of table ${batch.table} is in no row`);
    }
    await loadIncoming(conn, batch, columns);
    const sources = ['SELECT *, 1 AS "__src" FROM incoming'];
    if (existsSync(path)) {
      sources.unshift(
        `SELECT * EXCLUDE ("file_row_number"), "file_row_number" AS "__ord", 0 AS "__src" FROM read_parquet(${pathLiteral(path)}, file_row_number = true)`,
      );
    }
    const keyList = batch.key.map(ident).join(", ");
    const dedup = batch.key.length > 0 ? `QUALIFY row_number() OVER (PARTITION BY ${keyList} ORDER BY "__src" DESC, "__ord" DESC) = 1` : "";
    const order = batch.key.length > 0 ? keyList : `"__src", "__ord"`;
    await conn.run(
      `CREATE TABLE merged AS SELECT * FROM (${sources.join(" UNION ALL BY NAME ")}) ${dedup} ORDER BY ${order}`,
    );
    await conn.run(`COPY (SELECT * EXCLUDE ("__src", "__ord") FROM merged) TO ${pathLiteral(tmp)} (FORMAT parquet)`);
    const count = await conn.runAndReadAll("SELECT count(*)::INTEGER AS n FROM merged");
    await rename(tmp, path);
    return Number(count.getRowObjects()[0]?.n ?? 0);
  } catch (error) {
    await rm(tmp, { force: true });
    throw new Error(`writeWarehouse: merging ${batch.rows.length} rows into ${path} failed: ${(error as Error).message}`, { cause: error });
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

/** Column name → SQL type of an existing Parquet file. */
async function fileColumnTypes(conn: DuckDBConnection, path: string): Promise<Map<string, string>> {
  const reader = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${pathLiteral(path)})`);
  const types = new Map<string, string>();
  for (const row of reader.getRowObjects()) types.set(String(row.column_name), String(row.column_type));
  return types;
}

/**
 * Column name → SQL type, from the values the rows hold (mixed kinds fall back to VARCHAR). A column with only
 * nulls takes its type from the existing day file, so a null-only batch never widens a numeric column.
 */
function inferColumns(batch: WarehouseBatch, existing: Map<string, string>): Map<string, ColumnType> {
  const kinds = new Map<string, Set<string>>();
  for (const row of batch.rows) {
    for (const [name, value] of Object.entries(row)) {
      ident(name);
      if (name.startsWith("__")) throw new Error(`writeWarehouse: column ${JSON.stringify(name)} of table ${batch.table} uses the reserved "__" prefix`);
      const set = kinds.get(name) ?? new Set<string>();
      kinds.set(name, set);
      if (value === null || value === undefined) continue;
      if (typeof value === "number") set.add(Number.isSafeInteger(value) ? "int" : "float");
      else set.add(typeof value);
    }
  }
  const columns = new Map<string, ColumnType>();
  for (const [name, set] of kinds) {
    const prior = existing.get(name);
    let type: ColumnType = "VARCHAR";
    if (set.size === 0 && (prior === "BOOLEAN" || prior === "BIGINT" || prior === "DOUBLE")) type = prior;
    if (set.size === 1 && set.has("boolean")) type = "BOOLEAN";
    else if (set.size === 1 && set.has("int")) type = "BIGINT";
    else if (set.size > 0 && [...set].every((k) => k === "int" || k === "float")) type = "DOUBLE";
    columns.set(name, type);
  }
  return columns;
}

async function loadIncoming(conn: DuckDBConnection, batch: WarehouseBatch, columns: Map<string, ColumnType>): Promise<void> {
  const names = [...columns.keys()];
  const defs = names.map((n) => `${ident(n)} ${columns.get(n)}`);
  await conn.run(`CREATE TABLE incoming (${[...defs, `"__ord" BIGINT`].join(", ")})`);
  const appender = await conn.createAppender("incoming");
  batch.rows.forEach((row, i) => {
    for (const name of names) appendValue(appender, columns.get(name)!, row[name]);
    appender.appendBigInt(BigInt(i));
    appender.endRow();
  });
  appender.flushSync();
  appender.closeSync();
}

function appendValue(
  appender: Awaited<ReturnType<DuckDBConnection["createAppender"]>>,
  type: ColumnType,
  value: WarehouseValue | undefined,
): void {
  if (value === null || value === undefined) return appender.appendNull();
  switch (type) {
    case "BOOLEAN":
      return appender.appendBoolean(value as boolean);
    case "BIGINT":
      return appender.appendBigInt(BigInt(value as number));
    case "DOUBLE":
      return appender.appendDouble(value as number);
    case "VARCHAR":
      return appender.appendVarchar(typeof value === "string" ? value : String(value));
  }
}
