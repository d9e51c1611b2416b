/**
 * TensorDock marketplace host nodes: `GET https://marketplace.tensordock.com/api/v0/client/deploy/hostnodes`
 * (TensorDock marketplace API v0, documented in its public Postman collection; public, no key). No
 * published rate limit; one request per run (every 4 hours).
 *
 * Each host node prices GPU, vCPU, RAM and storage separately; `specs.gpu` maps a GPU key
 * ("geforcertx4090-pcie-24gb") to `{ amount, price, vram }` where `price` is USD per GPU-hour. We report
 * that GPU component as the on_demand price per GPU (the CPU/RAM/disk you add are extra, and small), with
 * `amount` (GPUs free on the node) as gpu_count. The v0 marketplace sells no interruptible instances, so
 * TensorDock gives on_demand offers only. Nodes reported offline are skipped. Location is
 * "city, region, country".
 */
import { z } from "zod";
import type { NormalizeContext, Source } from "../lib/types.ts";
import {
  type GpuMeta,
  type GpuOffer,
  GpuSourceParseError,
  cleanOrNull,
  gpuOffer,
  isPrice,
  mapGpu,
  parseJsonBody,
  parseWith,
  roundUsd,
} from "./gpu-common.ts";

/** The one URL the feed requests. */
export const TENSORDOCK_URL = "https://marketplace.tensordock.com/api/v0/client/deploy/hostnodes";

const gpuSpec = z.looseObject({ amount: z.number().int().nonnegative(), price: z.number().nullish(), vram: z.number().nullish() });

const hostnode = z.looseObject({
  location: z
    .looseObject({ city: z.string().nullish(), region: z.string().nullish(), country: z.string().nullish() })
    .nullish(),
  specs: z.looseObject({ gpu: z.record(z.string(), gpuSpec) }),
  status: z.looseObject({ online: z.boolean().nullish() }).nullish(),
});

const body = z.looseObject({
  success: z.boolean().nullish(),
  hostnodes: z.record(z.string(), hostnode),
});

/** The parts of the hostnodes answer we read. */
export type TensordockHostnodes = z.infer<typeof body>;

/** TensorDock host nodes → one on_demand offer per GPU kind per online node. */
export const tensordockSource = {
  id: "gpu-tensordock",
  description: "TensorDock marketplace v0 hostnodes (marketplace.tensordock.com/api/v0/client/deploy/hostnodes); public, no key; one request per 4-hour run",
  parse(raw: string): TensordockHostnodes {
    const parsed = parseWith("gpu-tensordock", body, parseJsonBody("gpu-tensordock", raw));
    if (parsed.success === false) throw new GpuSourceParseError("gpu-tensordock: upstream answered success: false");
    return parsed;
  },
  normalize(parsed: TensordockHostnodes, ctx: NormalizeContext & { meta: GpuMeta }): GpuOffer[] {
    const rows: GpuOffer[] = [];
    for (const nodeId of Object.keys(parsed.hostnodes).sort()) {
      const node = parsed.hostnodes[nodeId]!;
      if (node.status?.online === false) continue;
      const loc = node.location;
      const location = cleanOrNull([loc?.city, loc?.region, loc?.country].filter((p) => p && p.trim() !== "").join(", "));
      for (const key of Object.keys(node.specs.gpu).sort()) {
        const spec = node.specs.gpu[key]!;
        if (spec.amount < 1 || !isPrice(spec.price)) continue;
        const gpu = mapGpu(ctx.meta, key, spec.vram);
        if (gpu === undefined) continue;
        rows.push({
          gpu,
          marketplace: "tensordock",
          type: "on_demand",
          price_per_gpu_hour_usd: roundUsd(spec.price),
          gpu_count: spec.amount,
          location,
          offer_id: nodeId,
          url: null,
        });
      }
    }
    return rows.filter((r) => r.price_per_gpu_hour_usd > 0);
  },
  row: gpuOffer,
} satisfies Source<TensordockHostnodes, GpuOffer, GpuMeta>;
