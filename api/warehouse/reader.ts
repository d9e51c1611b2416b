/**
 * The warehouse reader (api/warehouse/reader-contract.ts) over @duckdb/node-api: one in-process DuckDB with an
 * in-memory catalog and one view per declared table (pipelines/contract/warehouse-tables.ts) over that table's
 * day files, `<dir>/warehouse/<table>/<date>.parquet`, listed explicitly. It only ever reads Parquet (never
 * warehouse.duckdb), so it holds no lock a pipeline run or a researcher's duckdb could trip on; a writer renames
 * a new day file over the old one and the next query reads the new one. `refresh()` re-lists the day files and,
 * when the set changed (a file added, removed or rewritten), rebuilds the views and bumps `version`.
 */
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
import type { SqlParam, WarehouseReader, WarehouseRow } from "./reader-contract.ts";

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
  /** DuckDB memory limit (default 256MB). */
  memoryLimit?: string;
  /** Receives a line for every day file or folder that could not be used. */
  onWarn?: (message: string) => void;
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

/** One table's day files: date → path, and a key that changes when any file is added, removed or rewritten. */
interface Listing {
  files: Map<string, string>;
  key: string;
}

/** Open the reader: one DuckDB, the views over the day files present now. */
export async function openWarehouseReader(options: WarehouseReaderOptions): Promise<OpenWarehouseReader> {
  const tables = options.tables ?? WAREHOUSE_TABLES;
  const instance = await DuckDBInstance.create(":memory:", {
    threads: String(options.threads ?? 2),
    memory_limit: options.memoryLimit ?? "256MB",
  });
  const admin = await instance.connect();
  // Footers of day files are cached (keyed on path and modification time): a query over a year of files
  // reads their metadata once, not on every call. The Parquet reader is built in; LOAD makes its setting known.
  await admin.run("LOAD parquet");
  await admin.run("SET GLOBAL parquet_metadata_cache = true");
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

  async function refreshOnce(): Promise<boolean> {
    const next = new Map<string, Listing>();
    for (const table of Object.values(tables)) next.set(table.name, await listDayFiles(options.dirs, table.name, warn));
    const changed = version === 0 || [...next].some(([name, l]) => listings.get(name)?.key !== l.key);
    if (!changed) return false;
    for (const table of Object.values(tables)) {
      const listing = next.get(table.name)!;
      if (version > 0 && listings.get(table.name)?.key === listing.key) continue;
      try {
        await admin.run(await viewSql(admin, table, [...listing.files.values()]));
      } catch (cause) {
        // An unreadable day file (truncated, foreign) must not take the server down: the table keeps its
        // previous view, or is empty on the first build, and the next refresh tries again.
        warn(`warehouse table ${table.name}: cannot read its ${listing.files.size} day file(s), ${version === 0 ? "serving it empty" : "keeping the previous view"}: ${(cause as Error).message}`);
        if (version === 0) await admin.run(await viewSql(admin, table, []));
        const previous = listings.get(table.name);
        next.set(table.name, { files: previous?.files ?? new Map(), key: `${previous?.key ?? ""}#unreadable` });
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
      if (date) files.set(date, join(folder, name));
    }
  }
  const sorted = new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const parts: string[] = [];
  for (const [date, path] of sorted) {
    try {
      const s = await stat(path);
      parts.push(`${path}:${s.size}:${s.mtimeMs}`);
    } catch {
      // Removed between the listing and the stat: not read.
      sorted.delete(date);
    }
  }
  return { files: sorted, key: parts.join("|") };
}

/** `CREATE OR REPLACE VIEW` of one table over its day files, each declared column cast to its declared type. */
async function viewSql(conn: DuckDBConnection, table: WarehouseTable, paths: string[]): Promise<string> {
  const name = ident(table.name);
  if (paths.length === 0) {
    const cols = table.columns.map((c) => `CAST(NULL AS ${c.type}) AS ${ident(c.name)}`).join(", ");
    return `CREATE OR REPLACE VIEW ${name} AS SELECT ${cols} WHERE false`;
  }
  const source = `read_parquet([${paths.map(pathLiteral).join(", ")}], union_by_name = true)`;
  // A column no day file has yet (declared later) reads as NULL rather than failing the view.
  const described = (await conn.runAndReadAll(`DESCRIBE SELECT * FROM ${source}`)).getRowObjects();
  const present = new Set(described.map((r) => String(r.column_name)));
  const cols = table.columns.map((c) => `${present.has(c.name) ? `CAST(${ident(c.name)} AS ${c.type})` : `CAST(NULL AS ${c.type})`} AS ${ident(c.name)}`);
  return `CREATE OR REPLACE VIEW ${name} AS SELECT ${cols.join(", ")} FROM ${source}`;
}

function ident(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`warehouse reader: invalid identifier ${JSON.stringify(name)}`);
  return `"${name}"`;
}

function pathLiteral(path: string): string {
  if (/[\0\n\r]/.test(path)) throw new Error(`warehouse reader: invalid path ${JSON.stringify(path)}`);
  return `'${path.replace(/'/g, "''")}'`;
}
