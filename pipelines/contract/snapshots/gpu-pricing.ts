/** The `gpu-pricing` snapshot: GPU rental prices per canonical GPU (per GPU-hour, USD) across marketplaces. */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import { GPU_IDS, gpuId, type GpuId } from "../vocabularies/gpu-models.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** The marketplaces the feed reads. */
export const MARKETPLACE_IDS = ["lambda", "shadeform", "tensordock", "vastai"] as const;

export const marketplaceId = z.enum(MARKETPLACE_IDS);

export type MarketplaceId = z.infer<typeof marketplaceId>;

/** on_demand: a fixed price, not interrupted; spot: interruptible (bid / preemptible), per marketplace. */
export const offerType = z.enum(["on_demand", "spot"]);

export type OfferType = z.infer<typeof offerType>;

/** One normalized offer: the price is for ONE GPU for one hour, whatever the offer's GPU count. */
export const gpuOffer = z.strictObject({
  gpu: gpuId,
  marketplace: marketplaceId,
  type: offerType,
  price_per_gpu_hour_usd: z.number().positive(),
  gpu_count: z.number().int().positive(),
  location: z.string().min(1).nullable(),
  offer_id: z.string().min(1).nullable(),
  url: httpUrl.nullable(),
});

export type GpuOffer = z.infer<typeof gpuOffer>;

/** Offers kept per GPU and type in `cheapest`. */
export const CHEAPEST_COUNT = 3;

/** min / median / max over one GPU's offers of one type, and how many offers. */
export const priceStats = z.strictObject({
  min: z.number().positive(),
  median: z.number().positive(),
  max: z.number().positive(),
  offers: z.number().int().positive(),
});

export type PriceStats = z.infer<typeof priceStats>;

/** An offer as listed under `cheapest` (its gpu and type are implied by where it sits). */
export const cheapOffer = gpuOffer.omit({ gpu: true, type: true });

export type CheapOffer = z.infer<typeof cheapOffer>;

const byPrice = (list: CheapOffer[]) =>
  list.every((o, i) => i === 0 || list[i - 1]!.price_per_gpu_hour_usd <= o.price_per_gpu_hour_usd);

/** One GPU's aggregate. */
export const gpuPriceEntry = z.strictObject({
  id: gpuId,
  name: z.string().min(1),
  vram_gb: z.number().positive(),
  on_demand: priceStats.nullable(),
  spot: priceStats.nullable(),
  cheapest: z.strictObject({
    on_demand: z.array(cheapOffer).max(CHEAPEST_COUNT).refine(byPrice, "cheapest offers must be sorted by price"),
    spot: z.array(cheapOffer).max(CHEAPEST_COUNT).refine(byPrice, "cheapest offers must be sorted by price"),
  }),
});

export type GpuPriceEntry = z.infer<typeof gpuPriceEntry>;

/** One marketplace as listed in the snapshot: offers counted in this run (0 when skipped or failed). */
export const marketplaceEntry = z.strictObject({
  id: marketplaceId,
  name: z.string().min(1),
  url: httpUrl,
  offers: z.number().int().nonnegative(),
});

/** A GPU id's position in the catalog: the order of the snapshot's `gpus`. */
export const catalogIndex = (id: GpuId): number => GPU_IDS.indexOf(id);

/** Strict schema of the snapshot body. */
export const gpuPricingSnapshot = z.strictObject({
  gpus: z
    .array(gpuPriceEntry)
    .refine((g) => g.every((e, i) => i === 0 || catalogIndex(g[i - 1]!.id) < catalogIndex(e.id)), "gpus must be in catalog order, unique"),
  marketplaces: z
    .array(marketplaceEntry)
    .refine((m) => m.every((e, i) => i === 0 || m[i - 1]!.id < e.id), "marketplaces must be sorted by id, unique"),
});

export type GpuPricingSnapshot = z.infer<typeof gpuPricingSnapshot>;

/** The `gpu-pricing` snapshot type. */
export const gpuPricingSnapshotType = {
  type: "gpu-pricing",
  title: "GPU rental pricing",
  cron: "17 */4 * * *",
  cadence: "every 4 hours",
  slaSeconds: 8 * 3600,
  schema: gpuPricingSnapshot,
} satisfies SnapshotType<GpuPricingSnapshot>;
