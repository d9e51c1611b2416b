import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import {
  BenchmarksSeriesQuery,
  BenchmarksSeriesResponse,
  premiumHistoryRoutes,
  PricingSeriesQuery,
  PricingSeriesResponse,
  ProvidersSeriesQuery,
  ProvidersSeriesResponse,
  renderBenchmarksSeries,
  renderPricingSeries,
  renderProvidersSeries,
} from "./premium-history.ts";

// A small warehouse written by the real writer: three days of one model's prices, scores, probes and status pages.
let dir: string;
let reader: OpenWarehouseReader;
const batch = (table: keyof typeof WAREHOUSE_TABLES, rows: Record<string, string | number | boolean | null>[]) => ({ table, key: [...WAREHOUSE_TABLES[table].key], rows });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-history-"));
  const price = (date: string, input: number, output: number) => ({
    date, provider: "openai", model_id: "gpt-x", input_per_1m: input, output_per_1m: output, context_window: 1000,
    source: "curated", source_url: null, observed_at: `${date}T00:00:00Z`,
  });
  await writeWarehouse(dir, "2026-01-01", [
    batch("model_prices", [price("2026-01-01", 4, 4)]),
    batch("benchmark_scores", [{ date: "2026-01-01", benchmark: "gpqa", model_id: "gpt-x", score: 50, source: "s", reported_date: "2025-12-01" }]),
    batch("probe_samples", [1, 2, 3, 4].map((i) => ({ ts: `2026-01-01T0${i}:00:00Z`, date: "2026-01-01", provider: "openai", url: "u", status: 200, ok: i !== 4, ttfb_ms: i * 10, total_ms: i * 100 }))),
    // operational 00:00, degraded 10:00 (for 30 min), operational 10:30, down 23:30 (runs to the end of the day: 30 min).
    batch("status_samples", ([
      ["2026-01-01T00:00:00Z", "operational"], ["2026-01-01T10:00:00Z", "degraded"], ["2026-01-01T10:30:00Z", "operational"], ["2026-01-01T23:30:00Z", "down"],
    ] as const).map(([ts, status]) => ({ ts, date: "2026-01-01", provider: "openai", status, components_total: 3, components_degraded: 0, components_down: 0 }))),
  ]);
  await writeWarehouse(dir, "2026-01-03", [
    batch("model_prices", [price("2026-01-03", 2, 2)]),
    batch("benchmark_scores", [{ date: "2026-01-03", benchmark: "gpqa", model_id: "gpt-x", score: 55, source: "s", reported_date: "2026-01-02" }]),
  ]);
  // Two more days of gpqa at 55, then a gap, then 55 again: runs of equal scores, split by the gap.
  for (const date of ["2026-01-04", "2026-01-05", "2026-01-07"]) {
    await writeWarehouse(dir, date, [batch("benchmark_scores", [{ date, benchmark: "gpqa", model_id: "gpt-x", score: 55, source: "s", reported_date: "2026-01-02" }])]);
  }
  reader = await openWarehouseReader({ dirs: [dir] });
});
afterAll(async () => {
  reader?.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (): RenderContext => ({ snapshots: undefined as never, baseUrl: "http://x", now: new Date("2026-01-08T12:00:00Z"), warehouse: reader });
const range = { from: "2026-01-01", to: "2026-01-03" };

async function apiError(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("premium history series over the warehouse", () => {
  it("declares three 1-credit premium routes with a no-data no-charge outcome", () => {
    expect(premiumHistoryRoutes.map((r) => [r.path, r.tier, r.cost])).toEqual([
      ["/api/premium/history/pricing/series", "premium", 1],
      ["/api/premium/history/benchmarks/series", "premium", 1],
      ["/api/premium/history/providers/series", "premium", 1],
    ]);
    for (const r of premiumHistoryRoutes) expect(Object.keys(r.noCharge!.outcomes)).toEqual(["no_data_in_range"]);
  });

  it("pricing: days from the day files, a missing day null, model matched case-insensitively", async () => {
    const body = PricingSeriesResponse.parse(await renderPricingSeries(ctx(), PricingSeriesQuery.parse({ model: "GPT-X", ...range })));
    expect(body.model).toBe("gpt-x");
    expect(body.points.map((p) => p.blended)).toEqual([4, null, 2]);
    expect(body.summary).toMatchObject({ delta_pct_blended: -50, changes_detected: 1, days_with_data: 2, days_missing: 1 });
    expect(premiumHistoryRoutes[0]!.noCharge!.check(body as never)).toBeNull();
    const empty = await renderPricingSeries(ctx(), PricingSeriesQuery.parse({ model: "gpt-x", from: "2025-12-01", to: "2025-12-31" }));
    expect(premiumHistoryRoutes[0]!.noCharge!.check(empty as never)).toBe("no_data_in_range");
    const err = await apiError(() => renderPricingSeries(ctx(), PricingSeriesQuery.parse({ model: "nope" })));
    expect([err.status, err.code]).toEqual([404, "unknown_model"]);
  });

  it("benchmarks: one series per benchmark; an unknown benchmark is 404", async () => {
    const body = BenchmarksSeriesResponse.parse(await renderBenchmarksSeries(ctx(), BenchmarksSeriesQuery.parse({ model: "gpt-x", benchmark: "GPQA", ...range })));
    expect(body.benchmark).toBe("gpqa");
    expect(body.series[0]!.points.map((p) => p.score)).toEqual([50, null, 55]);
    expect(body.series[0]!.summary.delta).toBe(5);
    const err = await apiError(() => renderBenchmarksSeries(ctx(), BenchmarksSeriesQuery.parse({ model: "gpt-x", benchmark: "nope" })));
    expect([err.status, err.code]).toEqual([404, "unknown_benchmark"]);
  });

  it("benchmarks: equal scores on consecutive days read as runs and come back one point a day; a day without a score stays empty", async () => {
    const body = BenchmarksSeriesResponse.parse(await renderBenchmarksSeries(ctx(), BenchmarksSeriesQuery.parse({ model: "gpt-x", from: "2026-01-01", to: "2026-01-08" })));
    expect(body.series[0]!.points.map((p) => [p.date, p.score])).toEqual([
      ["2026-01-01", 50],
      ["2026-01-02", null],
      ["2026-01-03", 55],
      ["2026-01-04", 55],
      ["2026-01-05", 55],
      ["2026-01-06", null],
      ["2026-01-07", 55],
      ["2026-01-08", null],
    ]);
  });

  it("providers: percentiles, ok %, uptime and incident hours from the samples", async () => {
    const body = ProvidersSeriesResponse.parse(await renderProvidersSeries(ctx(), ProvidersSeriesQuery.parse({ provider: "OpenAI", ...range })));
    const [d1, d2] = body.points;
    expect(d1).toMatchObject({ has_data: true, count: 4, ok_pct: 75, ttfb_p50: 25, total_p50: 250, total_p99: 397, status_samples: 4, uptime_pct: 75, incident_hours: 1 });
    expect(d2).toMatchObject({ has_data: false, count: null, uptime_pct: null, incident_hours: null });
    expect(body.summary).toMatchObject({ overall_uptime_pct: 75, days_with_data: 1, days_with_incidents: 1, days_missing: 2 });
    const err = await apiError(() => renderProvidersSeries(ctx(), ProvidersSeriesQuery.parse({ provider: "nobody" })));
    expect([err.status, err.code]).toEqual([404, "unknown_provider"]);
  });

  it("queries refuse bad dates and ranges over 90 days", async () => {
    for (const bad of [{ model: "m", from: "2026-02-30" }, { model: "m", to: "yesterday" }, { model: "" }, { model: "a b" }, { model: "m", extra: "1" }]) {
      expect(PricingSeriesQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
    const err = await apiError(() => renderProvidersSeries(ctx(), ProvidersSeriesQuery.parse({ provider: "openai", from: "2025-01-01", to: "2025-04-01" })));
    expect([err.status, err.code]).toEqual([400, "range_too_long"]);
  });

  it("without a warehouse reader the series answer 503", async () => {
    const err = await apiError(() => renderPricingSeries({ ...ctx(), warehouse: undefined }, PricingSeriesQuery.parse({ model: "gpt-x" })));
    expect([err.status, err.code]).toEqual([503, "warehouse_unavailable"]);
  });
});
