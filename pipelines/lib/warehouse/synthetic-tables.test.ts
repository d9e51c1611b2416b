import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeSyntheticAggregatorModels, writeSyntheticModelhub } from "./synthetic-tables.ts";

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const conn = await instance.connect();
  try {
    return (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    conn.closeSync();
    instance.closeSync();
  }
}

describe("synthetic warehouse tables", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-synthetic-"));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("writeSyntheticAggregatorModels() writes N days × M models, labelled synthetic, with churn, price changes, free and unpriced models", async () => {
    const result = await writeSyntheticAggregatorModels(dir, { start: "2026-01-30", days: 40, models: 120 });
    expect(result).toEqual({ table: "aggregator_models_daily", days: 40, rows: 4800 });
    expect((await readdir(join(dir, "warehouse/aggregator_models_daily"))).sort().slice(0, 3)).toEqual(["2026-01-30.parquet", "2026-01-31.parquet", "2026-02-01.parquet"]);
    const files = `read_parquet('${join(dir, "warehouse/aggregator_models_daily/*.parquet")}')`;
    const [facts] = await query(
      `SELECT count(DISTINCT date)::INT AS days, max(n)::INT AS per_day, count(DISTINCT model_id)::INT AS ids,
              bool_and(model_id LIKE 'synthetic-%') AS labelled, count(*) FILTER (WHERE input_per_1m = 0)::INT AS free,
              count(*) FILTER (WHERE input_per_1m IS NULL)::INT AS unpriced, count(DISTINCT (model_id, input_per_1m))::INT AS prices
       FROM (SELECT *, count(*) OVER (PARTITION BY date) AS n FROM ${files})`,
    );
    expect(facts).toMatchObject({ days: 40, per_day: 120, labelled: true });
    expect(facts!.ids as number).toBeGreaterThan(120);
    expect(facts!.prices as number).toBeGreaterThan(facts!.ids as number);
    expect(facts!.free as number).toBeGreaterThan(0);
    expect(facts!.unpriced as number).toBeGreaterThan(0);
  });

  it("writeSyntheticModelhub() writes the top 30 of each listing per day, ranked, Spaces without downloads", async () => {
    const result = await writeSyntheticModelhub(dir, { start: "2026-01-30", days: 10, models: 80 });
    expect(result).toEqual({ table: "modelhub_daily", days: 10, rows: 900 });
    const rows = await query(
      `SELECT kind, count(*)::INT AS n, max(rank)::INT AS top, count(downloads)::INT AS with_downloads, count(DISTINCT id)::INT AS ids
       FROM read_parquet('${join(dir, "warehouse/modelhub_daily/*.parquet")}') GROUP BY kind ORDER BY kind`,
    );
    expect(rows.map((r) => [r["kind"], r["n"], r["top"], r["with_downloads"]])).toEqual([
      ["dataset", 300, 30, 300],
      ["model", 300, 30, 300],
      ["space", 300, 30, 0],
    ]);
  });

  it("the same seed writes the same figures; a bad size is refused before anything is written", async () => {
    const other = await mkdtemp(join(tmpdir(), "af-synthetic-again-"));
    try {
      await writeSyntheticModelhub(other, { start: "2026-01-30", days: 10, models: 80 });
      const sum = (d: string) => query(`SELECT sum(coalesce(downloads, 0) + likes)::BIGINT AS s FROM read_parquet('${join(d, "warehouse/modelhub_daily/*.parquet")}')`);
      expect(await sum(other)).toEqual(await sum(dir));
      await expect(writeSyntheticModelhub(other, { start: "2026-01-30", days: 0, models: 10 })).rejects.toThrow(/days must be an integer/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  });
});
