import { cpSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import { replayFixtures } from "../lib/testing/replay-fixtures.ts";
import type { GpuOffer } from "../sources/gpu-common.ts";
import {
  GpuPricingFeedError,
  MARKETPLACES,
  aggregateGpus,
  gpuPricingFeed,
  gpuPricingSnapshot,
  median,
  runGpuPricing,
  statsOf,
  warehouseRows,
} from "./gpu-pricing.ts";

const NOW = new Date("2026-11-22T10:17:00Z");
const KEYS = { LAMBDA_API_KEY: "test-key", SHADEFORM_API_KEY: "test-key" };
const fixtures = replayFixtures();
const client = fixtures.client;

/** A temp replay dir with the marketplace fixtures except `without`. */
function replayWithout(without: string[]): string {
  const dir = fixtures.tempDir("gpu-pricing-");
  for (const m of MARKETPLACES) {
    if (without.includes(m.id)) continue;
    const rel = replayPathFor(m.endpoint);
    mkdirSync(dirname(join(dir, rel)), { recursive: true });
    cpSync(join("pipelines/fixtures", rel), join(dir, rel));
  }
  return dir;
}

const offer = (price: number, over: Partial<GpuOffer> = {}): GpuOffer => ({
  gpu: "RTX-4090", marketplace: "vastai", type: "on_demand", price_per_gpu_hour_usd: price, gpu_count: 1, location: null, offer_id: String(price), url: null, ...over,
});

describe("gpu-pricing aggregation", () => {
  it("median() takes the middle value of an odd count", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([0.5])).toBe(0.5);
  });

  it("median() averages the two middle values of an even count", () => {
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([0.1, 0.2])).toBe(0.15);
    expect(median([0.33333, 0.33334])).toBe(0.3333);
    expect(() => median([])).toThrow(RangeError);
  });

  it("statsOf() gives min, median, max and count, null for no offers", () => {
    expect(statsOf([offer(0.4), offer(0.2), offer(0.9)])).toEqual({ min: 0.2, median: 0.4, max: 0.9, offers: 3 });
    expect(statsOf([])).toBeNull();
  });

  it("aggregateGpus() keeps catalog order, the 3 cheapest per type and null for a missing type", () => {
    const gpus = aggregateGpus([
      offer(0.5), offer(0.3, { marketplace: "tensordock" }), offer(0.3, { marketplace: "lambda" }), offer(0.7), offer(0.2, { type: "spot" }),
      offer(2.5, { gpu: "H100-SXM", gpu_count: 8 }),
    ]);
    expect(gpus.map((g) => g.id)).toEqual(["H100-SXM", "RTX-4090"]);
    const rtx = gpus[1]!;
    expect(rtx.on_demand).toEqual({ min: 0.3, median: 0.4, max: 0.7, offers: 4 });
    expect(rtx.cheapest.on_demand.map((o) => [o.marketplace, o.price_per_gpu_hour_usd])).toEqual([["lambda", 0.3], ["tensordock", 0.3], ["vastai", 0.5]]);
    expect(rtx.cheapest.spot).toHaveLength(1);
    expect(gpus[0]!.spot).toBeNull();
    expect(gpus[0]!.cheapest.spot).toEqual([]);
  });

  it("warehouseRows() gives one row per gpu, marketplace and type", () => {
    const batch = warehouseRows("2026-11-22", [offer(0.5), offer(0.3), offer(0.2, { type: "spot" }), offer(0.4, { marketplace: "tensordock" })]);
    expect(batch.table).toBe("gpu_prices");
    expect(batch.key).toEqual(["date", "gpu", "marketplace", "type"]);
    expect(batch.rows).toEqual([
      { date: "2026-11-22", gpu: "RTX-4090", marketplace: "tensordock", type: "on_demand", min_usd: 0.4, median_usd: 0.4, max_usd: 0.4, offers: 1 },
      { date: "2026-11-22", gpu: "RTX-4090", marketplace: "vastai", type: "on_demand", min_usd: 0.3, median_usd: 0.4, max_usd: 0.5, offers: 2 },
      { date: "2026-11-22", gpu: "RTX-4090", marketplace: "vastai", type: "spot", min_usd: 0.2, median_usd: 0.2, max_usd: 0.2, offers: 1 },
    ]);
  });
});

describe("gpuPricingFeed with the replay client", () => {
  it("runGpuPricing() merges every marketplace's recorded offers into a valid snapshot", async () => {
    const ctx = testFeedContext({ http: client("pipelines/fixtures"), now: NOW });
    const out = await runGpuPricing(ctx, { env: KEYS });
    gpuPricingSnapshot.parse(out.data);
    expect(out.sources?.every((s) => s.ok)).toBe(true);
    expect(out.data.marketplaces.map((m) => m.id)).toEqual(["lambda", "shadeform", "tensordock", "vastai"]);
    expect(out.data.marketplaces.every((m) => m.offers > 0)).toBe(true);
    expect(out.rows).toBe(out.data.marketplaces.reduce((n, m) => n + m.offers, 0));
    const h100 = out.data.gpus.find((g) => g.id === "H100-SXM");
    expect(new Set(h100?.cheapest.on_demand.map((o) => o.marketplace)).size).toBeGreaterThan(1);
    expect(h100?.spot?.offers).toBeGreaterThan(0);
    expect(ctx.notices.some((n) => n.includes("vastai dropped offers of unmapped GPUs") && n.includes("Q RTX 8000"))).toBe(true);
    expect(out.warehouse?.[0]?.rows.every((r) => r.date === "2026-11-22")).toBe(true);
    // Same input, same bytes.
    const again = await runGpuPricing(testFeedContext({ http: client("pipelines/fixtures"), now: NOW }), { env: KEYS });
    expect(JSON.stringify(again.data)).toBe(JSON.stringify(out.data));
  });

  it("runGpuPricing() keeps going when one marketplace is missing and reports it", async () => {
    const ctx = testFeedContext({ http: client(replayWithout(["tensordock"])), now: NOW });
    const out = await runGpuPricing(ctx, { env: KEYS });
    const td = out.sources?.find((s) => s.id === "tensordock");
    expect(td?.ok).toBe(false);
    expect(td?.error).toMatch(/no replay fixture/);
    expect(out.data.marketplaces.find((m) => m.id === "tensordock")?.offers).toBe(0);
    expect(out.data.gpus.flatMap((g) => g.cheapest.on_demand).some((o) => o.marketplace === "tensordock")).toBe(false);
    expect(ctx.notices.some((n) => n.startsWith("gpu-pricing: tensordock failed"))).toBe(true);
  });

  it("runGpuPricing() skips keyed marketplaces without their key, with a notice", async () => {
    const ctx = testFeedContext({ http: client("pipelines/fixtures"), now: NOW });
    const out = await runGpuPricing(ctx, { env: {} });
    expect(out.sources?.find((s) => s.id === "lambda")).toEqual({ id: "lambda", ok: false, error: "skipped: LAMBDA_API_KEY is not set", rows: 0 });
    expect(ctx.notices).toContain("gpu-pricing: shadeform skipped: SHADEFORM_API_KEY is not set");
    expect(out.data.marketplaces.filter((m) => m.offers > 0).map((m) => m.id)).toEqual(["tensordock", "vastai"]);
  });

  it("runGpuPricing() reads keyed marketplaces without their key in replay", async () => {
    const ctx = { ...testFeedContext({ http: client("pipelines/fixtures"), now: NOW }), provenance: "replay" as const };
    const out = await runGpuPricing(ctx, { env: {} });
    expect(out.sources?.find((s) => s.id === "lambda")?.ok).toBe(true);
    expect(out.data.marketplaces.filter((m) => m.offers > 0).map((m) => m.id)).toEqual(["lambda", "shadeform", "tensordock", "vastai"]);
  });

  it("runGpuPricing() fails when every marketplace tried fails", async () => {
    const ctx = testFeedContext({ http: client(replayWithout(["tensordock", "vastai"])), now: NOW });
    await expect(runGpuPricing(ctx, { env: {} })).rejects.toBeInstanceOf(GpuPricingFeedError);
  });

  it("gpuPricingFeed declares its type, schedule and URLs", () => {
    expect(gpuPricingFeed.type).toBe("gpu-pricing");
    expect(gpuPricingFeed.cron).toBe("17 */4 * * *");
    expect(gpuPricingFeed.slaSeconds).toBe(8 * 3600);
    expect(gpuPricingFeed.urls()).toHaveLength(MARKETPLACES.length);
  });
});
