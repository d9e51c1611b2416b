import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { VASTAI_URL, vastaiSource } from "./gpu-vastai.ts";

const FIXTURE = join("pipelines/fixtures", replayPathFor(VASTAI_URL));
const NOW = new Date("2026-11-22T10:00:00Z");

testSource(vastaiSource, [{ fixture: FIXTURE, url: VASTAI_URL, meta: {}, minRows: 20 }]);

const offer = (over: Record<string, unknown>) => ({
  id: 1, gpu_name: "RTX 4090", num_gpus: 1, gpu_ram: 24564, dph_total: 0.4, min_bid: 0.2, geolocation: "Texas, US", rentable: true, ...over,
});
const run = (offers: unknown[], unmapped: string[] = []) =>
  vastaiSource.normalize(vastaiSource.parse(JSON.stringify({ offers })), { url: VASTAI_URL, now: NOW, meta: { onUnmapped: (n) => unmapped.push(n) } });

describe("vastaiSource", () => {
  it("normalize() divides a multi-GPU slice's dph_total and min_bid by num_gpus", () => {
    const rows = run([offer({ id: 7, gpu_name: "H100 SXM", num_gpus: 8, gpu_ram: 81559, dph_total: 17.6, min_bid: 10.8 })]);
    expect(rows).toEqual([
      { gpu: "H100-SXM", marketplace: "vastai", type: "on_demand", price_per_gpu_hour_usd: 2.2, gpu_count: 8, location: "Texas, US", offer_id: "7", url: null },
      { gpu: "H100-SXM", marketplace: "vastai", type: "spot", price_per_gpu_hour_usd: 1.35, gpu_count: 8, location: "Texas, US", offer_id: "7", url: null },
    ]);
  });

  it("normalize() rounds per-GPU prices to 4 decimals", () => {
    const [row] = run([offer({ num_gpus: 3, dph_total: 1, min_bid: 0 })]);
    expect(row?.price_per_gpu_hour_usd).toBe(0.3333);
  });

  it("normalize() splits A100 by gpu_ram (MB) and reports unmapped names", () => {
    const unmapped: string[] = [];
    const rows = run([
      offer({ id: 1, gpu_name: "A100 SXM4", gpu_ram: 81920, min_bid: null }),
      offer({ id: 2, gpu_name: "A100 PCIE", gpu_ram: 40960, min_bid: null }),
      offer({ id: 3, gpu_name: "Q RTX 8000" }),
    ], unmapped);
    expect(rows.map((r) => [r.offer_id, r.gpu])).toEqual([["1", "A100-80G"], ["2", "A100-40G"]]);
    expect(unmapped).toEqual(["Q RTX 8000"]);
  });

  it("normalize() skips offers that are not rentable and prices that are not positive", () => {
    expect(run([offer({ rentable: false }), offer({ dph_total: 0, min_bid: null })])).toEqual([]);
  });

  it("parse() rejects a body without offers", () => {
    expect(() => vastaiSource.parse(JSON.stringify({ success: false, error: "invalid_args" }))).toThrow(/gpu-vastai: unexpected body shape/);
    expect(() => vastaiSource.parse("<html>")).toThrow(/not JSON/);
  });

  it("the fixture holds multi-GPU offers", () => {
    const parsed = vastaiSource.parse(readFileSync(FIXTURE, "utf8"));
    expect(parsed.offers.some((o) => o.num_gpus > 1)).toBe(true);
  });
});
