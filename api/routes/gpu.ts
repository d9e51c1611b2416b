/**
 * GET /api/gpu/pricing and GET /api/gpu/pricing/cheapest: GPU rental prices aggregated from marketplaces
 * by the `gpu-pricing` pipeline (every 4 hours). Pure renders over the snapshot; `updated` is the
 * manifest's `lastSuccess` for the type.
 */
import { z } from "zod";
import { GPU_IDS, gpuId, lookupGpu } from "../../pipelines/contract/vocabularies/gpu-models.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type LoadedSnapshot, type RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { cheapOffer, gpuPriceEntry, type GpuPricingSnapshot, marketplaceEntry, offerType } from "../../pipelines/contract/snapshots/gpu-pricing.ts";

const FRESHNESS = { cadence: "every 4 hours", slaSeconds: 8 * 3600 };

const UPDATED = z.string().meta({ description: "ISO time of the last successful gpu-pricing pipeline run (manifest lastSuccess)" });

/** Body of GET /api/gpu/pricing. */
export const GpuPricingResponse = z.strictObject({
  ok: z.literal(true),
  updated: UPDATED,
  gpus: z.array(gpuPriceEntry),
  marketplaces: z.array(marketplaceEntry),
});

/** Query of GET /api/gpu/pricing/cheapest. */
export const GpuCheapestQuery = z.strictObject({
  gpu: z.string().trim().min(1).max(80).meta({ description: "canonical GPU id (case-insensitive) or a marketplace alias such as \"RTX 4090\" or \"H100 SXM5 80GB\"" }),
  type: offerType.default("on_demand"),
});
export type GpuCheapestQueryInput = z.infer<typeof GpuCheapestQuery>;

/** Body of GET /api/gpu/pricing/cheapest. */
export const GpuCheapestResponse = z.strictObject({
  ok: z.literal(true),
  gpu: gpuId,
  type: offerType,
  offers: z.array(cheapOffer).max(3),
  updated: UPDATED,
  note: z.string().optional().meta({ description: "present when the list is empty: why" }),
});
export type GpuCheapestBody = z.infer<typeof GpuCheapestResponse>;

function loadGpuPricing(ctx: RenderContext): { snapshot: LoadedSnapshot<GpuPricingSnapshot>; updated: string } {
  const snapshot = readSnapshot<GpuPricingSnapshot>(ctx.snapshots, "gpu-pricing");
  return { snapshot, updated: lastSuccessOf(snapshot) };
}

/** The cheapest current offers of one GPU and type; throws 400 unknown_gpu for a name we cannot map. Pure. */
export function selectCheapest(data: GpuPricingSnapshot, updated: string, query: GpuCheapestQueryInput): GpuCheapestBody {
  const id = lookupGpu(query.gpu);
  if (id === undefined) {
    throw new ApiError(400, "unknown_gpu", `unknown gpu ${JSON.stringify(query.gpu)}; use one of: ${GPU_IDS.join(", ")}`, { valid: [...GPU_IDS] });
  }
  const entry = data.gpus.find((g) => g.id === id);
  const offers = entry ? entry.cheapest[query.type] : [];
  const body: GpuCheapestBody = { ok: true, gpu: id, type: query.type, offers, updated };
  if (offers.length === 0) body.note = `no current ${query.type} offers for ${id} in the last successful run`;
  return body;
}

/** /api/gpu/pricing and /api/gpu/pricing/cheapest. */
export const gpuRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/gpu/pricing",
    tier: "free",
    summary: "GPU rental prices per GPU-hour aggregated across marketplaces (Vast.ai, TensorDock, Lambda, Shadeform).",
    description:
      "One entry per canonical GPU with at least one current offer, in catalog order: on_demand and spot { min, median, max, offers } in USD per ONE GPU per hour (multi-GPU offers divided by their GPU count; median of an even count is the mean of the two middle prices; 4 decimals), null when there is no offer of that type, and the 3 cheapest offers of each type. spot means interruptible: Vast.ai's minimum bid; Lambda, Shadeform and TensorDock sell on-demand only. TensorDock prices are the GPU component of its per-resource pricing. marketplaces lists every marketplace with the offers counted in the last run (0 when it was skipped for a missing API key or failed). updated is the last successful pipeline run (manifest lastSuccess).",
    tags: ["gpu"],
    response: GpuPricingResponse,
    snapshots: ["gpu-pricing"],
    freshness: FRESHNESS,
    render: (ctx) => {
      const { snapshot, updated } = loadGpuPricing(ctx);
      return { ok: true as const, updated, gpus: snapshot.data.gpus, marketplaces: snapshot.data.marketplaces };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/gpu/pricing/cheapest",
    example: "/api/gpu/pricing/cheapest?gpu=H100-SXM&type=on_demand",
    tier: "free",
    summary: "The 3 cheapest current offers for one GPU, on-demand or spot.",
    description:
      "gpu is required and matched case-insensitively against the canonical ids and the marketplace alias table (\"RTX 4090\", \"NVIDIA H100 80GB HBM3\" …); an unknown gpu answers 400 unknown_gpu with a valid array of canonical ids. type is on_demand (default) or spot. Offers are sorted by price per GPU-hour (ties: marketplace, offer id). A known GPU without offers of that type answers 200 with an empty offers list and a note.",
    tags: ["gpu"],
    query: GpuCheapestQuery,
    response: GpuCheapestResponse,
    snapshots: ["gpu-pricing"],
    freshness: FRESHNESS,
    render: (ctx, { query }) => {
      const { snapshot, updated } = loadGpuPricing(ctx);
      return selectCheapest(snapshot.data, updated, query);
    },
  }),
];
