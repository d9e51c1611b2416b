/**
 * The warehouse for researchers over HTTP: GET /api/warehouse lists every declared table with its columns and
 * the URL of each day file (HTTP has no glob), the built warehouse.duckdb, and SQL ready to paste into
 * DuckDB; GET /warehouse/:table/:file serves one Parquet day file and GET /warehouse/warehouse.duckdb the
 * database, read-only, with range requests (api/http/range.ts). Only declared table names and
 * `YYYY-MM-DD.parquet` file names reach the file system. How the database is built: api/serve/warehouse-files.ts.
 */
import { z } from "zod";
import { WAREHOUSE_EXAMPLES } from "../../pipelines/contract/warehouse-examples.ts";
import type { WarehouseTable } from "../../pipelines/contract/warehouse-tables.ts";
import { fileResponse } from "../http/range.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type HandleContext } from "../registry/types.ts";
import { isCalendarDate, PARTITION_FILE, warehouseFilesOf, type WarehouseFiles } from "../serve/warehouse-files.ts";

/** Content type of a Parquet file (IANA, 2024). */
export const PARQUET_TYPE = "application/vnd.apache.parquet";
/** DuckDB database files have no registered type. */
export const DUCKDB_TYPE = "application/octet-stream";
/** Day files and the database are replaced atomically; clients revalidate with the ETag after a minute. */
const FILE_CACHE = "public, max-age=60";

/** URL path of a table's day file. */
export function partitionPath(table: string, date: string): string {
  return `/warehouse/${table}/${date}.parquet`;
}

/** URL path of the built database. */
export const DUCKDB_PATH = "/warehouse/warehouse.duckdb";

const ColumnSchema = z.strictObject({
  name: z.string(),
  type: z.string().meta({ description: "DuckDB type: BOOLEAN, BIGINT, DOUBLE, VARCHAR, DATE or TIMESTAMPTZ." }),
  nullable: z.boolean(),
  description: z.string(),
});

const PartitionSchema = z.strictObject({
  date: z.string().meta({ description: "UTC day (YYYY-MM-DD) of the day file." }),
  url: z.url(),
  bytes: z.number().int().nonnegative(),
});

const TableSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  key: z.array(z.string()).meta({ description: "Columns that identify a row within one day file." }),
  columns: z.array(ColumnSchema),
  feed: z.string().meta({ description: "The snapshot type whose feed writes the table." }),
  provenance: z
    .enum(["live", "replay"])
    .nullable()
    .meta({ description: "How that feed's latest run got its data: live (fetched from upstream) or replay (recorded fixtures, not live data); null when it has not run. snapshot_manifest in the database says the same per type." }),
  partitions: z.array(PartitionSchema).meta({ description: "Every day file, ascending by date." }),
  sql: z.string().meta({ description: "DuckDB SQL reading every day file of the table (a typed empty relation when it has none)." }),
});

const ExampleSchema = z.strictObject({
  id: z.string(),
  question: z.string(),
  sql: z.string().meta({ description: "Runs as-is after `sql.views` or after `sql.attach`." }),
  columns: z.array(z.string()),
});

/** Body of GET /api/warehouse. */
export const WarehouseListingResponse = z.strictObject({
  ok: z.literal(true),
  tables: z.array(TableSchema),
  duckdb: z
    .strictObject({
      url: z.url(),
      bytes: z.number().int().nonnegative(),
      built_at: z.string().meta({ description: "When this build of the database was written (ISO 8601, UTC)." }),
    })
    .nullable()
    .meta({ description: "The built database; null while it cannot be built (then use the day files)." }),
  sql: z.strictObject({
    views: z.string().meta({ description: "Loads DuckDB's httpfs and creates one view per table over its day file URLs." }),
    attach: z.string().meta({ description: "Loads httpfs and attaches the served warehouse.duckdb read-only as `af`." }),
  }),
  examples: z.array(ExampleSchema),
});
type WarehouseListingBody = z.infer<typeof WarehouseListingResponse>;

const DateFile = z
  .string()
  .max(32)
  .regex(PARTITION_FILE, "file must be YYYY-MM-DD.parquet")
  .refine((f) => isCalendarDate(f.slice(0, 10)), "the file name is not a calendar date")
  .meta({ description: "Day file name: YYYY-MM-DD.parquet (UTC day).", example: "2026-11-22.parquet" });

/** Path parameters of a day file. */
export const PartitionParams = z.object({
  table: z
    .string()
    .max(64)
    .regex(/^[a-z][a-z0-9_]*$/, "table must be a lower-case table name")
    .meta({ description: "Warehouse table name; see /api/warehouse.", example: "model_prices" }),
  file: DateFile,
});

/** A SQL string literal. */
function sqlText(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/** DuckDB SQL reading a table's day files; a typed empty relation when there are none (read_parquet([]) is an error). */
function tableSql(table: WarehouseTable, urls: readonly string[]): string {
  if (urls.length > 0) return `SELECT * FROM read_parquet([${urls.map(sqlText).join(", ")}])`;
  return `SELECT ${table.columns.map((c) => `CAST(NULL AS ${c.type}) AS "${c.name}"`).join(", ")} LIMIT 0`;
}

function filesOf(ctx: HandleContext): WarehouseFiles {
  const files = warehouseFilesOf(ctx.snapshots);
  if (!files) throw new ApiError(503, "warehouse_unavailable", "this server does not serve warehouse files");
  return files;
}

/** The listing body for a base URL. */
async function listing(files: WarehouseFiles, baseUrl: string, provenanceOf: (feed: string) => "live" | "replay" | null, onError: (error: unknown) => void): Promise<WarehouseListingBody> {
  const { tables: parts } = await files.listing();
  let db = null;
  try {
    db = await files.database({ waitForFresh: false });
  } catch (error) {
    onError(error);
  }
  const tables = files.tableNames.map((name) => {
    const table = files.tables[name]!;
    const partitions = (parts[name] ?? []).map((p) => ({ date: p.date, url: `${baseUrl}${partitionPath(name, p.date)}`, bytes: p.bytes }));
    return {
      name,
      description: table.description,
      key: [...table.key],
      columns: table.columns.map((c) => ({ name: c.name, type: c.type, nullable: c.nullable, description: c.description })),
      feed: table.feed,
      provenance: provenanceOf(table.feed),
      partitions,
      sql: tableSql(table, partitions.map((p) => p.url)),
    };
  });
  const views = ["INSTALL httpfs;", "LOAD httpfs;", ...tables.map((t) => `CREATE OR REPLACE VIEW "${t.name}" AS ${t.sql};`)].join("\n");
  const dbUrl = `${baseUrl}${DUCKDB_PATH}`;
  return {
    ok: true as const,
    tables,
    duckdb: db ? { url: dbUrl, bytes: db.bytes, built_at: db.builtAt.toISOString() } : null,
    sql: { views, attach: ["INSTALL httpfs;", "LOAD httpfs;", `ATTACH ${sqlText(dbUrl)} AS af (READ_ONLY);`, "USE af;"].join("\n") },
    examples: WAREHOUSE_EXAMPLES.map((e) => ({ id: e.id, question: e.question, sql: e.sql, columns: [...e.columns] })),
  };
}

const RANGE_NOTE =
  "Read-only, with HTTP range requests: `Range: bytes=a-b` answers 206 with Content-Range (one range per request; several ranges answer the whole file), a range past the end 416 with `Content-Range: bytes */<size>`; a strong ETag (If-None-Match → 304, If-Range), Last-Modified, HEAD and Accept-Ranges. The body is streamed from the file.";

/** /api/warehouse, /warehouse/warehouse.duckdb and /warehouse/:table/:file. */
export const warehouseFilesRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/warehouse",
    tier: "free",
    summary: "The warehouse for researchers: every table's columns and day file URLs, the DuckDB database URL and SQL to query them.",
    description:
      "tables lists every declared warehouse table (columns with DuckDB types and meanings, key, the feed that writes it and whether that feed's latest run was live or a replay of recorded fixtures) and the URL and size of each day file, ascending by date; duckdb is the served warehouse.duckdb (built by this server from exactly those files, when missing or older than them; while a rebuild runs, the previous build is listed; null when none can be built). sql.views creates one DuckDB view per table over the listed URLs (read_parquet of a list, since HTTP has no glob); sql.attach attaches the database read-only; examples are questions whose SQL runs as-is after either. The guide: snapshots/warehouse/README.md.",
    tags: ["warehouse"],
    response: WarehouseListingResponse,
    errors: { 503: "warehouse_unavailable: this server does not serve warehouse files." },
    handle: (ctx) => {
      const files = filesOf(ctx);
      const provenanceOf = (feed: string) => {
        const provenance = ctx.snapshots.get(feed)?.meta.provenance;
        return provenance === "live" || provenance === "replay" ? provenance : null;
      };
      return listing(files, ctx.baseUrl, provenanceOf, (error) => files.warn(`warehouse.duckdb could not be built: ${(error as Error).message}`));
    },
  }),
  defineRoute({
    method: "GET",
    path: DUCKDB_PATH,
    tier: "free",
    summary: "The warehouse as one DuckDB database file, read-only: ATTACH '<base>/warehouse/warehouse.duckdb' AS af (READ_ONLY).",
    description: `Every declared table with its declared types and descriptions (as COMMENTs), model_price_history and snapshot_manifest, built by this server from the day files it serves and rebuilt when they change (atomically: a download in progress keeps its file). ${RANGE_NOTE}`,
    tags: ["warehouse"],
    contentType: DUCKDB_TYPE,
    byteRanges: true,
    response: z.string().meta({ description: "A DuckDB database file.", format: "binary" }),
    errors: { 503: "warehouse_unavailable: the database could not be built yet; the day files are listed at /api/warehouse." },
    handle: async (ctx) => {
      const files = filesOf(ctx);
      let db;
      try {
        db = await files.database();
      } catch (error) {
        throw new ApiError(503, "warehouse_unavailable", `warehouse.duckdb could not be built: ${String((error as Error).message).slice(0, 200)}`, undefined, { "Retry-After": "60" });
      }
      const response = db ? await fileResponse(ctx.request, { path: db.path, contentType: DUCKDB_TYPE, cacheControl: FILE_CACHE }) : null;
      if (!response) throw new ApiError(503, "warehouse_unavailable", "warehouse.duckdb is not built on this server; the day files are listed at /api/warehouse", undefined, { "Retry-After": "60" });
      return response;
    },
  }),
  defineRoute({
    method: "GET",
    path: "/warehouse/:table/:file",
    tier: "free",
    summary: "One day file of a warehouse table, as Parquet, read-only with range requests.",
    description: `The URLs are listed at /api/warehouse. An undeclared table or a day without a file answers 404 (table_not_found, partition_not_found); a file name other than YYYY-MM-DD.parquet 400. ${RANGE_NOTE}`,
    tags: ["warehouse"],
    params: PartitionParams,
    contentType: PARQUET_TYPE,
    byteRanges: true,
    // A committed day file (api/e2e/helpers.ts copies it into the test fixtures).
    example: partitionPath("model_prices", "2026-11-22"),
    response: z.string().meta({ description: "An Apache Parquet file with the table's declared column types.", format: "binary" }),
    handle: async (ctx, { params }) => {
      const files = filesOf(ctx);
      if (!files.tableNames.includes(params.table)) {
        throw new ApiError(404, "table_not_found", `no warehouse table ${JSON.stringify(params.table)}; the tables are listed at /api/warehouse`);
      }
      const date = params.file.slice(0, 10);
      for (const path of files.candidates(params.table, date)) {
        const response = await fileResponse(ctx.request, { path, contentType: PARQUET_TYPE, cacheControl: FILE_CACHE });
        if (response) return response;
      }
      throw new ApiError(404, "partition_not_found", `no ${params.table} day file for ${date}; the days kept are listed at /api/warehouse`);
    },
  }),
];
