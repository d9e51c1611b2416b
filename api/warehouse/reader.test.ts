import { existsSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { openWarehouseReader, WarehouseQueryError, type OpenWarehouseReader } from "./reader.ts";

const priceRow = (date: string, model: string, input: number, output: number) => ({
  date,
  provider: "openai",
  model_id: model,
  input_per_1m: input,
  output_per_1m: output,
  context_window: 128000,
  source: "curated",
  source_url: "https://example.test/pricing",
  observed_at: `${date}T00:00:00Z`,
});

const prices = (date: string, rows: ReturnType<typeof priceRow>[]) => ({ table: "model_prices", key: [...WAREHOUSE_TABLES.model_prices.key], rows });

describe("openWarehouseReader()", () => {
  let dir: string;
  let reader: OpenWarehouseReader | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentfeed-reader-"));
  });
  afterEach(async () => {
    reader?.close();
    reader = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("query() reads the writer's day files with plain JSON types", async () => {
    await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-x", 2.5, 10)])]);
    await writeWarehouse(dir, "2026-01-02", [
      {
        table: "probe_samples",
        key: [...WAREHOUSE_TABLES.probe_samples.key],
        rows: [{ ts: "2026-01-02T03:04:05.678Z", date: "2026-01-02", provider: "openai", url: "https://api.example.test", status: 200, ok: true, ttfb_ms: 12.5, total_ms: 40 }],
      },
    ]);
    reader = await openWarehouseReader({ dirs: [dir] });
    expect(reader.dates("model_prices")).toEqual(["2026-01-01"]);
    expect(reader.dates("probe_samples")).toEqual(["2026-01-02"]);
    const rows = await reader.query("SELECT date, model_id, input_per_1m, context_window, observed_at FROM model_prices");
    expect(rows).toEqual([{ date: "2026-01-01", model_id: "gpt-x", input_per_1m: 2.5, context_window: 128000, observed_at: "2026-01-01T00:00:00.000Z" }]);
    const probes = await reader.query("SELECT ts, status, ok, total_ms FROM probe_samples");
    expect(probes).toEqual([{ ts: "2026-01-02T03:04:05.678Z", status: 200, ok: true, total_ms: 40 }]);
  });

  it("daysOf(): only the given days' files of a view-only table; a held table itself; days without a file left out", async () => {
    const sample = (date: string) => ({ table: "probe_samples", key: [...WAREHOUSE_TABLES.probe_samples.key], rows: [{ ts: `${date}T01:00:00.000Z`, date, provider: "openai", url: "https://api.example.test", status: 200, ok: true, ttfb_ms: 1, total_ms: 2 }] });
    for (const d of ["2026-01-01", "2026-01-02", "2026-01-03"]) await writeWarehouse(dir, d, [sample(d), prices(d, [priceRow(d, "gpt-x", 1, 2)])]);
    reader = await openWarehouseReader({ dirs: [dir] });
    const rel = reader.daysOf("probe_samples", ["2026-01-01", "2026-01-03", "2026-01-09"]);
    expect(rel).toMatch(/read_parquet/);
    expect((await reader.query(`SELECT CAST(date AS VARCHAR) AS d FROM ${rel} ORDER BY d`)).map((r) => r["d"])).toEqual(["2026-01-01", "2026-01-03"]);
    expect(await reader.query(`SELECT * FROM ${reader.daysOf("probe_samples", ["2025-12-31"])}`)).toEqual([]);
    expect(reader.daysOf("model_prices", ["2026-01-01"])).toBe('"model_prices"');
    expect(() => reader!.daysOf("no_such_table", [])).toThrow(WarehouseQueryError);
  });

  it("a table without day files is an empty view with its declared column types", async () => {
    reader = await openWarehouseReader({ dirs: [dir] });
    expect(reader.dates("benchmark_scores")).toEqual([]);
    expect(await reader.query("SELECT * FROM benchmark_scores")).toEqual([]);
    const described = await reader.query<{ column_name: string; column_type: string }>(
      "SELECT column_name, data_type AS column_type FROM information_schema.columns WHERE table_name = 'benchmark_scores' ORDER BY ordinal_position",
    );
    expect(described.map((r) => [r.column_name, r.column_type])).toEqual(
      WAREHOUSE_TABLES.benchmark_scores.columns.map((c) => [c.name, c.type === "TIMESTAMPTZ" ? "TIMESTAMP WITH TIME ZONE" : c.type]),
    );
    expect(reader.version).toBe(1);
  });

  it("binds parameters, including a date given as text, and reuses the prepared statement", async () => {
    for (const d of ["2026-01-01", "2026-01-02", "2026-01-03"]) await writeWarehouse(dir, d, [prices(d, [priceRow(d, "gpt-x", 1, 2)])]);
    reader = await openWarehouseReader({ dirs: [dir], connections: 1 });
    const sql = "SELECT date FROM model_prices WHERE model_id = ? AND date BETWEEN ? AND ? ORDER BY date";
    expect(await reader.query(sql, ["gpt-x", "2026-01-02", "2026-01-03"])).toEqual([{ date: "2026-01-02" }, { date: "2026-01-03" }]);
    expect(await reader.query(sql, ["gpt-x", "2026-01-01", "2026-01-01"])).toEqual([{ date: "2026-01-01" }]);
    expect(await reader.query(sql, ["nope", "2026-01-01", "2026-01-03"])).toEqual([]);
    await expect(reader.query(sql, ["gpt-x"])).rejects.toThrow(/3 parameter\(s\), 1 given/);
  });

  it("spills into its own folder under the OS temp folder, never the working directory, and removes it at close", async () => {
    reader = await openWarehouseReader({ dirs: [dir] });
    const [row] = await reader.query<{ t: string }>("SELECT current_setting('temp_directory') AS t");
    expect(row!.t.startsWith(tmpdir())).toBe(true);
    expect(existsSync(row!.t)).toBe(true);
    reader.close();
    expect(existsSync(row!.t)).toBe(false);
  });

  it("refuses statements that are not read-only", async () => {
    reader = await openWarehouseReader({ dirs: [dir] });
    await expect(reader.query("CREATE TABLE x (a INT)")).rejects.toBeInstanceOf(WarehouseQueryError);
    await expect(reader.query("COPY model_prices TO '/tmp/x.csv'")).rejects.toThrow(/SELECT statements only/);
    await expect(reader.query("SELECT [1, 2] AS l")).rejects.toThrow(/scalar columns only/);
  });

  it("refresh() picks up a new day file and a rewritten one, bumps version, and keeps it when nothing changed", async () => {
    await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-x", 1, 2)])]);
    reader = await openWarehouseReader({ dirs: [dir] });
    const sql = "SELECT date, count(*) AS n FROM model_prices GROUP BY date ORDER BY date";
    expect(await reader.query(sql)).toEqual([{ date: "2026-01-01", n: 1 }]);
    expect(await reader.refresh()).toBe(false);
    expect(reader.version).toBe(1);

    await writeWarehouse(dir, "2026-01-02", [prices("2026-01-02", [priceRow("2026-01-02", "gpt-x", 1, 2)])]);
    expect(await reader.refresh()).toBe(true);
    expect(reader.version).toBe(2);
    expect(reader.dates("model_prices")).toEqual(["2026-01-01", "2026-01-02"]);
    expect(await reader.query(sql)).toEqual([{ date: "2026-01-01", n: 1 }, { date: "2026-01-02", n: 1 }]);

    // A second model merged into an existing day: the file is renamed over, the key changes.
    await writeWarehouse(dir, "2026-01-02", [prices("2026-01-02", [priceRow("2026-01-02", "gpt-y", 3, 4)])]);
    expect(await reader.refresh()).toBe(true);
    expect(reader.version).toBe(3);
    expect(await reader.query(sql)).toEqual([{ date: "2026-01-01", n: 1 }, { date: "2026-01-02", n: 2 }]);
  });

  it("a later folder wins for one date; the earlier folder's other dates stay", async () => {
    const local = join(dir, "local");
    await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-x", 1, 2)])]);
    await writeWarehouse(dir, "2026-01-02", [prices("2026-01-02", [priceRow("2026-01-02", "gpt-x", 1, 2)])]);
    await writeWarehouse(local, "2026-01-02", [prices("2026-01-02", [priceRow("2026-01-02", "gpt-x", 5, 6)])]);
    reader = await openWarehouseReader({ dirs: [dir, local] });
    expect(await reader.query("SELECT date, input_per_1m FROM model_prices ORDER BY date")).toEqual([
      { date: "2026-01-01", input_per_1m: 1 },
      { date: "2026-01-02", input_per_1m: 5 },
    ]);
  });

  it("holds no lock: a writer and a second reader work on the same files while it is open", async () => {
    await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-x", 1, 2)])]);
    reader = await openWarehouseReader({ dirs: [dir] });
    expect(await reader.query("SELECT count(*) AS n FROM model_prices")).toEqual([{ n: 1 }]);
    const second = await openWarehouseReader({ dirs: [dir] });
    try {
      // The writer merges into the very file both readers have read, then a researcher's duckdb reads it.
      await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-y", 3, 4)])]);
      expect(await second.query("SELECT count(*) AS n FROM model_prices")).toEqual([{ n: 1 }]);
      expect(await second.refresh()).toBe(true);
      expect(await second.query("SELECT count(*) AS n FROM model_prices")).toEqual([{ n: 2 }]);
      const researcher = await DuckDBInstance.create(":memory:");
      const conn = await researcher.connect();
      try {
        const rows = (await conn.runAndReadAll(`SELECT count(*)::INT AS n FROM read_parquet('${join(dir, "warehouse", "model_prices", "*.parquet")}')`)).getRowObjects();
        expect(rows).toEqual([{ n: 2 }]);
      } finally {
        conn.closeSync();
        researcher.closeSync();
      }
    } finally {
      second.close();
    }
    await reader.refresh();
    expect(await reader.query("SELECT count(*) AS n FROM model_prices")).toEqual([{ n: 2 }]);
  });

  it("keeps raw samples as views over their files and their per-day rollups in memory, replaced day by day", async () => {
    const status = (date: string, rows: [string, string][]) => ({
      table: "status_samples",
      key: [...WAREHOUSE_TABLES.status_samples.key],
      rows: rows.map(([ts, s]) => ({ ts, date, provider: "acme", status: s, components_total: 1, components_degraded: 0, components_down: 0 })),
    });
    await writeWarehouse(dir, "2026-01-01", [status("2026-01-01", [["2026-01-01T00:00:00Z", "operational"], ["2026-01-01T12:00:00Z", "down"]])]);
    reader = await openWarehouseReader({ dirs: [dir] });
    const kinds = await reader.query("SELECT table_name, table_type FROM information_schema.tables WHERE table_name IN ('status_samples', 'status_daily', 'model_prices') ORDER BY 1");
    expect(kinds).toEqual([
      { table_name: "model_prices", table_type: "BASE TABLE" },
      { table_name: "status_daily", table_type: "BASE TABLE" },
      { table_name: "status_samples", table_type: "VIEW" },
    ]);
    const daily = "SELECT date, samples, known, up, incident_seconds FROM status_daily ORDER BY date";
    expect(await reader.query(daily)).toEqual([{ date: "2026-01-01", samples: 2, known: 2, up: 1, incident_seconds: 3600 }]);
    await writeWarehouse(dir, "2026-01-01", [status("2026-01-01", [["2026-01-01T23:00:00Z", "degraded"]])]);
    await writeWarehouse(dir, "2026-01-02", [status("2026-01-02", [["2026-01-02T00:00:00Z", "unknown"]])]);
    await reader.refresh();
    expect(await reader.query(daily)).toEqual([
      { date: "2026-01-01", samples: 3, known: 3, up: 2, incident_seconds: 3600 + 3600 },
      { date: "2026-01-02", samples: 1, known: 0, up: 0, incident_seconds: 0 },
    ]);
    expect(await reader.query("SELECT count(*) AS n FROM status_samples")).toEqual([{ n: 4 }]);
  });

  it("counts a provider's newest sample of the day being captured for about one interval, not an hour to come", async () => {
    const rows = ([
      ["acme", "2026-01-05T10:00:00Z", "operational"], ["acme", "2026-01-05T10:02:00Z", "operational"], ["acme", "2026-01-05T10:04:00Z", "degraded"],
      // Polled every 10 minutes until 09:10, then no more: its last sample still stands an hour at most.
      ["slow", "2026-01-05T09:00:00Z", "down"], ["slow", "2026-01-05T09:10:00Z", "down"],
      // First seen in the last capture, degraded: the median interval of the day (2 minutes here), not an hour.
      ["new", "2026-01-05T10:04:00Z", "degraded"],
    ] satisfies [string, string, string][]).map(([provider, ts, s]) => ({ ts, date: "2026-01-05", provider, status: s, components_total: 1, components_degraded: 0, components_down: 0 }));
    await writeWarehouse(dir, "2026-01-05", [{ table: "status_samples", key: [...WAREHOUSE_TABLES.status_samples.key], rows }]);
    reader = await openWarehouseReader({ dirs: [dir] });
    expect(await reader.query("SELECT provider, incident_seconds FROM status_daily ORDER BY provider")).toEqual([
      { provider: "acme", incident_seconds: 120 },
      { provider: "new", incident_seconds: 120 },
      { provider: "slow", incident_seconds: 600 + 3600 },
    ]);
  });

  it("keeps a copy of the newest two captured days: a new day pushes the oldest out, a changed day is replaced, a removed day brings the older one back", async () => {
    const status = (date: string, s: string) => ({
      table: "status_samples",
      key: [...WAREHOUSE_TABLES.status_samples.key],
      rows: [{ ts: `${date}T06:00:00Z`, date, provider: "acme", status: s, components_total: 1, components_degraded: 0, components_down: 0 }],
    });
    for (const d of ["2026-01-01", "2026-01-02", "2026-01-03"]) await writeWarehouse(dir, d, [status(d, "operational")]);
    reader = await openWarehouseReader({ dirs: [dir] });
    const recent = "SELECT date, status FROM status_samples_recent ORDER BY date, ts";
    expect(await reader.query(recent)).toEqual([
      { date: "2026-01-02", status: "operational" },
      { date: "2026-01-03", status: "operational" },
    ]);
    await writeWarehouse(dir, "2026-01-04", [status("2026-01-04", "down")]);
    await writeWarehouse(dir, "2026-01-03", [{ ...status("2026-01-03", "degraded"), rows: [{ ...status("2026-01-03", "degraded").rows[0]!, ts: "2026-01-03T07:00:00Z" }] }]);
    await reader.refresh();
    expect(await reader.query(recent)).toEqual([
      { date: "2026-01-03", status: "operational" },
      { date: "2026-01-03", status: "degraded" },
      { date: "2026-01-04", status: "down" },
    ]);
    await rm(join(dir, "warehouse/status_samples/2026-01-04.parquet"));
    await reader.refresh();
    expect(await reader.query(recent)).toEqual([
      { date: "2026-01-02", status: "operational" },
      { date: "2026-01-03", status: "operational" },
      { date: "2026-01-03", status: "degraded" },
    ]);
  });

  it("keeps day-pair rollups: a changed day recomputes itself and the day after it; a removed day joins its neighbours", async () => {
    const catalog = (date: string, models: [string, number][]) => ({
      table: "aggregator_models_daily",
      key: [...WAREHOUSE_TABLES.aggregator_models_daily.key],
      rows: models.map(([id, input]) => ({ date, model_id: id, namespace: id.split("/")[0]!, input_per_1m: input, output_per_1m: input * 4, context_length: 1000 })),
    });
    await writeWarehouse(dir, "2026-01-01", [catalog("2026-01-01", [["a/one", 1], ["a/two", 2]])]);
    await writeWarehouse(dir, "2026-01-02", [catalog("2026-01-02", [["a/one", 1], ["a/two", 3], ["b/three", 0]])]);
    await writeWarehouse(dir, "2026-01-03", [catalog("2026-01-03", [["a/one", 1], ["b/three", 0]])]);
    reader = await openWarehouseReader({ dirs: [dir] });
    const changes = "SELECT date, change, model_id FROM aggregator_changes ORDER BY date, change, model_id";
    expect(await reader.query(changes)).toEqual([
      { date: "2026-01-02", change: "added", model_id: "b/three" },
      { date: "2026-01-02", change: "price", model_id: "a/two" },
      { date: "2026-01-03", change: "removed", model_id: "a/two" },
    ]);
    expect(await reader.query("SELECT date, total_models, cheapest_input, free_tier_count, namespace_count, top_namespace FROM aggregator_day ORDER BY date")).toEqual([
      { date: "2026-01-01", total_models: 2, cheapest_input: 1, free_tier_count: 0, namespace_count: 1, top_namespace: "a" },
      { date: "2026-01-02", total_models: 3, cheapest_input: 1, free_tier_count: 1, namespace_count: 2, top_namespace: "a" },
      { date: "2026-01-03", total_models: 2, cheapest_input: 1, free_tier_count: 1, namespace_count: 2, top_namespace: "a" },
    ]);
    // The middle day is rewritten (the writer upserts by key: a/one repriced): its own changes and the next
    // day's, which compares with it, are recomputed.
    await writeWarehouse(dir, "2026-01-02", [catalog("2026-01-02", [["a/one", 5]])]);
    await reader.refresh();
    expect(await reader.query(changes)).toEqual([
      { date: "2026-01-02", change: "added", model_id: "b/three" },
      { date: "2026-01-02", change: "price", model_id: "a/one" },
      { date: "2026-01-02", change: "price", model_id: "a/two" },
      { date: "2026-01-03", change: "price", model_id: "a/one" },
      { date: "2026-01-03", change: "removed", model_id: "a/two" },
    ]);
    // The middle day goes: the last day now compares with the first.
    await rm(join(dir, "warehouse", "aggregator_models_daily", "2026-01-02.parquet"));
    await reader.refresh();
    expect(await reader.query(changes)).toEqual([
      { date: "2026-01-03", change: "added", model_id: "b/three" },
      { date: "2026-01-03", change: "removed", model_id: "a/two" },
    ]);
  });

  it("runs concurrent queries across its connections and rejects after close()", async () => {
    await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-x", 1, 2)])]);
    reader = await openWarehouseReader({ dirs: [dir], connections: 2 });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => reader!.query("SELECT ? AS i, count(*) AS n FROM model_prices", [i])));
    expect(answers.map((r) => r[0])).toEqual(Array.from({ length: 20 }, (_, i) => ({ i, n: 1 })));
    reader.close();
    await expect(reader.query("SELECT 1")).rejects.toThrow(/closed/);
  });
});

describe("openWarehouseReader() with an unreadable day file", () => {
  it("serves the table empty, warns, and reads it once the file is fixed", async () => {
    const dir = await mkdtemp(join(tmpdir(), "agentfeed-reader-bad-"));
    const warnings: string[] = [];
    let reader: OpenWarehouseReader | undefined;
    try {
      const { mkdir, writeFile } = await import("node:fs/promises");
      await mkdir(join(dir, "warehouse", "model_prices"), { recursive: true });
      await writeFile(join(dir, "warehouse", "model_prices", "2026-01-01.parquet"), "not parquet");
      reader = await openWarehouseReader({ dirs: [dir], onWarn: (m) => warnings.push(m) });
      expect(await reader.query("SELECT count(*) AS n FROM model_prices")).toEqual([{ n: 0 }]);
      expect(reader.dates("model_prices")).toEqual([]);
      expect(warnings.join("\n")).toMatch(/model_prices: cannot read its 1 day file/);
      await rm(join(dir, "warehouse", "model_prices", "2026-01-01.parquet"));
      await writeWarehouse(dir, "2026-01-01", [prices("2026-01-01", [priceRow("2026-01-01", "gpt-x", 1, 2)])]);
      expect(await reader.refresh()).toBe(true);
      expect(await reader.query("SELECT count(*) AS n FROM model_prices")).toEqual([{ n: 1 }]);
    } finally {
      reader?.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
