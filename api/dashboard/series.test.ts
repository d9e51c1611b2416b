import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { blended } from "../verdicts/price.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { gpuPriceChart, modelPriceChart } from "./series.ts";

const DAY = "2026-11-20";
const price = (model_id: string, input: number, output: number) => ({
  date: DAY, provider: "google", model_id, input_per_1m: input, output_per_1m: output, context_window: 1_048_576,
  source: "curated", source_url: null, observed_at: `${DAY}T00:00:00Z`,
});
const gpu = (name: string, median: number) => ({ date: DAY, gpu: name, marketplace: "vastai", type: "on_demand", min_usd: median, median_usd: median, max_usd: median, offers: 3 });

describe("dashboard charts", () => {
  let dir: string;
  let reader: OpenWarehouseReader;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "agentfeed-dashboard-series-"));
    await writeWarehouse(dir, DAY, [
      // 0.075 and 0.3 blend to exactly 0.13125, which binary arithmetic computes as 0.13124999999999998.
      { table: "model_prices", key: [...WAREHOUSE_TABLES.model_prices.key], rows: [price("gemini-2.0-flash-lite", 0.075, 0.3), price("nova-micro", 0.035, 0.14)] },
      { table: "gpu_prices", key: [...WAREHOUSE_TABLES.gpu_prices.key], rows: [gpu("H100-SXM", 2.000049999), gpu("A100-80G", 1.23455)] },
    ]);
    reader = await openWarehouseReader({ dirs: [dir] });
  });
  afterAll(async () => {
    reader?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("draws a model's blended price as every API answer states it, a half rounded up", async () => {
    const chart = await modelPriceChart(reader);
    expect(chart.dates).toEqual([DAY]);
    const value = (name: string) => chart.series.find((s) => s.name === name)?.values[0];
    expect(value("gemini-2.0-flash-lite")).toBe(blended(0.075, 0.3));
    expect(value("gemini-2.0-flash-lite")).toBe(0.1313);
    expect(value("nova-micro")).toBe(0.0613);
  });

  it("draws each GPU's cheapest on-demand median at 4 decimals", async () => {
    const chart = await gpuPriceChart(reader);
    expect(Object.fromEntries(chart.series.map((s) => [s.name, s.values[0]]))).toEqual({ "H100-SXM": 2, "A100-80G": 1.2346 });
  });
});
