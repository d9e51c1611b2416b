/**
 * The warehouse over HTTP, end to end: a real server on a free port serves two snapshot folders (bundled and
 * its own), and a JavaScript Parquet reader (hyparquet) reads a served day file by range requests only; its
 * rows must equal DuckDB's reading of the file on disk. Also the listing, range/ETag/If-Range/416/304/HEAD,
 * traversal, and warehouse.duckdb: built from the served files, rebuilt when a day file arrives, and a
 * download in progress keeping the file it started with.
 */
import { request as httpRequest } from "node:http";
import { mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance, type DuckDBConnection } from "@duckdb/node-api";
import { parquetMetadataAsync, parquetReadObjects, type AsyncBuffer } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES, type WarehouseTable } from "../../pipelines/contract/warehouse-tables.ts";
import { createSnapshotFixture, STATUS_BODY, type SnapshotFixture } from "../e2e/snapshot-fixture.ts";
import { startServer, type RunningServer } from "../server.ts";

const PROBE = WAREHOUSE_TABLES.probe_samples;
const PRICES = WAREHOUSE_TABLES.model_prices;
/** Rows of the big day file: ten row groups of 2048. */
const PROBE_ROWS = 20_000;

let bundled: SnapshotFixture | undefined;
let local: SnapshotFixture | undefined;
let server: RunningServer | undefined;
let scratch = "";
let duck: { instance: DuckDBInstance; conn: DuckDBConnection } | undefined;
const warnings: string[] = [];

const sqlText = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** A value expression of a column's declared type for row `i` (some NULLs where the column allows them). */
function valueOf(column: WarehouseTable["columns"][number], date: string, seed: number): string {
  const nullable = (expr: string) => (column.nullable ? `CASE WHEN (i + ${seed}) % 11 = 0 THEN NULL ELSE ${expr} END` : expr);
  switch (column.type) {
    case "BOOLEAN":
      return `(i + ${seed}) % 3 <> 0`;
    case "BIGINT":
      return nullable(`i * 7 + ${seed}`);
    case "DOUBLE":
      return nullable(`(i + ${seed}) / 4.0`);
    case "VARCHAR":
      return nullable(`'v' || ((i + ${seed}) % 97) || '-' || i`);
    case "DATE":
      return `DATE '${date}'`;
    case "TIMESTAMPTZ":
      return `TIMESTAMPTZ '${date} 00:00:00+00' + to_milliseconds((i * 1001 + ${seed})::BIGINT)`;
  }
}

/** Write `<dir>/warehouse/<table>/<date>.parquet` with `rows` rows of the table's declared columns, as DuckDB writes Parquet. */
async function writeDayFile(dir: string, table: WarehouseTable, date: string, rows: number, seed: number): Promise<string> {
  const folder = join(dir, "warehouse", table.name);
  await mkdir(folder, { recursive: true });
  const path = join(folder, `${date}.parquet`);
  const columns = table.columns.map((c) => `CAST(${valueOf(c, date, seed)} AS ${c.type}) AS "${c.name}"`).join(", ");
  await duck!.conn.run(`COPY (SELECT ${columns} FROM range(${rows}) t(i)) TO ${sqlText(path)} (FORMAT parquet, ROW_GROUP_SIZE 2048)`);
  return path;
}

/** DuckDB's reading of a local Parquet file, every value as JSON: BIGINT and epoch ms as text, DATE as YYYY-MM-DD. */
async function duckRows(path: string, table: WarehouseTable): Promise<Record<string, unknown>[]> {
  const select = table.columns
    .map((c) => {
      const col = `"${c.name}"`;
      if (c.type === "TIMESTAMPTZ") return `CAST(epoch_ms(${col}) AS VARCHAR) AS ${col}`;
      if (c.type === "DATE") return `strftime(${col}, '%Y-%m-%d') AS ${col}`;
      if (c.type === "BIGINT") return `CAST(${col} AS VARCHAR) AS ${col}`;
      return col;
    })
    .join(", ");
  return (await duck!.conn.runAndReadAll(`SELECT ${select} FROM read_parquet(${sqlText(path)})`)).getRowObjectsJson() as Record<string, unknown>[];
}

/** hyparquet's rows in the same form as {@link duckRows}. */
function normalized(rows: Record<string, unknown>[], table: WarehouseTable): Record<string, unknown>[] {
  return rows.map((row) =>
    Object.fromEntries(
      table.columns.map((c) => {
        const v = row[c.name];
        if (v === null || v === undefined) return [c.name, null];
        if (c.type === "TIMESTAMPTZ") return [c.name, String((v as Date).getTime())];
        if (c.type === "DATE") return [c.name, (v as Date).toISOString().slice(0, 10)];
        if (c.type === "BIGINT") return [c.name, String(v)];
        return [c.name, v];
      }),
    ),
  );
}

/** A GET with the raw path as written (fetch would normalize `..`). */
function rawGet(path: string): Promise<{ status: number; body: string }> {
  const url = new URL(server!.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path, method: "GET" }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }));
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end();
  });
}

const listing = async () => {
  const res = await fetch(`${server!.url}/api/warehouse`);
  expect(res.status).toBe(200);
  return (await res.json()) as {
    tables: { name: string; key: string[]; columns: { name: string; type: string }[]; partitions: { date: string; url: string; bytes: number }[]; sql: string }[];
    duckdb: { url: string; bytes: number; built_at: string } | null;
    sql: { views: string; attach: string };
    examples: { id: string; sql: string; columns: string[] }[];
  };
};

beforeAll(async () => {
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  duck = { instance, conn: await instance.connect() };
  scratch = await mkdtemp(join(tmpdir(), "agentfeed-warehouse-http-"));
  // A type only the bundled folder holds: the database's snapshot_manifest records it beside the server's own.
  bundled = await createSnapshotFixture([
    { type: "status", dated: { "2026-11-20": STATUS_BODY } },
    { type: "bundled-only", dated: { "2026-11-19": { items: [1, 2] } } },
  ]);
  local = await createSnapshotFixture([{ type: "status", dated: { "2026-11-20": STATUS_BODY } }]);
  await writeDayFile(bundled.dir, PROBE, "2026-11-20", PROBE_ROWS, 1);
  await writeDayFile(bundled.dir, PRICES, "2026-11-20", 30, 2);
  // The server's own folder wins a day both hold, and adds a day.
  await writeDayFile(local.dir, PRICES, "2026-11-20", 40, 3);
  await writeDayFile(local.dir, PRICES, "2026-11-21", 50, 4);
  // Never listed nor served: an undeclared table, a file that is not a day file, a date that does not exist.
  await mkdir(join(bundled.dir, "warehouse", "not_declared"), { recursive: true });
  await writeFile(join(bundled.dir, "warehouse", "not_declared", "2026-11-20.parquet"), "PAR1");
  await writeFile(join(bundled.dir, "warehouse", "probe_samples", "notes.txt"), "hello");
  await writeFile(join(bundled.dir, "warehouse", "probe_samples", "2026-02-30.parquet"), "PAR1");
  server = await startServer({
    state: false,
    port: 0,
    host: "127.0.0.1",
    snapshotsDir: bundled.dir,
    localSnapshotsDir: local.dir,
    pollMs: 100,
    rateLimitPerMinute: 0,
    trustProxy: null,
    onWarn: (m) => warnings.push(m),
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await bundled?.remove();
  await local?.remove();
  if (scratch) await rm(scratch, { recursive: true, force: true });
  duck?.conn.closeSync();
  duck?.instance.closeSync();
});

describe("GET /api/warehouse", () => {
  it("lists every declared table with its columns and each day file's URL and size, the server's own folder first", { timeout: 60_000 }, async () => {
    const body = await listing();
    expect(body.tables.map((t) => t.name)).toEqual(Object.keys(WAREHOUSE_TABLES).sort());
    const probe = body.tables.find((t) => t.name === "probe_samples")!;
    expect(probe.columns.map((c) => [c.name, c.type])).toEqual(PROBE.columns.map((c) => [c.name, c.type]));
    expect(probe.key).toEqual(PROBE.key);
    const probeFile = join(bundled!.dir, "warehouse/probe_samples/2026-11-20.parquet");
    expect(probe.partitions).toEqual([{ date: "2026-11-20", url: `${server!.url.replace("127.0.0.1", "localhost")}/warehouse/probe_samples/2026-11-20.parquet`, bytes: (await stat(probeFile)).size }]);
    const prices = body.tables.find((t) => t.name === "model_prices")!;
    expect(prices.partitions.map((p) => p.date)).toEqual(["2026-11-20", "2026-11-21"]);
    expect(prices.partitions[0]!.bytes).toBe((await stat(join(local!.dir, "warehouse/model_prices/2026-11-20.parquet"))).size);
    expect(body.tables.some((t) => t.name === "not_declared")).toBe(false);
    // Each table names its feed and how that feed's latest run got its data (the fixture's status run is a replay).
    expect(body.tables.find((t) => t.name === "status_samples")).toMatchObject({ feed: "status", provenance: "replay" });
    expect(probe).toMatchObject({ feed: "probe", provenance: null });

    expect(body.duckdb).toMatchObject({ url: expect.stringMatching(/\/warehouse\/warehouse\.duckdb$/), bytes: expect.any(Number) });
    expect(Date.parse(body.duckdb!.built_at)).not.toBeNaN();
    expect(body.sql.attach).toContain(`ATTACH '${body.duckdb!.url}' AS af (READ_ONLY);`);
    expect(body.sql.views).toContain(`CREATE OR REPLACE VIEW "model_prices" AS SELECT * FROM read_parquet(['${prices.partitions[0]!.url}', '${prices.partitions[1]!.url}']);`);
    expect(body.examples).toHaveLength(6);
  });

  it("gives per table SQL that DuckDB runs: every listed day file's rows, or a typed empty relation", { timeout: 60_000 }, async () => {
    const body = await listing();
    for (const table of body.tables) {
      // DuckDB's httpfs cannot be installed offline: the same SQL, each listed URL replaced by the file it serves.
      let sql = table.sql;
      for (const p of table.partitions) {
        const dir = table.name === "model_prices" ? local!.dir : bundled!.dir;
        sql = sql.replace(`'${p.url}'`, sqlText(join(dir, "warehouse", table.name, `${p.date}.parquet`)));
      }
      const reader = await duck!.conn.runAndReadAll(sql);
      expect(reader.columnNames(), table.name).toEqual(table.columns.map((c) => c.name));
      const expected = table.name === "probe_samples" ? PROBE_ROWS : table.name === "model_prices" ? 90 : 0;
      expect(reader.currentRowCount, table.name).toBe(expected);
    }
  });
});

describe("discovery", () => {
  it("/api/meta and /llms.txt name the listing, the database and the day file URLs", async () => {
    const base = server!.config.publicBaseUrl;
    const meta = (await (await fetch(`${server!.url}/api/meta`)).json()) as { api: { warehouse: Record<string, string>; endpoints: { path: string }[] } };
    expect(meta.api.warehouse).toMatchObject({
      listing: `${base}/api/warehouse`,
      duckdb: `${base}/warehouse/warehouse.duckdb`,
      day_files: `${base}/warehouse/{table}/{YYYY-MM-DD}.parquet`,
    });
    expect(meta.api.endpoints.map((e) => e.path)).toEqual(expect.arrayContaining(["/api/warehouse", "/warehouse/warehouse.duckdb", "/warehouse/:table/:file"]));
    const llms = await (await fetch(`${server!.url}/llms.txt`)).text();
    expect(llms).toContain("## Warehouse for researchers");
    expect(llms).toContain(`${base}/api/warehouse`);
    expect(llms).toContain(`ATTACH '${base}/warehouse/warehouse.duckdb' AS af (READ_ONLY)`);
    expect(llms).toContain(`- [GET /warehouse/:table/:file](${base}/warehouse/{table}/{file})`);
  });
});

describe("GET /warehouse/:table/:file", () => {
  it("a Parquet reader fetching byte ranges reads the served day file, and its rows equal DuckDB's reading of the file on disk", { timeout: 60_000 }, async () => {
    const url = `${server!.url}/warehouse/probe_samples/2026-11-20.parquet`;
    const path = join(bundled!.dir, "warehouse/probe_samples/2026-11-20.parquet");
    const size = (await stat(path)).size;
    const head = await fetch(url, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(Number(head.headers.get("content-length"))).toBe(size);
    expect(head.headers.get("accept-ranges")).toBe("bytes");

    const requests: { range: string; status: number; bytes: number; contentRange: string | null }[] = [];
    const file: AsyncBuffer = {
      byteLength: size,
      async slice(start: number, end?: number) {
        const range = `bytes=${start}-${(end ?? size) - 1}`;
        const res = await fetch(url, { headers: { range } });
        const body = await res.arrayBuffer();
        requests.push({ range, status: res.status, bytes: body.byteLength, contentRange: res.headers.get("content-range") });
        return body;
      },
    };
    // The footer first (its length, then the metadata), then one read per row group.
    const metadata = await parquetMetadataAsync(file, { initialFetchSize: 8 });
    expect(metadata.row_groups.length).toBeGreaterThan(1);
    const rows = await parquetReadObjects({ file, metadata });

    expect(normalized(rows, PROBE)).toEqual(await duckRows(path, PROBE));
    expect(rows).toHaveLength(PROBE_ROWS);
    expect(requests.length).toBeGreaterThan(2);
    for (const r of requests) {
      expect(r.status, r.range).toBe(206);
      expect(r.contentRange, r.range).toMatch(new RegExp(`^bytes \\d+-\\d+/${size}$`));
      expect(r.bytes, r.range).toBeLessThan(size);
    }
  });

  it("answers Range with 206, a range past the end with 416, If-None-Match with 304, If-Range by its validator, HEAD without a body", async () => {
    const url = `${server!.url}/warehouse/probe_samples/2026-11-20.parquet`;
    const size = (await stat(join(bundled!.dir, "warehouse/probe_samples/2026-11-20.parquet"))).size;
    const full = await fetch(url);
    expect(full.status).toBe(200);
    expect(full.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    expect(full.headers.get("access-control-expose-headers")).toContain("Content-Range");
    const etag = full.headers.get("etag")!;
    expect(etag).toMatch(/^"[^"]+"$/);
    const whole = Buffer.from(await full.arrayBuffer());
    expect(whole.subarray(0, 4).toString()).toBe("PAR1");

    const part = await fetch(url, { headers: { range: "bytes=4-1027", "if-range": etag } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 4-1027/${size}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(4, 1028))).toBe(true);

    const stale = await fetch(url, { headers: { range: "bytes=4-1027", "if-range": '"changed"' } });
    expect(stale.status).toBe(200);
    expect((await stale.arrayBuffer()).byteLength).toBe(size);

    const unsatisfiable = await fetch(url, { headers: { range: `bytes=${size}-` } });
    expect(unsatisfiable.status).toBe(416);
    expect(unsatisfiable.headers.get("content-range")).toBe(`bytes */${size}`);
    expect(await unsatisfiable.json()).toMatchObject({ ok: false, error: "range_not_satisfiable" });

    const cached = await fetch(url, { headers: { "if-none-match": etag } });
    expect(cached.status).toBe(304);

    const head = await fetch(url, { method: "HEAD", headers: { range: "bytes=0-9" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-length")).toBe("10");
    expect((await head.arrayBuffer()).byteLength).toBe(0);
  });

  it("lets only declared table names and YYYY-MM-DD.parquet file names reach the disk", async () => {
    const refused: [string, number, string][] = [
      ["/warehouse/../manifest.json", 404, "not_found"],
      ["/warehouse/probe_samples/../../manifest.json", 404, "not_found"],
      ["/warehouse/%2e%2e/status/latest.json", 404, "not_found"],
      ["/warehouse/probe_samples/..%2F..%2Fmanifest.json", 400, "invalid_params"],
      ["/warehouse/probe_samples/%2e%2e%2fnotes.txt", 400, "invalid_params"],
      ["/warehouse/probe_samples/notes.txt", 400, "invalid_params"],
      ["/warehouse/probe_samples/2026-02-30.parquet", 400, "invalid_params"],
      ["/warehouse/PROBE_SAMPLES/2026-11-20.parquet", 400, "invalid_params"],
      ["/warehouse/not_declared/2026-11-20.parquet", 404, "table_not_found"],
      ["/warehouse/probe_samples/2026-11-19.parquet", 404, "partition_not_found"],
      ["/warehouse/probe_samples/2026-11-20.parquet%00.txt", 400, "invalid_params"],
    ];
    for (const [path, status, code] of refused) {
      const res = await rawGet(path);
      expect(res.status, path).toBe(status);
      expect(JSON.parse(res.body), path).toMatchObject({ ok: false, error: code });
    }
  });
});

describe("GET /warehouse/warehouse.duckdb", () => {
  it("is built from the served day files, rebuilt when a day file arrives, and a download in progress keeps its file", { timeout: 120_000 }, async () => {
    const url = `${server!.url}/warehouse/warehouse.duckdb`;
    const first = await fetch(url);
    expect(first.status).toBe(200);
    expect(first.headers.get("content-type")).toBe("application/octet-stream");
    const v1 = Buffer.from(await first.arrayBuffer());
    const v1Etag = first.headers.get("etag")!;
    const built = (await listing()).duckdb!;
    expect(built.bytes).toBe(v1.length);

    const counts = async (bytes: Buffer, name: string) => {
      const path = join(scratch, name);
      await writeFile(path, bytes);
      const db = await DuckDBInstance.create(path, { access_mode: "READ_ONLY" });
      const conn = await db.connect();
      try {
        const probe = (await conn.runAndReadAll("SELECT count(*)::INTEGER AS n FROM probe_samples")).getRowObjects()[0]!.n;
        const prices = (await conn.runAndReadAll("SELECT count(*)::INTEGER AS n FROM model_prices")).getRowObjects()[0]!.n;
        const manifest = (await conn.runAndReadAll("SELECT type, CAST(date AS VARCHAR) AS date FROM snapshot_manifest ORDER BY type")).getRowObjects();
        return { probe, prices, manifest };
      } finally {
        conn.closeSync();
        db.closeSync();
      }
    };
    // model_prices: the server's own 40 + 50 rows, not the bundled 30 of the day both hold.
    // snapshot_manifest: every served type, each as served (both folders' status are 2026-11-20 here).
    expect(await counts(v1, "v1.duckdb")).toEqual({ probe: PROBE_ROWS, prices: 90, manifest: [{ type: "bundled-only", date: "2026-11-19" }, { type: "status", date: "2026-11-20" }] });

    // A download that has started, then a scheduled run writes a new day file and the manifest.
    const reader = (await fetch(url, { headers: { range: "bytes=0-" } })).body!.getReader();
    const received: Uint8Array[] = [(await reader.read()).value!];
    await writeDayFile(local!.dir, PROBE, "2026-11-21", 500, 5);
    await local!.write({ type: "status", dated: { "2026-11-21": STATUS_BODY } });
    const deadline = Date.now() + 20_000;
    let after = await listing();
    while (after.tables.find((t) => t.name === "probe_samples")!.partitions.length < 2 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      after = await listing();
    }
    expect(after.tables.find((t) => t.name === "probe_samples")!.partitions.map((p) => p.date)).toEqual(["2026-11-20", "2026-11-21"]);
    expect(after.duckdb!.built_at >= built.built_at).toBe(true);

    for (let r = await reader.read(); !r.done; r = await reader.read()) received.push(r.value);
    expect(Buffer.concat(received).equals(v1)).toBe(true);

    const second = await fetch(url);
    expect(second.headers.get("etag")).not.toBe(v1Etag);
    const v2 = Buffer.from(await second.arrayBuffer());
    // The server's own status run (2026-11-21) beside the type only the bundled folder holds.
    expect(await counts(v2, "v2.duckdb")).toEqual({ probe: PROBE_ROWS + 500, prices: 90, manifest: [{ type: "bundled-only", date: "2026-11-19" }, { type: "status", date: "2026-11-21" }] });
    const ranged = await fetch(url, { headers: { range: "bytes=0-99", "if-range": v1Etag } });
    expect(ranged.status).toBe(200);
    await ranged.body?.cancel();
    expect(warnings.filter((w) => w.includes("warehouse"))).toEqual([]);
  });
});
