import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_EXAMPLES } from "../../contract/warehouse-examples.ts";
import { WAREHOUSE_TABLES } from "../../contract/warehouse-tables.ts";
import { buildWarehouseDb } from "./build.ts";
import { ident, pathLiteral } from "./sql.ts";

/** The committed snapshots of this checkout. */
const BUNDLED = fileURLToPath(new URL("../../../snapshots/", import.meta.url));

let work = "";
const open: { instance: DuckDBInstance; conn: DuckDBConnection }[] = [];

async function connect(path: string, options: Record<string, string> = {}): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(path, options);
  const conn = await instance.connect();
  open.push({ instance, conn });
  return conn;
}

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "agentfeed-examples-"));
  await buildWarehouseDb(BUNDLED, { target: join(work, "warehouse.duckdb") });
}, 60_000);

afterAll(async () => {
  for (const { instance, conn } of open) {
    conn.closeSync();
    instance.closeSync();
  }
  if (work) await rm(work, { recursive: true, force: true });
});

/** Run an example and return its column names and row count. */
async function run(conn: DuckDBConnection, sql: string): Promise<{ columns: string[]; rows: number }> {
  const reader = await conn.runAndReadAll(sql);
  return { columns: reader.columnNames(), rows: reader.currentRowCount };
}

describe("the researchers' example questions (snapshots/warehouse/README.md)", () => {
  it("there are six, with distinct ids", () => {
    expect(WAREHOUSE_EXAMPLES).toHaveLength(6);
    expect(new Set(WAREHOUSE_EXAMPLES.map((e) => e.id)).size).toBe(6);
  });

  it("each answers with rows and its declared columns in the warehouse.duckdb built from the committed day files, opened read-only", { timeout: 60_000 }, async () => {
    const conn = await connect(join(work, "warehouse.duckdb"), { access_mode: "READ_ONLY" });
    for (const example of WAREHOUSE_EXAMPLES) {
      const answer = await run(conn, example.sql);
      expect(answer.columns, example.id).toEqual([...example.columns]);
      expect(answer.rows, example.id).toBeGreaterThan(0);
    }
  });

  it("each answers the same over views of read_parquet([<day files>]), the way a researcher queries a served instance", { timeout: 60_000 }, async () => {
    const db = await connect(":memory:");
    for (const table of Object.values(WAREHOUSE_TABLES)) {
      const folder = join(BUNDLED, "warehouse", table.name);
      const files = (await readdir(folder).catch(() => [])).filter((f) => /^\d{4}-\d{2}-\d{2}\.parquet$/.test(f)).map((f) => pathLiteral(join(folder, f)));
      const select = files.length > 0 ? `SELECT * FROM read_parquet([${files.join(", ")}])` : `SELECT ${table.columns.map((c) => `CAST(NULL AS ${c.type}) AS ${ident(c.name)}`).join(", ")} LIMIT 0`;
      await db.run(`CREATE VIEW ${ident(table.name)} AS ${select}`);
    }
    const built = await connect(join(work, "warehouse.duckdb"), { access_mode: "READ_ONLY" });
    for (const example of WAREHOUSE_EXAMPLES) {
      const viaViews = (await db.runAndReadAll(example.sql)).getRowObjectsJson();
      const viaDb = (await built.runAndReadAll(example.sql)).getRowObjectsJson();
      expect(viaViews.length, example.id).toBeGreaterThan(0);
      expect(viaViews, example.id).toEqual(viaDb);
    }
  });
});
