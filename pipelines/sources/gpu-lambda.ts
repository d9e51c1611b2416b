/**
 * Lambda Cloud instance types: `GET https://cloud.lambdalabs.com/api/v1/instance-types` (Lambda Cloud API
 * v1, https://docs.lambda.ai/api/cloud; needs an API key, sent as `Authorization: Bearer $LAMBDA_API_KEY`;
 * without the key the feed skips Lambda with a notice). Lambda asks for modest request rates; one request
 * per run (every 4 hours).
 *
 * Each instance type has a fixed `price_cents_per_hour` for `specs.gpus` GPUs: on_demand price per GPU =
 * cents / 100 / gpus. Lambda sells no interruptible instances, so on_demand only. An instance type with no
 * region in `regions_with_capacity_available` cannot be rented now and is skipped; location lists the
 * regions with capacity (sorted, comma-separated). The GPU comes from `gpu_description`
 * ("H100 (80 GB SXM5)"), falling back to the text of `description` after "Nx ".
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

/** The one URL the feed requests. */
export const LAMBDA_URL = "https://cloud.lambdalabs.com/api/v1/instance-types";

/** Environment variable holding the Lambda Cloud API key. */
export const LAMBDA_KEY_ENV = "LAMBDA_API_KEY";

const instanceType = z.looseObject({
  name: z.string(),
  description: z.string().nullish(),
  gpu_description: z.string().nullish(),
  price_cents_per_hour: z.number(),
  specs: z.looseObject({ gpus: z.number().int().nonnegative() }),
});

const entry = z.looseObject({
  instance_type: instanceType,
  regions_with_capacity_available: z.array(z.looseObject({ name: z.string(), description: z.string().nullish() })).nullish(),
});

const body = z.looseObject({ data: z.record(z.string(), entry) });

/** The parts of the instance-types answer we read. */
export type LambdaInstanceTypes = z.infer<typeof body>;

function gpuLabel(t: z.infer<typeof instanceType>): string {
  if (t.gpu_description) return t.gpu_description;
  return (t.description ?? "").replace(/^\d+x\s+/i, "");
}

/** Lambda instance types with capacity → one on_demand offer each. */
export const lambdaSource = {
  id: "gpu-lambda",
  description: "Lambda Cloud API v1 instance-types (cloud.lambdalabs.com/api/v1/instance-types); needs LAMBDA_API_KEY; one request per 4-hour run",
  parse(raw: string): LambdaInstanceTypes {
    return parseWith("gpu-lambda", body, parseJsonBody("gpu-lambda", raw));
  },
  normalize(parsed: LambdaInstanceTypes, ctx: NormalizeContext & { meta: GpuMeta }): GpuOffer[] {
    const rows: GpuOffer[] = [];
    for (const key of Object.keys(parsed.data).sort()) {
      const { instance_type: t, regions_with_capacity_available: regions } = parsed.data[key]!;
      if (t.specs.gpus < 1 || !isPrice(t.price_cents_per_hour)) continue;
      const names = (regions ?? []).map((r) => r.name).filter((n) => n.trim() !== "").sort();
      if (names.length === 0) continue;
      const gpu = mapGpu(ctx.meta, gpuLabel(t));
      if (gpu === undefined) continue;
      rows.push({
        gpu,
        marketplace: "lambda",
        type: "on_demand",
        price_per_gpu_hour_usd: perGpu(t.price_cents_per_hour / 100, t.specs.gpus),
        gpu_count: t.specs.gpus,
        location: cleanOrNull(names.join(", ")),
        offer_id: cleanOrNull(t.name),
        url: null,
      });
    }
    return rows;
  },
  row: gpuOffer,
} satisfies Source<LambdaInstanceTypes, GpuOffer, GpuMeta>;
