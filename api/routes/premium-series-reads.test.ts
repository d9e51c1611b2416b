import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { aggregatorSeries } from "../verdicts/aggregator-series.ts";
import { modelhubVelocity } from "../verdicts/modelhub-velocity.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { resolveRange } from "../verdicts/history-range.ts";
import { priorCapture, readAggregatorSeries, readModelhubVelocity } from "./premium-series-reads.ts";

const range = (from: string, to: string) => resolveRange({ from, to }, new Date(`${to}T12:00:00Z`));

const agg = (date: string, model_id: string, input: number | null, output: number | null) => ({
  date,
  model_id,
  namespace: model_id.slice(0, model_id.indexOf("/")),
  input_per_1m: input,
  output_per_1m: output,
  context_length: 8192,
});
const aggBatch = (rows: ReturnType<typeof agg>[]) => ({ table: "aggregator_models_daily", key: [...WAREHOUSE_TABLES.aggregator_models_daily.key], rows });

const hub = (date: string, kind: "model" | "dataset" | "space", id: string, rank: number, value: number) => ({
  date,
  kind,
  id,
  rank,
  downloads: kind === "space" ? null : value,
  likes: kind === "space" ? value : 1,
});
const hubBatch = (rows: ReturnType<typeof hub>[]) => ({ table: "modelhub_daily", key: [...WAREHOUSE_TABLES.modelhub_daily.key], rows });

describe("premium series reads over the warehouse reader", () => {
  let dir: string;
  let reader: OpenWarehouseReader;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "af-series-"));
    // Aggregator: 03-01 and 03-03 captured, 03-02 missing.
    await writeWarehouse(dir, "2026-03-01", [aggBatch([agg("2026-03-01", "a/x", 1, 2), agg("2026-03-01", "a/y", 0, 0), agg("2026-03-01", "b/z", null, null)])]);
    await writeWarehouse(dir, "2026-03-03", [aggBatch([agg("2026-03-03", "a/x", 1, 3), agg("2026-03-03", "a/y", 0, 0), agg("2026-03-03", "c/new", 0.5, 1)])]);
    // Model hub: datasets failed on 05-02.
    await writeWarehouse(dir, "2026-05-01", [hubBatch([hub("2026-05-01", "model", "m/a", 1, 100), hub("2026-05-01", "model", "m/b", 2, 50), hub("2026-05-01", "dataset", "d/a", 1, 10), hub("2026-05-01", "space", "s/a", 1, 5)])]);
    await writeWarehouse(dir, "2026-05-02", [hubBatch([hub("2026-05-02", "model", "m/b", 1, 80), hub("2026-05-02", "model", "m/c", 2, 60), hub("2026-05-02", "space", "s/a", 1, 9)])]);
    await writeWarehouse(dir, "2026-05-03", [hubBatch([hub("2026-05-03", "model", "m/b", 1, 100), hub("2026-05-03", "model", "m/c", 2, 70), hub("2026-05-03", "dataset", "d/a", 1, 20), hub("2026-05-03", "space", "s/a", 1, 9)])]);
    reader = await openWarehouseReader({ dirs: [dir] });
  });
  afterAll(async () => {
    reader?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("priorCapture() finds the newest captured day before from", () => {
    expect(priorCapture(reader, "aggregator_models_daily", "2026-03-03")).toBe("2026-03-01");
    expect(priorCapture(reader, "aggregator_models_daily", "2026-03-01")).toBeNull();
    expect(priorCapture(reader, "modelhub_daily", "2027-01-01")).toBe("2026-05-03");
  });

  it("readAggregatorSeries() aggregates each day and compares it with the previous captured day, even before from", async () => {
    const read = await readAggregatorSeries(reader, "2026-03-02", "2026-03-04");
    expect(read.days).toEqual([
      { date: "2026-03-01", prev: null, total_models: 3, cheapest_input: 1, cheapest_output: 2, free_tier_count: 1, namespace_count: 2, top_namespace: "a" },
      { date: "2026-03-03", prev: "2026-03-01", total_models: 3, cheapest_input: 0.5, cheapest_output: 1, free_tier_count: 1, namespace_count: 2, top_namespace: "a" },
    ]);
    const s = aggregatorSeries({ range: range("2026-03-02", "2026-03-04"), ...read });
    expect(s.points.map((p) => p.has_data)).toEqual([false, true, false]);
    expect(s.points[1]).toMatchObject({ added: 1, removed: 1, price_changes: 1, added_sample: ["c/new"], removed_sample: ["b/z"] });
    expect(s.delta_in_window).toMatchObject({ start_total: 3, end_total: 3, net: 0, cheapest_input_start: 0.5, cheapest_input_end: 0.5 });
  });

  it("readAggregatorSeries() leaves the first captured day uncompared when nothing precedes it", async () => {
    const s = aggregatorSeries({ range: range("2026-03-01", "2026-03-03"), ...(await readAggregatorSeries(reader, "2026-03-01", "2026-03-03")) });
    expect(s.points[0]).toMatchObject({ has_data: true, total_models: 3, added: null, removed: null, price_changes: null });
    expect(s.points[2]).toMatchObject({ added: 1, removed: 1, price_changes: 1 });
  });

  it("readModelhubVelocity() compares each listing with its own previous captured day; deltas only for ids on both days", async () => {
    const v = modelhubVelocity({ range: range("2026-05-02", "2026-05-03"), ...(await readModelhubVelocity(reader, "2026-05-02", "2026-05-03")) });
    expect(v.points[0]).toEqual({
      date: "2026-05-02",
      model_count: 2,
      dataset_count: null,
      space_count: 1,
      models_entered: 1,
      models_exited: 1,
      datasets_entered: null,
      datasets_exited: null,
      top_models_by_download_delta: [{ id: "m/b", downloads: 80, download_delta: 30 }],
      top_datasets_by_download_delta: null,
      top_spaces_by_likes_delta: [{ id: "s/a", likes: 9, likes_delta: 4 }],
      has_data: true,
    });
    expect(v.points[1]).toMatchObject({
      models_entered: 0,
      models_exited: 0,
      datasets_entered: 0,
      datasets_exited: 0,
      top_models_by_download_delta: [
        { id: "m/b", downloads: 100, download_delta: 20 },
        { id: "m/c", downloads: 70, download_delta: 10 },
      ],
      // Datasets compare with 05-01, their previous captured day.
      top_datasets_by_download_delta: [{ id: "d/a", downloads: 20, download_delta: 10 }],
      top_spaces_by_likes_delta: [{ id: "s/a", likes: 9, likes_delta: 0 }],
    });
    expect(v.window).toEqual({
      top_model_gainers: [
        { id: "m/b", downloads: 100, download_delta: 50, days: 2 },
        { id: "m/c", downloads: 70, download_delta: 10, days: 1 },
      ],
      top_dataset_gainers: [{ id: "d/a", downloads: 20, download_delta: 10, days: 1 }],
      model_count_start: 2,
      model_count_end: 2,
    });
  });

  it("readModelhubVelocity() over a window without capture reads nothing", async () => {
    const v = modelhubVelocity({ range: range("2026-06-01", "2026-06-02"), ...(await readModelhubVelocity(reader, "2026-06-01", "2026-06-02")) });
    expect(v.points.every((p) => !p.has_data)).toBe(true);
    expect(v.window.top_model_gainers).toEqual([]);
  });
});
