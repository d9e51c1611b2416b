/**
 * GET /api/models: the curated model catalog grouped by provider — input/output cost in USD per 1M tokens,
 * context window, capabilities — as written by the `pricing` pipeline (hourly). Each model serves its newest
 * price observation (curated check or aggregator capture) and names every source's figures and the cross-check.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { PricingProviderSchema, type PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";

/** Body of GET /api/models. */
export const ModelsResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.iso.date().meta({ description: "newest date a provider's prices were checked against its pricing page" }),
  priceCheckedAt: z
    .string()
    .nullable()
    .meta({ description: "ISO time of the last successful pricing run, when priceCheck values were taken (manifest lastSuccess)" }),
  provenance: z.enum(["live", "replay"]).meta({
    description: "live: the aggregator's figures were read from it; replay: from recorded fixtures, and their observedAt is the replay run's time, not when the aggregator listed those prices",
  }),
  providers: z.array(PricingProviderSchema),
});

export type ModelsResponse = z.infer<typeof ModelsResponse>;

/** Pure render of GET /api/models over the `pricing` snapshot. */
export function renderModels(ctx: RenderContext): ModelsResponse {
  const snapshot = readSnapshot<PricingSnapshot>(ctx.snapshots, "pricing");
  return {
    ok: true,
    lastUpdated: snapshot.data.lastUpdated,
    priceCheckedAt: snapshot.meta.lastSuccess,
    provenance: snapshot.meta.provenance,
    providers: snapshot.data.providers,
  };
}

/** /api/models. */
export const modelsRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/models",
    tier: "free",
    summary: "Model catalog grouped by provider: input/output USD per 1M tokens, context window, capabilities.",
    description:
      "Curated list prices as published by each provider (pricingSource and checked date on every provider; open-weight models without a first-party API are priced at the aggregator's listed price and say so). Every hour the catalog is compared with the aggregator's model list: priceCheck.status is agrees (input and output within 1%), disagrees, missing (not listed) or unpriced (listed without a per-token price); it is null when the aggregator could not be read in the last run. The served inputCostPer1M/outputCostPer1M are the newest observation (priceServed: curated, observed on the provider's checked date, or aggregator, observed at the first capture that showed those figures; curated on a tie); priceObservations lists every source's figures with observedAt and url, newest first, so a disagreement names both prices and which one is served. lastUpdated is the newest provider checked date, not a run time. provenance replay means the aggregator's figures came from recorded fixtures: their observedAt is the replay's time.",
    tags: ["models"],
    response: ModelsResponse,
    snapshots: ["pricing"],
    freshness: { cadence: "hourly", slaSeconds: 7200 },
    render: (ctx) => renderModels(ctx),
  }),
];
