import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { LAMBDA_URL, lambdaSource } from "./gpu-lambda.ts";

testSource(lambdaSource, [{ fixture: join("pipelines/fixtures", replayPathFor(LAMBDA_URL)), url: LAMBDA_URL, meta: {}, minRows: 5 }]);

const type = (name: string, gpuDescription: string, cents: number, gpus: number, regions: string[]) => ({
  instance_type: { name, description: `${gpus}x ${gpuDescription}`, gpu_description: gpuDescription, price_cents_per_hour: cents, specs: { vcpus: 26, memory_gib: 200, storage_gib: 1024, gpus } },
  regions_with_capacity_available: regions.map((r) => ({ name: r, description: r })),
});
const run = (data: Record<string, unknown>, unmapped: string[] = []) =>
  lambdaSource.normalize(lambdaSource.parse(JSON.stringify({ data })), { url: LAMBDA_URL, now: new Date("2026-11-22T10:00:00Z"), meta: { onUnmapped: (n) => unmapped.push(n) } });

describe("lambdaSource", () => {
  it("normalize() turns cents for N GPUs into USD per GPU-hour", () => {
    const rows = run({ gpu_8x_h100_sxm5: type("gpu_8x_h100_sxm5", "H100 (80 GB SXM5)", 2392, 8, ["us-west-3", "us-south-2"]) });
    expect(rows).toEqual([
      { gpu: "H100-SXM", marketplace: "lambda", type: "on_demand", price_per_gpu_hour_usd: 2.99, gpu_count: 8, location: "us-south-2, us-west-3", offer_id: "gpu_8x_h100_sxm5", url: null },
    ]);
  });

  it("normalize() skips types without capacity and reports unmapped GPUs", () => {
    const unmapped: string[] = [];
    const rows = run({
      a: type("gpu_8x_a100_80gb_sxm4", "A100 (80 GB SXM4)", 1432, 8, []),
      b: type("gpu_1x_rtx6000", "RTX 6000 (24 GB)", 50, 1, ["us-south-1"]),
    }, unmapped);
    expect(rows).toEqual([]);
    expect(unmapped).toEqual(["RTX 6000 (24 GB)"]);
  });
});
