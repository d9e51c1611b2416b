import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { AggregatorModelsResponse, aggregatorRoutes, renderAggregatorModels } from "./aggregator.ts";
import type { AggregatorModelsSnapshot } from "../../pipelines/contract/snapshots/aggregator-models.ts";

const data: AggregatorModelsSnapshot = {
  source: "https://openrouter.ai/api/v1/models",
  summary: { total: 1, free_count: 0, namespaces: 1, unpriced_count: 0 },
  models: [
    {
      id: "a/m",
      name: "A: M",
      namespace: "a",
      created: "2026-10-01",
      context_length: 128000,
      max_output: 8192,
      modality: "text->text",
      input_modalities: ["text"],
      output_modalities: ["text"],
      pricing: { prompt_per_token: 0.000001, completion_per_token: 0.000002, input_per_1m: 1, output_per_1m: 2 },
      free: false,
    },
  ],
};
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "aggregator-models", date: "2026-11-22", lastSuccess: "2026-11-22T14:00:02.000Z", lastAttempt: "2026-11-22T14:00:02.000Z", lastChanged: "2026-11-22T14:00:02.000Z",
  lastError: null, rows: 1, provenance: "replay", slaSeconds: 172800, cadence: "daily at 14:00 UTC", sources: [], ...over,
});
function ctx(snapshot: LoadedSnapshot<unknown> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "aggregator-models" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => [],
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T15:00:00Z") };
}

describe("aggregator routes", () => {
  it("renderAggregatorModels() returns ok and the snapshot with summary and models", () => {
    const body = AggregatorModelsResponse.parse(renderAggregatorModels(ctx({ type: "aggregator-models", data, meta: meta() })));
    expect(body.snapshot.summary).toEqual(data.summary);
    expect(body.snapshot.models).toEqual(data.models);
    expect(body.updated).toBe("2026-11-22T14:00:02.000Z");
  });

  it("renderAggregatorModels() answers 503 snapshot_unavailable when missing or malformed", () => {
    expect(() => renderAggregatorModels(ctx(undefined))).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
    expect(() => renderAggregatorModels(ctx({ type: "aggregator-models", data: { models: [] }, meta: meta() }))).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("aggregatorRoutes declare a free route over the aggregator-models snapshot", () => {
    expect(aggregatorRoutes[0]).toMatchObject({ path: "/api/aggregator/models", tier: "free", snapshots: ["aggregator-models"], freshness: { cadence: "daily at 14:00 UTC" } });
  });
});
