/**
 * Write warehouse rows as Parquet: `<dir>/warehouse/<table>/<date>.parquet`, one file per table and UTC day.
 * Every table is declared in pipelines/contract/warehouse-tables.ts; each value is cast to its column's DuckDB
 * type, and a batch with a value that does not fit (or an undeclared table or column) is refused before
 * anything is written. An existing day file is read back and cast to the declared types, the new rows are
 * unioned after it, and the LAST row per key wins; the result is copied to a temp file and renamed over the
 * day file. A merge that changes nothing leaves the file untouched.
 */
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBDateValue, DuckDBInstance, DuckDBTimestampTZValue, type DuckDBAppender, type DuckDBConnection } from "@duckdb/node-api";
import { WAREHOUSE_TABLES, type WarehouseColumn, type WarehouseTable, type WarehouseTables } from "../../contract/warehouse-tables.ts";
import type { WarehouseBatch } from "../types.ts";
import { castValue, WarehouseRowError, type CastValue } from "./cast.ts";
import { ident, pathLiteral } from "./sql.ts";

export { WarehouseRowError } from "./cast.ts";

/** What one table's write did. */
export interface WarehouseWriteResult {
  table: string;
  path: string;
  /** Rows in the day file after the merge. */
  rows: number;
  /** Whether the day file was (re)written; false when the merge changed nothing. */
  changed: boolean;
}

export interface WarehouseWriteOptions {
  /** The declared tables (default: the contract's WAREHOUSE_TABLES). */
  tables?: WarehouseTables;
}

/** A writer holding one in-memory DuckDB, for many writes in a row (e.g. a rebuild of every day). */
export interface WarehouseWriter {
  write(dir: string, date: string, batches: WarehouseBatch[]): Promise<WarehouseWriteResult[]>;
  /**
   * Merge many days at once: per table, one pass over every day's rows and existing day files, then one write
   * per day whose file changes. Same result as calling write() for each day in order, with far fewer queries.
   */
  writeDays(dir: string, days: { date: string; batches: WarehouseBatch[] }[]): Promise<WarehouseWriteResult[]>;
  /** Rewrite every existing day file of the declared tables whose column types differ from the declaration. */
  retype(dir: string): Promise<WarehouseWriteResult[]>;
  close(): void;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_FILE_RE = /^\d{4}-\d{2}-\d{2}\.parquet$/;

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
export async function writeWarehouse(
  dir: string,
  date: string,
  batches: WarehouseBatch[],
  options: WarehouseWriteOptions = {},
): Promise<WarehouseWriteResult[]> {
  const tables = options.tables ?? WAREHOUSE_TABLES;
  checkDate(date);
  // Refuse before opening anything: a bad row writes nothing at all.
  for (const batch of batches) castBatch(tables, batch);
  const writer = await openWarehouseWriter(options);
  try {
    return await writer.write(dir, date, batches);
  } finally {
    writer.close();
  }
}

/** Open a writer over one in-memory DuckDB; close it when done. */
export async function openWarehouseWriter(options: WarehouseWriteOptions = {}): Promise<WarehouseWriter> {
  const tables = options.tables ?? WAREHOUSE_TABLES;
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const conn = await instance.connect();
  let chain: Promise<unknown> = Promise.resolve();
  return {
    write(dir, date, batches) {
      checkDate(date);
      const cast = batches.map((batch) => ({ batch, table: tableOf(tables, batch), rows: castBatch(tables, batch) }));
      // One connection runs one merge at a time.
      const run = chain.then(async () => {
        const results: WarehouseWriteResult[] = [];
        for (const { table, rows } of cast) {
          if (rows.length === 0) continue;
          const folder = join(dir, "warehouse", table.name);
          const path = join(folder, `${date}.parquet`);
          const out = await withLock(path, async () => {
            await mkdir(folder, { recursive: true });
            return mergeDayFile(conn, path, table, rows);
          });
          results.push({ table: table.name, path, ...out });
        }
        return results;
      });
      chain = run.catch(() => undefined);
      return run;
    },
    writeDays(dir, days) {
      const byTable = new Map<string, { table: WarehouseTable; days: { date: string; rows: CastValue[][] }[] }>();
      for (const day of days) {
        checkDate(day.date);
        for (const batch of day.batches) {
          const table = tableOf(tables, batch);
          const rows = castBatch(tables, batch);
          if (rows.length === 0) continue;
          const entry = byTable.get(table.name) ?? { table, days: [] };
          entry.days.push({ date: day.date, rows });
          byTable.set(table.name, entry);
        }
      }
      const run = chain.then(async () => {
        const results: WarehouseWriteResult[] = [];
        for (const { table, days: tableDays } of byTable.values()) results.push(...(await mergeDayFiles(conn, dir, table, tableDays)));
        return results;
      });
      chain = run.catch(() => undefined);
      return run;
    },
    retype(dir) {
      const run = chain.then(async () => {
        const results: WarehouseWriteResult[] = [];
        for (const table of Object.values(tables)) {
          const folder = join(dir, "warehouse", table.name);
          if (!existsSync(folder)) continue;
          if (await folderHasDeclaredTypes(conn, folder, table)) continue;
          for (const file of (await readdir(folder)).filter((f) => DAY_FILE_RE.test(f)).sort()) {
            const path = join(folder, file);
            const out = await withLock(path, () => mergeDayFile(conn, path, table, []));
            results.push({ table: table.name, path, ...out });
          }
        }
        return results;
      });
      chain = run.catch(() => undefined);
      return run;
    },
    close() {
      conn.closeSync();
      instance.closeSync();
    },
  };
}

function checkDate(date: string): void {
  if (!DATE_RE.test(date)) throw new Error(`writeWarehouse: invalid date ${JSON.stringify(date)} (want YYYY-MM-DD)`);
}

function tableOf(tables: WarehouseTables, batch: WarehouseBatch): WarehouseTable {
  const table = Object.hasOwn(tables, batch.table) ? tables[batch.table] : undefined;
  if (!table) {
    throw new Error(`writeWarehouse: table ${JSON.stringify(batch.table)} is not declared (declared: ${Object.keys(tables).join(", ")})`);
  }
  if (batch.key.join(",") !== table.key.join(",")) {
    throw new Error(`writeWarehouse: table ${table.name} is keyed by (${table.key.join(", ")}), the batch says (${batch.key.join(", ")})`);
  }
  return table;
}

/** Every row cast to the table's columns, in declared order; throws on an undeclared column or a value that does not fit. */
function castBatch(tables: WarehouseTables, batch: WarehouseBatch): CastValue[][] {
  const table = tableOf(tables, batch);
  const declared = new Set(table.columns.map((c) => c.name));
  return batch.rows.map((row) => {
    for (const name of Object.keys(row)) {
      if (!declared.has(name)) throw new WarehouseRowError(table.name, name, row[name], "is in a column the table does not declare");
    }
    return table.columns.map((column) => castValue(table.name, column, row[column.name]));
  });
}

/** DuckDB's DESCRIBE spelling of a declared type. */
function describedType(column: WarehouseColumn): string {
  return column.type === "TIMESTAMPTZ" ? "TIMESTAMP WITH TIME ZONE" : column.type;
}

async function mergeDayFile(
  conn: DuckDBConnection,
  path: string,
  table: WarehouseTable,
  rows: CastValue[][],
): Promise<{ rows: number; changed: boolean }> {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const cols = table.columns.map((c) => ident(c.name)).join(", ");
  const keyList = table.key.map(ident).join(", ");
  try {
    await conn.run(`CREATE OR REPLACE TEMP TABLE incoming (${[...table.columns.map((c) => `${ident(c.name)} ${c.type}`), `"__ord" BIGINT`].join(", ")})`);
    await appendRows(conn, table, rows);
    const exists = existsSync(path);
    let sameTypes = false;
    if (exists) sameTypes = await loadExisting(conn, path, table);
    const sources = [`SELECT *, 1 AS "__src" FROM incoming`];
    if (exists) sources.unshift(`SELECT *, 0 AS "__src" FROM existing`);
    await conn.run(
      `CREATE OR REPLACE TEMP TABLE merged AS SELECT ${cols} FROM (${sources.join(" UNION ALL ")})
       QUALIFY row_number() OVER (PARTITION BY ${keyList} ORDER BY "__src" DESC, "__ord" DESC) = 1 ORDER BY ${keyList}`,
    );
    const count = Number((await conn.runAndReadAll("SELECT count(*)::BIGINT AS n FROM merged")).getRowObjects()[0]?.n ?? 0);
    if (exists && sameTypes && (await sameRows(conn, cols, count))) return { rows: count, changed: false };
    await conn.run(`COPY merged TO ${pathLiteral(tmp)} (FORMAT parquet)`);
    await rename(tmp, path);
    return { rows: count, changed: true };
  } catch (error) {
    await rm(tmp, { force: true });
    throw new Error(`writeWarehouse: merging ${rows.length} rows into ${path} (table ${table.name}) failed: ${(error as Error).message}`, { cause: error });
  }
}

/** True when every day file in `folder`, read together, has exactly the declared columns and types (a quick check before retyping file by file). */
async function folderHasDeclaredTypes(conn: DuckDBConnection, folder: string, table: WarehouseTable): Promise<boolean> {
  if (!(await readdir(folder)).some((f) => DAY_FILE_RE.test(f))) return true;
  const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${pathLiteral(join(folder, "*.parquet"))}, union_by_name = true)`);
  const rows = described.getRowObjects();
  return rows.length === table.columns.length && table.columns.every((c, i) => rows[i]?.column_name === c.name && rows[i]?.column_type === describedType(c));
}

/** writeDays() for one table: every day's rows merged with the existing day files in one pass. */
async function mergeDayFiles(
  conn: DuckDBConnection,
  dir: string,
  table: WarehouseTable,
  days: { date: string; rows: CastValue[][] }[],
): Promise<WarehouseWriteResult[]> {
  const folder = join(dir, "warehouse", table.name);
  await mkdir(folder, { recursive: true });
  const cols = table.columns.map((c) => ident(c.name)).join(", ");
  const keyList = table.key.map(ident).join(", ");
  const defs = table.columns.map((c) => `${ident(c.name)} ${c.type}`);
  await conn.run(`CREATE OR REPLACE TEMP TABLE incoming (${[...defs, `"__day" VARCHAR`, `"__ord" BIGINT`].join(", ")})`);
  const appender = await conn.createAppender("incoming");
  try {
    let ord = 0;
    for (const day of days) {
      for (const row of day.rows) {
        table.columns.forEach((column, c) => appendValue(appender, column, row[c] ?? null));
        appender.appendVarchar(day.date);
        appender.appendBigInt(BigInt(ord++));
        appender.endRow();
      }
    }
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
  const dates = [...new Set(days.map((d) => d.date))].sort();
  const paths = new Map(dates.map((d) => [d, join(folder, `${d}.parquet`)]));
  const existing = dates.filter((d) => existsSync(paths.get(d)!));
  let typed = true;
  if (existing.length > 0) {
    const list = `[${existing.map((d) => pathLiteral(paths.get(d)!)).join(", ")}]`;
    const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${list}, union_by_name = true)`)).getRowObjects();
    // Read together, the day files show the declared columns and types only when each of them has them.
    typed = described.length === table.columns.length && table.columns.every((c, i) => described[i]?.column_name === c.name && described[i]?.column_type === describedType(c));
    const present = new Set(described.map((r) => String(r.column_name)));
    const extra = [...present].filter((n) => !table.columns.some((c) => c.name === n));
    if (extra.length > 0) throw new Error(`writeWarehouse: day files of table ${table.name} have column(s) ${extra.join(", ")} that the table does not declare`);
    const select = table.columns.map((c) => (present.has(c.name) ? `CAST(${ident(c.name)} AS ${c.type})` : `CAST(NULL AS ${c.type})`) + ` AS ${ident(c.name)}`);
    await conn.run(
      `CREATE OR REPLACE TEMP TABLE existing AS SELECT ${select.join(", ")}, regexp_extract(filename, '([0-9]{4}-[0-9]{2}-[0-9]{2})[.]parquet$', 1) AS "__day",
       file_row_number AS "__ord" FROM read_parquet(${list}, union_by_name = true, filename = true, file_row_number = true)`,
    );
  } else {
    await conn.run(`CREATE OR REPLACE TEMP TABLE existing AS SELECT * FROM incoming LIMIT 0`);
  }
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE merged AS SELECT ${cols}, "__day" FROM (
       SELECT *, 0 AS "__src" FROM existing UNION ALL SELECT *, 1 AS "__src" FROM incoming)
     QUALIFY row_number() OVER (PARTITION BY "__day", ${keyList} ORDER BY "__src" DESC, "__ord" DESC) = 1`,
  );
  const counts = new Map<string, number>();
  for (const r of (await conn.runAndReadAll(`SELECT "__day" AS d, count(*)::BIGINT AS n FROM merged GROUP BY ALL`)).getRowObjects()) counts.set(String(r.d), Number(r.n));
  const differing = new Set<string>();
  const diff = await conn.runAndReadAll(
    `SELECT DISTINCT "__day" AS d FROM (
       (SELECT ${cols}, "__day" FROM merged EXCEPT ALL SELECT ${cols}, "__day" FROM existing)
       UNION ALL (SELECT ${cols}, "__day" FROM existing EXCEPT ALL SELECT ${cols}, "__day" FROM merged))`,
  );
  for (const r of diff.getRowObjects()) differing.add(String(r.d));
  const results: WarehouseWriteResult[] = [];
  for (const date of dates) {
    const path = paths.get(date)!;
    const changed = !typed || !existing.includes(date) || differing.has(date);
    if (changed) {
      const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
      try {
        await conn.run(`COPY (SELECT ${cols} FROM merged WHERE "__day" = ${pathLiteral(date)} ORDER BY ${keyList}) TO ${pathLiteral(tmp)} (FORMAT parquet)`);
        await rename(tmp, path);
      } catch (error) {
        await rm(tmp, { force: true });
        throw new Error(`writeWarehouse: writing ${path} (table ${table.name}) failed: ${(error as Error).message}`, { cause: error });
      }
    }
    results.push({ table: table.name, path, rows: counts.get(date) ?? 0, changed });
  }
  return results;
}

/** Read the existing day file into TEMP TABLE existing, cast to the declared types; true when the file already has exactly them. */
async function loadExisting(conn: DuckDBConnection, path: string, table: WarehouseTable): Promise<boolean> {
  const described = await conn.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet(${pathLiteral(path)})`);
  const fileTypes = new Map<string, string>();
  for (const row of described.getRowObjects()) fileTypes.set(String(row.column_name), String(row.column_type));
  const declared = new Set(table.columns.map((c) => c.name));
  const extra = [...fileTypes.keys()].filter((n) => !declared.has(n));
  if (extra.length > 0) throw new Error(`the day file has column(s) ${extra.join(", ")} that table ${table.name} does not declare`);
  const select = table.columns.map((c) =>
    fileTypes.has(c.name) ? `CAST(${ident(c.name)} AS ${c.type}) AS ${ident(c.name)}` : `CAST(NULL AS ${c.type}) AS ${ident(c.name)}`,
  );
  await conn.run(
    `CREATE OR REPLACE TEMP TABLE existing AS SELECT ${select.join(", ")}, file_row_number AS "__ord" FROM read_parquet(${pathLiteral(path)}, file_row_number = true)`,
  );
  const names = [...fileTypes.keys()];
  return names.length === table.columns.length && table.columns.every((c, i) => names[i] === c.name && fileTypes.get(c.name) === describedType(c));
}

/** True when `merged` holds exactly the rows of `existing` (as a multiset; both are in key order). */
async function sameRows(conn: DuckDBConnection, cols: string, mergedCount: number): Promise<boolean> {
  const reader = await conn.runAndReadAll(
    `SELECT (SELECT count(*) FROM existing)::BIGINT AS old_n,
            (SELECT count(*) FROM (SELECT ${cols} FROM merged EXCEPT ALL SELECT ${cols} FROM existing))::BIGINT AS diff`,
  );
  const row = reader.getRowObjects()[0];
  return Number(row?.old_n) === mergedCount && Number(row?.diff) === 0;
}

async function appendRows(conn: DuckDBConnection, table: WarehouseTable, rows: CastValue[][]): Promise<void> {
  const appender = await conn.createAppender("incoming");
  try {
    rows.forEach((row, i) => {
      table.columns.forEach((column, c) => appendValue(appender, column, row[c] ?? null));
      appender.appendBigInt(BigInt(i));
      appender.endRow();
    });
    appender.flushSync();
  } finally {
    appender.closeSync();
  }
}

function appendValue(appender: DuckDBAppender, column: WarehouseColumn, value: CastValue): void {
  if (value === null) return appender.appendNull();
  switch (column.type) {
    case "BOOLEAN":
      return appender.appendBoolean(value as boolean);
    case "BIGINT":
      return appender.appendBigInt(value as bigint);
    case "DOUBLE":
      return appender.appendDouble(value as number);
    case "VARCHAR":
      return appender.appendVarchar(value as string);
    case "DATE":
      return appender.appendDate(new DuckDBDateValue(value as number));
    case "TIMESTAMPTZ":
      return appender.appendTimestampTZ(new DuckDBTimestampTZValue(value as bigint));
  }
}
