/**
 * The warehouse reader (api/warehouse/reader-contract.ts) over @duckdb/node-api: one in-process DuckDB with an
 * in-memory catalog and one relation per declared table (pipelines/contract/warehouse-tables.ts) over that
 * table's day files, `<dir>/warehouse/<table>/<date>.parquet`, listed explicitly:
 * - most tables are held in a compressed in-memory database, loaded day file by day file (a query over a year
 *   of files opened on every call costs hundreds of ms; held rows answer in a few);
 * - the raw sample tables (VIEW_ONLY_TABLES, millions of rows a year) stay views over their files, and the
 *   per-day rollups of ./rollups.ts summarize them in memory.
 * It only ever reads Parquet (never warehouse.duckdb) and keeps no file open between loads, so it holds no lock
 * a pipeline run or a researcher's duckdb could trip on. `refresh()` re-lists the day files and, for each day
 * whose file appeared, changed or went away, replaces that day's rows, then bumps `version`.
 */
import { rmSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import {
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTypeId,
  StatementType,
  type DuckDBConnection,
  type DuckDBPreparedStatement,
  type DuckDBType,
  type DuckDBValue,
} from "@duckdb/node-api";
import { WAREHOUSE_TABLES, type WarehouseTable, type WarehouseTables } from "../../pipelines/contract/warehouse-tables.ts";
import { makeReaderTemp } from "./reader-temp.ts";
import type { SqlParam, WarehouseReader, WarehouseRow } from "./reader-contract.ts";
import { PAIR_ROLLUPS, RECENT_COPIES, ROLLUPS, type PairRollup, type RecentCopy, type Rollup } from "./rollups.ts";

/** Options for {@link openWarehouseReader}. */
export interface WarehouseReaderOptions {
  /**
   * Snapshot folders whose `warehouse/` subfolder holds day files, in rising priority: for one table and date,
   * the file in the last folder that has one is read (e.g. SNAPSHOTS_DIR, then the scheduler's own folder).
   */
  dirs: readonly string[];
  /** The declared tables (default: the contract's WAREHOUSE_TABLES). */
  tables?: WarehouseTables;
  /** Connections queries are spread over, each running one statement at a time (default 2). */
  connections?: number;
  /** DuckDB worker threads (default 2). */
  threads?: number;
  /** DuckDB memory limit (default 64MB; held rows past it spill to `tempDirectory`). */
  memoryLimit?: string;
  /**
   * Where DuckDB may spill held rows past the memory limit (default: a fresh folder under the OS temp folder,
   * removed at close). Never DuckDB's own default, `.tmp` in the working directory.
   */
  tempDirectory?: string;
  /** Receives a line for every day file or folder that could not be used. */
  onWarn?: (message: string) => void;
  /** Tables that stay views over their day files instead of being held in memory (default VIEW_ONLY_TABLES). */
  viewOnly?: readonly string[];
  /** Compress the held tables (default true: on a synthetic year about 120 MB less peak memory, small queries a few ms slower). */
  compress?: boolean;
  /** Per-day rollups kept in memory (default ROLLUPS of ./rollups.ts). */
  rollups?: readonly Rollup[];
  /** Rollups over pairs of captured days of held tables (default PAIR_ROLLUPS of ./rollups.ts). */
  pairRollups?: readonly PairRollup[];
  /** Copies of the newest captured days of tables (default RECENT_COPIES of ./rollups.ts). */
  recentCopies?: readonly RecentCopy[];
}

/** The reader as the server holds it: the contract plus refresh and close. */
export interface OpenWarehouseReader extends WarehouseReader {
  /** Re-list the day files; rebuild the views and bump `version` when they changed. True when they did. */
  refresh(): Promise<boolean>;
  /** Every day file the views read, per table (for tests and the README's researchers). */
  files(table: string): string[];
  close(): void;
}

/** A query the reader refused before running it (not a statement, or not read-only). */
export class WarehouseQueryError extends Error {
  override name = "WarehouseQueryError";
}

const DAY_FILE = /^(\d{4}-\d{2}-\d{2})\.parquet$/;
const MS_PER_DAY = 86_400_000;
/** Statement types a reader may prepare; anything else (DDL, COPY, ATTACH, SET …) is refused. */
const READ_ONLY_STATEMENTS = new Set(["SELECT", "EXPLAIN"]);
/** Prepared statements kept per connection; the oldest is dropped beyond this. */
const MAX_STATEMENTS = 256;

interface Lane {
  conn: DuckDBConnection;
  statements: Map<string, DuckDBPreparedStatement>;
  chain: Promise<unknown>;
  pending: number;
}

/** One table's day files: date → path, and a key per date that changes when its file is added, removed or rewritten. */
interface Listing {
  files: Map<string, string>;
  keys: Map<string, string>;
  key: string;
}

/**
 * Tables that stay views over their day files instead of being held in memory: the raw sample tables (too many
 * rows a year; rollups summarize them) and the preprint table (long text per row: abstracts, rules, keywords;
 * its queries read a window of day files, pruned by date).
 */
export const VIEW_ONLY_TABLES: readonly string[] = ["probe_samples", "status_samples", "preprints_daily"];

/** Open the reader: one DuckDB, the views over the day files present now. */
export async function openWarehouseReader(options: WarehouseReaderOptions): Promise<OpenWarehouseReader> {
  const tables = options.tables ?? WAREHOUSE_TABLES;
  const ownTemp = options.tempDirectory ? undefined : makeReaderTemp();
  const instance = await DuckDBInstance.create(":memory:", {
    threads: String(options.threads ?? 2),
    memory_limit: options.memoryLimit ?? "64MB",
    temp_directory: options.tempDirectory ?? ownTemp!,
  }).catch((cause: unknown) => {
    if (ownTemp) rmSync(ownTemp, { recursive: true, force: true });
    throw cause;
  });
  const admin = await instance.connect();
  // Footers of day files are cached (keyed on path and modification time): a query over a year of files
  // reads their metadata once, not on every call. The Parquet reader is built in; LOAD makes its setting known.
  await admin.run("LOAD parquet");
  await admin.run("SET GLOBAL parquet_metadata_cache = true");
  // Memory: DuckDB's allocator hands freed memory back to the system promptly (its own thresholds are 128 and
  // 512 MB, which a year's first load reaches), and raw day files are not cached beside the held rows and
  // rollups that answer the queries. On the synthetic year this keeps about 90 MB less resident after loading.
  await admin.run("SET allocator_flush_threshold = '8MB'");
  await admin.run("SET allocator_bulk_deallocation_flush_threshold = '8MB'");
  await admin.run("SET allocator_background_threads = true");
  await admin.run("SET enable_external_file_cache = false");
  const lanes: Lane[] = [];
  for (let i = 0; i < Math.max(1, options.connections ?? 2); i++) {
    lanes.push({ conn: await instance.connect(), statements: new Map(), chain: Promise.resolve(), pending: 0 });
  }
  let listings = new Map<string, Listing>();
  let version = 0;
  let closed = false;
  let refreshing: Promise<boolean> | undefined;
  let again = false;

  const warn = options.onWarn ?? (() => {});
  // A table without a date column cannot be replaced day by day: it stays a view too.
  const viewOnly = new Set([...(options.viewOnly ?? VIEW_ONLY_TABLES), ...Object.values(tables).filter((t) => !t.columns.some((c) => c.name === "date")).map((t) => t.name)]);
  const rollups = (options.rollups ?? ROLLUPS).filter((r) => Object.hasOwn(tables, r.table));
  for (const r of rollups) if (Object.hasOwn(tables, r.name)) throw new Error(`warehouse reader: rollup ${r.name} has the name of a declared table`);
  const pairRollups = (options.pairRollups ?? PAIR_ROLLUPS).filter((r) => Object.hasOwn(tables, r.table));
  for (const r of pairRollups) {
    if (Object.hasOwn(tables, r.name)) throw new Error(`warehouse reader: rollup ${r.name} has the name of a declared table`);
    if (viewOnly.has(r.table)) throw new Error(`warehouse reader: pair rollup ${r.name} needs ${r.table} held in memory, not a view`);
  }

  const recentCopies = (options.recentCopies ?? RECENT_COPIES).filter((r) => Object.hasOwn(tables, r.table));
  for (const r of recentCopies) {
    if (Object.hasOwn(tables, r.name)) throw new Error(`warehouse reader: recent copy ${r.name} has the name of a declared table`);
    if (!Number.isInteger(r.days) || r.days < 1) throw new Error(`warehouse reader: recent copy ${r.name} needs a positive number of days`);
    if (!(tables as Record<string, WarehouseTable>)[r.table]!.columns.some((c) => c.name === "date")) throw new Error(`warehouse reader: recent copy ${r.name} needs a table with a date column`);
  }

  // Held tables live in their own in-memory database (compressed on request); every connection resolves names there first.
  await admin.run(`ATTACH ':memory:' AS wh${options.compress === false ? "" : " (COMPRESS)"}`);
  for (const conn of [admin, ...lanes.map((l) => l.conn)]) await conn.run("USE wh");
  for (const table of Object.values(tables)) {
    if (viewOnly.has(table.name)) await admin.run(`CREATE OR REPLACE VIEW ${ident(table.name)} AS ${await sourceSql(admin, table, [])}`);
    else await admin.run(`CREATE OR REPLACE TABLE ${ident(table.name)} (${table.columns.map((c) => `${ident(c.name)} ${c.type}`).join(", ")})`);
  }
  for (const r of [...rollups, ...pairRollups]) await admin.run(`CREATE OR REPLACE TABLE ${ident(r.name)} (${r.columns.map(([n, t]) => `${ident(n)} ${t}`).join(", ")})`);
  for (const r of recentCopies) await admin.run(`CREATE OR REPLACE TABLE ${ident(r.name)} (${(tables as Record<string, WarehouseTable>)[r.table]!.columns.map((c) => `${ident(c.name)} ${c.type}`).join(", ")})`);

  /** Bring one table (and its rollups) up to `next`: only the days whose file is new, changed or gone. */
  async function syncTable(table: WarehouseTable, previous: Listing | undefined, next: Listing): Promise<void> {
    const changed = [...next.keys].filter(([d, k]) => previous?.keys.get(d) !== k).map(([d]) => d);
    const gone = [...(previous?.keys.keys() ?? [])].filter((d) => !next.keys.has(d));
    const own = rollups.filter((r) => r.table === table.name);
    const recent = recentCopies.filter((r) => r.table === table.name);
    const held = !viewOnly.has(table.name);
    const dates = [...changed, ...gone];
    await admin.run("BEGIN TRANSACTION");
    try {
      if (dates.length > 0) {
        const list = dates.map((d) => `DATE '${d}'`).join(", ");
        for (const name of [...(held ? [table.name] : []), ...own.map((r) => r.name), ...recent.map((r) => r.name)]) await admin.run(`DELETE FROM ${ident(name)} WHERE date IN (${list})`);
      }
      for (const r of recent) await syncRecent(r, table, next, changed);
      if (changed.length > 0) {
        const source = `(${await sourceSql(admin, table, changed.map((d) => next.files.get(d)!))})`;
        if (held) await admin.run(`INSERT INTO ${ident(table.name)} BY NAME SELECT * FROM ${source} ORDER BY ${subjectOrder(table.key).map(ident).join(", ")}`);
        for (const r of own) await admin.run(`INSERT INTO ${ident(r.name)} BY NAME ${r.select(source)}`);
      }
      if (!held) await admin.run(`CREATE OR REPLACE VIEW ${ident(table.name)} AS ${await sourceSql(admin, table, [...next.files.values()])}`);
      const pairs = dates.length > 0 ? pairRollups.filter((r) => r.table === table.name) : [];
      if (pairs.length > 0) {
        const dirty = `(SELECT CAST(unnest([${dates.map((d) => `DATE '${d}'`).join(", ")}]) AS DATE) AS date)`;
        for (const r of pairs) {
          await admin.run(`CREATE OR REPLACE TEMP TABLE pair_affected AS SELECT DISTINCT date FROM (${r.affected(ident(table.name), dirty)}) WHERE date IS NOT NULL`);
          await admin.run(`DELETE FROM ${ident(r.name)} WHERE date IN (SELECT date FROM pair_affected)`);
          await admin.run(`INSERT INTO ${ident(r.name)} BY NAME ${r.select(ident(table.name), "temp.main.pair_affected")}`);
        }
        await admin.run("DROP TABLE IF EXISTS temp.main.pair_affected");
      }
      await admin.run("COMMIT");
    } catch (cause) {
      await admin.run("ROLLBACK");
      throw cause;
    }
  }

  /** Keep a recent copy to the newest `days` captured days: drop older days, load the newest ones it lacks or that changed. */
  async function syncRecent(copy: RecentCopy, table: WarehouseTable, next: Listing, changed: readonly string[]): Promise<void> {
    const newest = [...next.files.keys()].sort().slice(-copy.days);
    const keep = newest.length > 0 ? newest.map((d) => `DATE '${d}'`).join(", ") : "NULL";
    await admin.run(`DELETE FROM ${ident(copy.name)} WHERE date IS NULL OR date NOT IN (${keep})`);
    const present = new Set((await admin.runAndReadAll(`SELECT DISTINCT CAST(date AS VARCHAR) AS d FROM ${ident(copy.name)}`)).getRowObjects().map((r) => String(r.d)));
    const load = newest.filter((d) => changed.includes(d) || !present.has(d));
    if (load.length === 0) return;
    const source = await sourceSql(admin, table, load.map((d) => next.files.get(d)!));
    await admin.run(`INSERT INTO ${ident(copy.name)} BY NAME SELECT * FROM (${source}) ORDER BY ${["date", ...subjectOrder(table.key).filter((c) => c !== "date")].map(ident).join(", ")}`);
  }

  async function refreshOnce(): Promise<boolean> {
    const next = new Map<string, Listing>();
    for (const table of Object.values(tables)) next.set(table.name, await listDayFiles(options.dirs, table.name, warn));
    const changed = version === 0 || [...next].some(([name, l]) => listings.get(name)?.key !== l.key);
    if (!changed) return false;
    for (const table of Object.values(tables)) {
      const listing = next.get(table.name)!;
      const previous = listings.get(table.name);
      if (previous?.key === listing.key) continue;
      try {
        await syncTable(table, previous, listing);
      } catch (cause) {
        // An unreadable day file (truncated, foreign) must not take the server down: the table keeps what it
        // held (empty on the first load), and the next refresh tries again.
        warn(`warehouse table ${table.name}: cannot read its ${listing.files.size} day file(s), ${version === 0 ? "serving it empty" : "keeping the previous rows"}: ${(cause as Error).message}`);
        next.set(table.name, { files: previous?.files ?? new Map(), keys: previous?.keys ?? new Map(), key: `${previous?.key ?? ""}#unreadable` });
      }
    }
    // Statements bound to the old views are dropped; each is prepared again on its next use.
    for (const lane of lanes) {
      for (const statement of lane.statements.values()) statement.destroySync();
      lane.statements.clear();
    }
    listings = next;
    version++;
    return true;
  }

  function refresh(): Promise<boolean> {
    if (closed) return Promise.resolve(false);
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = (async () => {
      let any = false;
      do {
        again = false;
        // Queries wait for a rebuild, and a rebuild waits for the queries under way.
        any = (await exclusive(() => refreshOnce())) || any;
      } while (again);
      return any;
    })().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  }

  /** Run `fn` when no query is under way on any lane, holding every lane until it is done. */
  function exclusive<T>(fn: () => Promise<T>): Promise<T> {
    const idle = Promise.all(lanes.map((l) => l.chain));
    const run = idle.then(fn);
    const settled = run.catch(() => undefined);
    for (const lane of lanes) lane.chain = settled;
    return run;
  }

  await refresh();

  return {
    get version() {
      return version;
    },
    dates(table) {
      return [...(listings.get(table)?.files.keys() ?? [])];
    },
    files(table) {
      return [...(listings.get(table)?.files.values() ?? [])];
    },
    daysOf(table, dates) {
      if (!Object.hasOwn(tables, table)) throw new WarehouseQueryError(`no warehouse table ${JSON.stringify(table)}`);
      if (!viewOnly.has(table)) return ident(table);
      const files = listings.get(table)?.files;
      const paths = [...new Set(dates)].flatMap((d) => (files?.has(d) ? [files.get(d)!] : []));
      return paths.length === 0 ? `(SELECT * FROM ${ident(table)} WHERE false)` : `(SELECT * FROM read_parquet([${paths.map(pathLiteral).join(", ")}], union_by_name = true))`;
    },
    refresh,
    query<T extends WarehouseRow = WarehouseRow>(sql: string, params: readonly SqlParam[] = []): Promise<T[]> {
      if (closed) return Promise.reject(new WarehouseQueryError("the warehouse reader is closed"));
      const lane = lanes.reduce((a, b) => (b.pending < a.pending ? b : a));
      lane.pending++;
      const run = lane.chain.then(() => runOn(lane, sql, params));
      lane.chain = run.catch(() => undefined);
      return run.finally(() => lane.pending--) as Promise<T[]>;
    },
    close() {
      if (closed) return;
      closed = true;
      for (const lane of lanes) {
        for (const statement of lane.statements.values()) statement.destroySync();
        lane.statements.clear();
        lane.conn.closeSync();
      }
      admin.closeSync();
      instance.closeSync();
      if (ownTemp) rmSync(ownTemp, { recursive: true, force: true });
    },
  };
}

/** Prepare (once per SQL text and lane) and run one read-only statement; rows in plain JSON types. */
async function runOn(lane: Lane, sql: string, params: readonly SqlParam[]): Promise<WarehouseRow[]> {
  let statement = lane.statements.get(sql);
  if (statement) {
    // Most recently used last, so the oldest goes first when the cache is full.
    lane.statements.delete(sql);
    lane.statements.set(sql, statement);
  } else {
    statement = await lane.conn.prepare(sql);
    const kind = statementTypeName(statement);
    if (!READ_ONLY_STATEMENTS.has(kind)) {
      statement.destroySync();
      throw new WarehouseQueryError(`the warehouse reader runs SELECT statements only; got ${kind}`);
    }
    lane.statements.set(sql, statement);
    if (lane.statements.size > MAX_STATEMENTS) {
      const [oldest, old] = lane.statements.entries().next().value!;
      lane.statements.delete(oldest);
      old.destroySync();
    }
  }
  if (params.length !== statement.parameterCount) {
    throw new WarehouseQueryError(`the statement takes ${statement.parameterCount} parameter(s), ${params.length} given`);
  }
  statement.clearBindings();
  params.forEach((value, i) => bindParam(statement, i + 1, value));
  const reader = await statement.runAndReadAll();
  return reader.convertRowObjects(toPlain) as WarehouseRow[];
}

function statementTypeName(statement: DuckDBPreparedStatement): string {
  return StatementType[statement.statementType] ?? `statement type ${String(statement.statementType)}`;
}

function bindParam(statement: DuckDBPreparedStatement, index: number, value: SqlParam): void {
  if (value === null) statement.bindNull(index);
  else if (typeof value === "string") statement.bindVarchar(index, value);
  else if (typeof value === "boolean") statement.bindBoolean(index, value);
  else if (Number.isSafeInteger(value)) statement.bindBigInt(index, BigInt(value));
  else if (Number.isFinite(value)) statement.bindDouble(index, value);
  else throw new WarehouseQueryError(`parameter ${index} is not a finite number: ${value}`);
}

/** DuckDB value → the contract's plain types: BIGINT and DOUBLE as number, DATE as YYYY-MM-DD, TIMESTAMPTZ as ISO UTC. */
function toPlain(value: DuckDBValue, type: DuckDBType): string | number | boolean | null {
  if (value === null) return null;
  switch (type.typeId) {
    case DuckDBTypeId.BOOLEAN:
      return value as boolean;
    case DuckDBTypeId.TINYINT:
    case DuckDBTypeId.SMALLINT:
    case DuckDBTypeId.INTEGER:
    case DuckDBTypeId.UTINYINT:
    case DuckDBTypeId.USMALLINT:
    case DuckDBTypeId.UINTEGER:
    case DuckDBTypeId.FLOAT:
    case DuckDBTypeId.DOUBLE:
      return value as number;
    case DuckDBTypeId.BIGINT:
    case DuckDBTypeId.UBIGINT:
    case DuckDBTypeId.HUGEINT:
    case DuckDBTypeId.UHUGEINT:
      return Number(value as bigint);
    case DuckDBTypeId.DECIMAL:
      return (value as DuckDBDecimalValue).toDouble();
    case DuckDBTypeId.VARCHAR:
      return value as string;
    case DuckDBTypeId.DATE: {
      const days = (value as DuckDBDateValue).days;
      return Number.isFinite(days) && Math.abs(days) < 100_000_000 ? new Date(days * MS_PER_DAY).toISOString().slice(0, 10) : String(value);
    }
    case DuckDBTypeId.TIMESTAMP_TZ:
    case DuckDBTypeId.TIMESTAMP: {
      const micros = (value as DuckDBTimestampTZValue | DuckDBTimestampValue).micros;
      const ms = Number(micros / 1000n);
      return Math.abs(ms) < 8.64e15 ? new Date(ms).toISOString() : String(value);
    }
    default:
      throw new WarehouseQueryError(`the warehouse reader returns scalar columns only; cast the ${type.toString()} column in SQL`);
  }
}

/** The day files of one table across `dirs` (a later folder wins per date), with a key over names, sizes and mtimes. */
async function listDayFiles(dirs: readonly string[], table: string, warn: (m: string) => void): Promise<Listing> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    const folder = join(dir, "warehouse", table);
    let names: string[];
    try {
      names = await readdir(folder);
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== "ENOENT") warn(`warehouse folder ${folder} unreadable: ${(cause as Error).message}`);
      continue;
    }
    for (const name of names) {
      const date = DAY_FILE.exec(name)?.[1];
      // A name that is no calendar day (2026-02-30.parquet) is no day file.
      if (date && isCalendarDay(date)) files.set(date, join(folder, name));
    }
  }
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const keys = new Map<string, string>();
  for (const [date, path] of sorted) {
    try {
      const s = await stat(path);
      keys.set(date, `${path}:${s.size}:${s.mtimeMs}`);
    } catch {
      // Removed between the listing and the stat: not read.
      sorted.delete(date);
    }
  }
  return { files: sorted, keys, key: [...keys.values()].join("|") };
}

/**
 * The order rows are held in: subject columns first (model_id, provider), then the rest of the key, the date
 * last. Series ask for one subject over many days, and DuckDB skips every row group whose min/max of the
 * subject column excludes it; a day loaded later is appended, a small tail scanned in full.
 */
function subjectOrder(key: readonly string[]): string[] {
  const subjects = ["model_id", "provider"].filter((c) => key.includes(c));
  return [...subjects, ...key.filter((c) => !subjects.includes(c) && c !== "date"), ...(key.includes("date") ? ["date"] : [])];
}

/** A SELECT of one table's declared columns, each cast to its declared type, over the given day files (none: no rows). */
async function sourceSql(conn: DuckDBConnection, table: WarehouseTable, paths: string[]): Promise<string> {
  if (paths.length === 0) {
    const cols = table.columns.map((c) => `CAST(NULL AS ${c.type}) AS ${ident(c.name)}`).join(", ");
    return `SELECT ${cols} WHERE false`;
  }
  const source = `read_parquet([${paths.map(pathLiteral).join(", ")}], union_by_name = true)`;
  // A column no day file has yet (declared later) reads as NULL rather than failing.
  const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjects();
  const present = new Set(described.map((r) => String(r.column_name)));
  const cols = table.columns.map((c) => `${present.has(c.name) ? `CAST(${ident(c.name)} AS ${c.type})` : `CAST(NULL AS ${c.type})`} AS ${ident(c.name)}`);
  return `SELECT ${cols.join(", ")} FROM ${source}`;
}

function isCalendarDay(date: string): boolean {
  const ms = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().startsWith(date);
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`warehouse reader: invalid identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

function pathLiteral(path: string): string {
  if (/[\0\n\r]/.test(path)) throw new Error(`warehouse reader: invalid path ${JSON.stringify(path)}`);
  return `'${path.replace(/'/g, "''")}'`;
}
