import { describe, expect, it } from "vitest";
import { models } from "../../pipelines/catalog/models.ts";
import { providers } from "../../pipelines/catalog/providers.ts";
import { buildPricingSnapshot } from "../../pipelines/feeds/pricing.ts";
import { ApiError, type LoadedSnapshot, type RenderContext, type SnapshotMeta, type SnapshotReader } from "../registry/types.ts";
import { ModelsResponse, modelsRoutes, renderModels } from "./models.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";

const LAST_SUCCESS = "2026-11-22T10:07:03.000Z";

function meta(over: Partial<SnapshotMeta> = {}): SnapshotMeta {
  return {
    type: "pricing", date: "2026-11-22", lastSuccess: LAST_SUCCESS, lastAttempt: LAST_SUCCESS, lastChanged: LAST_SUCCESS,
    lastError: null, rows: models.length, provenance: "replay", slaSeconds: 7200, cadence: "hourly", sources: [], ...over,
  };
}

function ctx(snapshot: LoadedSnapshot<PricingSnapshot> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "pricing" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (snapshot ? ["pricing"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T10:30:00Z") };
}

const data = buildPricingSnapshot(providers, models, [
  {
    aggregatorId: "openai/o3", name: "OpenAI: o3", created: "2025-04-16", contextWindow: 200000, maxOutput: 100000,
    inputPer1M: 2, outputPer1M: 8, inputModalities: ["text"], outputModalities: ["text"],
  },
], { capturedAt: "2026-11-22T10:07:00.000Z" });

describe("GET /api/models", () => {
  it("renderModels() serves the catalog grouped by provider with costs, context window and capabilities", () => {
    const body = ModelsResponse.parse(renderModels(ctx({ type: "pricing", data, meta: meta() })));
    expect(body.ok).toBe(true);
    expect(body.lastUpdated).toBe(data.lastUpdated);
    expect(body.priceCheckedAt).toBe(LAST_SUCCESS);
    expect(body.provenance).toBe(meta().provenance);
    expect(renderModels(ctx({ type: "pricing", data, meta: meta({ provenance: "live" }) })).provenance).toBe("live");
    expect(body.providers.map((p) => p.id)).toEqual(providers.map((p) => p.id));
    const o3 = body.providers.find((p) => p.id === "openai")!.models.find((m) => m.id === "o3")!;
    expect(o3).toMatchObject({ inputCostPer1M: 2, outputCostPer1M: 8, priceServed: "aggregator", contextWindow: 200000, currency: "USD" });
    expect(o3.priceObservations.map((o) => [o.source, o.inputCostPer1M, o.outputCostPer1M])).toEqual([["aggregator", 2, 8], ["curated", 10, 40]]);
    expect(o3.capabilities).toContain("reasoning");
    expect(o3.priceCheck).toMatchObject({ status: "disagrees", aggregatorInput: 2, aggregatorOutput: 8 });
  });

  it("renderModels() passes a null price-check time through when the manifest has no success yet", () => {
    const body = renderModels(ctx({ type: "pricing", data, meta: meta({ lastSuccess: null }) }));
    expect(body.priceCheckedAt).toBeNull();
  });

  it("renderModels() throws a 503 ApiError when the snapshot is absent", () => {
    try {
      renderModels(ctx(undefined));
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).status).toBe(503);
      expect((err as ApiError).code).toBe("snapshot_unavailable");
    }
  });

  it("modelsRoutes declares GET /api/models as a free route over the pricing snapshot", async () => {
    const [route] = modelsRoutes;
    expect(route).toMatchObject({ method: "GET", path: "/api/models", tier: "free", snapshots: ["pricing"] });
    const body = await route!.render!(ctx({ type: "pricing", data, meta: meta() }), { query: {}, params: {} } as never);
    expect(route!.response.parse(body)).toEqual(renderModels(ctx({ type: "pricing", data, meta: meta() })));
  });

  it("ModelsResponse rejects a body without ok", () => {
    const body = renderModels(ctx({ type: "pricing", data, meta: meta() }));
    expect(() => ModelsResponse.parse({ ...body, ok: false })).toThrow();
  });
});
