/**
 * Vast.ai offer search: `GET https://console.vast.ai/api/v0/bundles?q=<JSON filter>` (the search behind
 * `vastai search offers`, https://docs.vast.ai/ — the offer search needs no key). No published rate
 * limit; we send one request per run (every 4 hours).
 *
 * Each offer is a machine slice of `num_gpus` GPUs. on_demand = `dph_total` (USD/hour for the slice,
 * GPU plus its share of storage and bandwidth as Vast bills it) / `num_gpus`; spot = `min_bid` (the
 * lowest bid that wins an interruptible instance on the slice) / `num_gpus`, when positive. `gpu_ram`
 * is MB per GPU and decides the A100 40/80 GB split. Location is `geolocation` ("Texas, US").
 */
import { z } from "zod";
import type { NormalizeContext, Source } from "../lib/types.ts";
import {
  type GpuMeta,
  type GpuOffer,
  cleanOrNull,
  gpuOffer,
  isPrice,
  mapGpu,
  parseJsonBody,
  parseWith,
  perGpu,
} from "./gpu-common.ts";

/**
 * The search filter: verified machines that can be rented now, best score first, at most 1000 offers.
 * Kept short: the replay fixture's file name carries the encoded query and must fit 255 bytes.
 */
export const VASTAI_QUERY = {
  verified: { eq: true },
  rentable: { eq: true },
  type: "on-demand",
  order: [["score", "desc"]],
  limit: 1000,
};

/** The one URL the feed requests. */
export const VASTAI_URL = `https://console.vast.ai/api/v0/bundles?q=${encodeURIComponent(JSON.stringify(VASTAI_QUERY))}`;

const offer = z.looseObject({
  id: z.number().int(),
  gpu_name: z.string(),
  num_gpus: z.number().int(),
  gpu_ram: z.number().nullish(),
  dph_total: z.number().nullish(),
  min_bid: z.number().nullish(),
  geolocation: z.string().nullish(),
  rentable: z.boolean().nullish(),
});

const body = z.looseObject({ offers: z.array(offer) });

/** The parts of the bundles answer we read. */
export type VastaiBundles = z.infer<typeof body>;

/** Vast.ai bundles → normalized offers (on_demand and, with a positive min_bid, spot). */
export const vastaiSource = {
  id: "gpu-vastai",
  description: "Vast.ai bundles offer search (console.vast.ai/api/v0/bundles?q=…); public, no key; one request per 4-hour run",
  parse(raw: string): VastaiBundles {
    return parseWith("gpu-vastai", body, parseJsonBody("gpu-vastai", raw));
  },
  normalize(parsed: VastaiBundles, ctx: NormalizeContext & { meta: GpuMeta }): GpuOffer[] {
    const rows: GpuOffer[] = [];
    for (const o of parsed.offers) {
      if (o.rentable === false || o.num_gpus < 1) continue;
      const vramGb = typeof o.gpu_ram === "number" ? o.gpu_ram / 1024 : null;
      const gpu = mapGpu(ctx.meta, o.gpu_name, vramGb);
      if (gpu === undefined) continue;
      const base = {
        gpu,
        marketplace: "vastai" as const,
        gpu_count: o.num_gpus,
        location: cleanOrNull(o.geolocation),
        offer_id: String(o.id),
        url: null,
      };
      if (isPrice(o.dph_total)) rows.push({ ...base, type: "on_demand", price_per_gpu_hour_usd: perGpu(o.dph_total, o.num_gpus) });
      if (isPrice(o.min_bid)) rows.push({ ...base, type: "spot", price_per_gpu_hour_usd: perGpu(o.min_bid, o.num_gpus) });
    }
    return rows.filter((r) => r.price_per_gpu_hour_usd > 0);
  },
  row: gpuOffer,
} satisfies Source<VastaiBundles, GpuOffer, GpuMeta>;
