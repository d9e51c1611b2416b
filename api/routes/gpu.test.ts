import { describe, expect, it } from "vitest";
import { GPU_IDS } from "../../pipelines/contract/vocabularies/gpu-models.ts";
import { toErrorParts } from "../http/errors.ts";
import { ApiError, type LoadedSnapshot, type RenderContext, type SnapshotMeta, type SnapshotReader } from "../registry/types.ts";
import { GpuCheapestQuery, GpuCheapestResponse, GpuPricingResponse, gpuRoutes, selectCheapest } from "./gpu.ts";
import type { GpuPricingSnapshot } from "../../pipelines/contract/snapshots/gpu-pricing.ts";

const LAST_SUCCESS = "2026-11-22T08:17:04.120Z";

const o = (marketplace: "lambda" | "shadeform" | "tensordock" | "vastai", price: number, count = 1, id = `${marketplace}-${price}`) => ({
  marketplace, price_per_gpu_hour_usd: price, gpu_count: count, location: "Texas, US", offer_id: id, url: null,
});

const data: GpuPricingSnapshot = {
  gpus: [
    {
      id: "H100-SXM", name: "NVIDIA H100 SXM", vram_gb: 80,
      on_demand: { min: 2.2, median: 2.3, max: 2.99, offers: 4 },
      spot: { min: 1.1, median: 1.225, max: 1.35, offers: 2 },
      cheapest: { on_demand: [o("vastai", 2.2, 8), o("tensordock", 2.25, 8), o("vastai", 2.4)], spot: [o("vastai", 1.1), o("vastai", 1.35, 8)] },
    },
    {
      id: "A10", name: "NVIDIA A10", vram_gb: 24,
      on_demand: { min: 0.75, median: 0.75, max: 0.75, offers: 1 },
      spot: null,
      cheapest: { on_demand: [o("lambda", 0.75)], spot: [] },
    },
  ],
  marketplaces: [
    { id: "lambda", name: "Lambda", url: "https://lambda.ai", offers: 1 },
    { id: "tensordock", name: "TensorDock", url: "https://tensordock.com", offers: 1 },
    { id: "vastai", name: "Vast.ai", url: "https://vast.ai", offers: 4 },
  ],
};

function meta(over: Partial<SnapshotMeta> = {}): SnapshotMeta {
  return {
    type: "gpu-pricing", date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: LAST_SUCCESS,
    lastError: null, rows: 7, provenance: "replay", slaSeconds: 28800, cadence: "every 4 hours", sources: [], ...over,
  };
}

function ctx(snapshot: LoadedSnapshot<GpuPricingSnapshot> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "gpu-pricing" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["gpu-pricing"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T09:00:00Z") };
}

const render = (path: string) => {
  const r = gpuRoutes.find((x) => x.path === path);
  if (!r?.render) throw new Error(`no render for ${path}`);
  return r.render as (c: RenderContext, i: { query: unknown; params: unknown }) => unknown;
};
const loaded = () => ctx({ type: "gpu-pricing", data, meta: meta() });
const cheapest = (query: Record<string, string>) =>
  render("/api/gpu/pricing/cheapest")(loaded(), { query: GpuCheapestQuery.parse(query), params: {} });

describe("gpu routes", () => {
  it("GET /api/gpu/pricing render() serves the snapshot with updated = manifest lastSuccess", async () => {
    const body = GpuPricingResponse.parse(await render("/api/gpu/pricing")(loaded(), { query: {}, params: {} }));
    expect(body.ok).toBe(true);
    expect(body.updated).toBe(LAST_SUCCESS);
    expect(body.gpus).toEqual(data.gpus);
    expect(body.marketplaces).toEqual(data.marketplaces);
  });

  it("GET /api/gpu/pricing/cheapest render() answers a canonical id, case-insensitively, on_demand by default", async () => {
    const body = GpuCheapestResponse.parse(await cheapest({ gpu: "h100-sxm" }));
    expect(body).toEqual({ ok: true, gpu: "H100-SXM", type: "on_demand", offers: data.gpus[0]!.cheapest.on_demand, updated: LAST_SUCCESS });
  });

  it("GET /api/gpu/pricing/cheapest render() resolves marketplace aliases", async () => {
    for (const gpu of ["NVIDIA H100 80GB HBM3", "H100 SXM5 80GB", "h100 sxm"]) {
      const body = GpuCheapestResponse.parse(await cheapest({ gpu }));
      expect(body.gpu, gpu).toBe("H100-SXM");
    }
  });

  it("GET /api/gpu/pricing/cheapest render() serves spot offers", async () => {
    const body = GpuCheapestResponse.parse(await cheapest({ gpu: "H100-SXM", type: "spot" }));
    expect(body.type).toBe("spot");
    expect(body.offers.map((x) => x.price_per_gpu_hour_usd)).toEqual([1.1, 1.35]);
    expect(body.note).toBeUndefined();
  });

  it("GET /api/gpu/pricing/cheapest render() answers 200 with an empty list and a note when no offer of that type exists", async () => {
    const spot = GpuCheapestResponse.parse(await cheapest({ gpu: "a10", type: "spot" }));
    expect(spot.offers).toEqual([]);
    expect(spot.note).toMatch(/no current spot offers for A10/);
    const absent = GpuCheapestResponse.parse(await cheapest({ gpu: "MI300X" }));
    expect(absent.offers).toEqual([]);
    expect(absent.note).toMatch(/MI300X/);
  });

  it("GET /api/gpu/pricing/cheapest render() rejects an unknown gpu with 400 unknown_gpu listing valid ids", async () => {
    let caught: unknown;
    try {
      await cheapest({ gpu: "H9000" });
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(ApiError);
    const parts = toErrorParts(caught);
    expect(parts.status).toBe(400);
    expect(parts.body.error).toBe("unknown_gpu");
    expect(parts.body.message).toContain("H9000");
    expect(parts.body.message).toContain("RTX-4090");
    expect(parts.body.valid).toEqual([...GPU_IDS]);
  });

  it("GpuCheapestQuery requires gpu and accepts only on_demand | spot", () => {
    expect(() => GpuCheapestQuery.parse({})).toThrow();
    expect(() => GpuCheapestQuery.parse({ gpu: "L4", type: "reserved" })).toThrow();
    expect(GpuCheapestQuery.parse({ gpu: " L4 " })).toEqual({ gpu: "L4", type: "on_demand" });
  });

  it("selectCheapest() is pure over the snapshot", () => {
    expect(selectCheapest(data, LAST_SUCCESS, { gpu: "A10", type: "on_demand" }).offers).toEqual([o("lambda", 0.75)]);
  });

  it("render() answers 503 snapshot_unavailable without a snapshot or a successful run", async () => {
    for (const path of ["/api/gpu/pricing", "/api/gpu/pricing/cheapest"]) {
      const input = { query: { gpu: "L4", type: "on_demand" }, params: {} };
      await expect(async () => render(path)(ctx(undefined), input)).rejects.toMatchObject({ status: 503, code: "snapshot_unavailable" });
      await expect(async () => render(path)(ctx({ type: "gpu-pricing", data, meta: meta({ lastSuccess: null }) }), input)).rejects.toMatchObject({ status: 503 });
    }
  });

  it("gpuRoutes declare the gpu-pricing snapshot and its 4-hour freshness", () => {
    for (const r of gpuRoutes) {
      expect(r.snapshots).toEqual(["gpu-pricing"]);
      expect(r.freshness).toEqual({ cadence: "every 4 hours", slaSeconds: 28800 });
      expect(r.tier).toBe("free");
      expect(r.description).toBeTruthy();
    }
  });
});
