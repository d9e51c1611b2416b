/**
 * GET /api/aggregator/models: the cross-provider aggregator's full model catalog with per-token and per-1M
 * pricing, context window, modalities and namespace — the `aggregator-models` snapshot (daily 14:00 UTC).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { renderSnapshot } from "../serve/read-snapshot.ts";
import { AggregatorModelsSnapshotSchema, aggregatorModelsSnapshotType } from "../../pipelines/contract/snapshots/aggregator-models.ts";

/** Body of GET /api/aggregator/models. */
export const AggregatorModelsResponse = z.strictObject({
  ok: z.literal(true),
  snapshot: AggregatorModelsSnapshotSchema,
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
});
export type AggregatorModelsBody = z.infer<typeof AggregatorModelsResponse>;

/** Pure render of GET /api/aggregator/models. */
export function renderAggregatorModels(ctx: RenderContext): AggregatorModelsBody {
  return renderSnapshot(ctx.snapshots, { type: "aggregator-models", schema: AggregatorModelsSnapshotSchema });
}

/** /api/aggregator/models. */
export const aggregatorRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/aggregator/models",
    tier: "free",
    summary: "Cross-provider model catalog: per-token and per-1M pricing, context window, modalities, provider namespace.",
    description:
      "Every model the aggregator lists, sorted by id. pricing.prompt_per_token / completion_per_token are USD per token as listed; input_per_1m / output_per_1m the same in USD per 1M tokens (exact decimal shift). All four are null for variable-price routers. free is true when both prices are exactly 0. namespace is the id before `/` (the maker's namespace on the aggregator). created is the listing date. summary counts total models, free models, distinct namespaces and unpriced models. Prices as listed by the aggregator, not by the model's maker (see /api/models for curated first-party prices).",
    tags: ["models"],
    response: AggregatorModelsResponse,
    snapshots: ["aggregator-models"],
    freshness: { cadence: aggregatorModelsSnapshotType.cadence, slaSeconds: aggregatorModelsSnapshotType.slaSeconds },
    render: (ctx) => renderAggregatorModels(ctx),
  }),
];
