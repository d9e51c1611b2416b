/**
 * Shadeform instance types: `GET https://api.shadeform.ai/v1/instances/types` (Shadeform API v1,
 * https://docs.shadeform.ai/; needs an API key in the `X-API-KEY` header, read from $SHADEFORM_API_KEY;
 * without it the feed skips Shadeform with a notice). One request per run (every 4 hours).
 *
 * Shadeform resells many clouds' instances at those clouds' prices; `hourly_price` is USD CENTS per hour
 * for `configuration.num_gpus` GPUs, so on_demand price per GPU = cents / 100 / num_gpus. Shadeform sells
 * no interruptible instances: on_demand only. A type with no region marked `available` is skipped;
 * location is the first available region's display name (or id). `configuration.gpu_type` names the GPU;
 * H100 and A100 are split by `interconnect` (sxm → H100-SXM, pcie → H100-PCIE) and by
 * `vram_per_gpu_in_gb` (A100 40/80). offer_id is "<cloud>:<cloud_instance_type or shade_instance_type>".
 */
import { z } from "zod";
import type { GpuId } from "../contract/vocabularies/gpu-models.ts";
import type { NormalizeContext, Source } from "../lib/types.ts";
import {
  type GpuMeta,
  type GpuOffer,
  cleanOrNull,
  cleanText,
  gpuOffer,
  isPrice,
  mapGpu,
  parseJsonBody,
  parseWith,
  perGpu,
} from "./gpu-common.ts";

/** The one URL the feed requests. */
export const SHADEFORM_URL = "https://api.shadeform.ai/v1/instances/types";

/** Environment variable holding the Shadeform API key. */
export const SHADEFORM_KEY_ENV = "SHADEFORM_API_KEY";

const instanceType = z.looseObject({
  cloud: z.string(),
  shade_instance_type: z.string(),
  cloud_instance_type: z.string().nullish(),
  hourly_price: z.number(),
  configuration: z.looseObject({
    gpu_type: z.string(),
    num_gpus: z.number().int().nonnegative(),
    interconnect: z.string().nullish(),
    vram_per_gpu_in_gb: z.number().nullish(),
  }),
  availability: z
    .array(z.looseObject({ region: z.string(), available: z.boolean(), display_name: z.string().nullish() }))
    .nullish(),
});

const body = z.looseObject({ instance_types: z.array(instanceType) });

/** The parts of the instance-types answer we read. */
export type ShadeformInstanceTypes = z.infer<typeof body>;

/** Shadeform's ambiguous H100/A100 names, decided by interconnect and memory. */
function resolveShadeformGpu(meta: GpuMeta, c: z.infer<typeof instanceType>["configuration"]): GpuId | undefined {
  const type = c.gpu_type.trim().toUpperCase();
  const sxm = (c.interconnect ?? "").toLowerCase().includes("sxm");
  if (type === "H100") return sxm ? "H100-SXM" : "H100-PCIE";
  if (type === "A100") return mapGpu(meta, "A100", c.vram_per_gpu_in_gb ?? null);
  return mapGpu(meta, c.gpu_type, c.vram_per_gpu_in_gb ?? null);
}

/** Shadeform instance types with an available region → one on_demand offer each. */
export const shadeformSource = {
  id: "gpu-shadeform",
  description: "Shadeform API v1 instances/types (api.shadeform.ai/v1/instances/types); needs SHADEFORM_API_KEY; one request per 4-hour run",
  parse(raw: string): ShadeformInstanceTypes {
    return parseWith("gpu-shadeform", body, parseJsonBody("gpu-shadeform", raw));
  },
  normalize(parsed: ShadeformInstanceTypes, ctx: NormalizeContext & { meta: GpuMeta }): GpuOffer[] {
    const rows: GpuOffer[] = [];
    for (const t of parsed.instance_types) {
      const c = t.configuration;
      if (c.num_gpus < 1 || !isPrice(t.hourly_price)) continue;
      const available = (t.availability ?? []).filter((a) => a.available);
      const first = available[0];
      if (first === undefined) continue;
      const gpu = resolveShadeformGpu(ctx.meta, c);
      if (gpu === undefined) continue;
      const offerId = `${cleanText(t.cloud)}:${cleanText(t.cloud_instance_type ?? t.shade_instance_type)}`;
      rows.push({
        gpu,
        marketplace: "shadeform",
        type: "on_demand",
        price_per_gpu_hour_usd: perGpu(t.hourly_price / 100, c.num_gpus),
        gpu_count: c.num_gpus,
        location: cleanOrNull(first.display_name ?? first.region),
        offer_id: offerId,
        url: null,
      });
    }
    return rows;
  },
  row: gpuOffer,
} satisfies Source<ShadeformInstanceTypes, GpuOffer, GpuMeta>;
