import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { SHADEFORM_URL, shadeformSource } from "./gpu-shadeform.ts";

testSource(shadeformSource, [{ fixture: join("pipelines/fixtures", replayPathFor(SHADEFORM_URL)), url: SHADEFORM_URL, meta: {}, minRows: 5 }]);

const type = (gpu: string, n: number, interconnect: string, vram: number, cents: number, available = true) => ({
  cloud: "hyperstack", shade_instance_type: `${gpu}x${n}`, cloud_instance_type: `n3-${gpu}x${n}`, hourly_price: cents, deployment_type: "vm",
  configuration: { gpu_type: gpu, num_gpus: n, interconnect, vram_per_gpu_in_gb: vram, vcpus: 28, memory_in_gb: 180, storage_in_gb: 850 },
  availability: [{ region: "canada-1", available, display_name: "Canada" }],
});
const run = (instance_types: unknown[], unmapped: string[] = []) =>
  shadeformSource.normalize(shadeformSource.parse(JSON.stringify({ instance_types })), { url: SHADEFORM_URL, now: new Date("2026-11-22T10:00:00Z"), meta: { onUnmapped: (n) => unmapped.push(n) } });

describe("shadeformSource", () => {
  it("normalize() divides cents for N GPUs and splits H100 by interconnect, A100 by VRAM", () => {
    const rows = run([type("H100", 8, "sxm5", 80, 2360), type("H100", 1, "pcie", 80, 190), type("A100", 8, "pcie", 40, 1040)]);
    expect(rows.map((r) => [r.gpu, r.price_per_gpu_hour_usd, r.gpu_count, r.offer_id, r.location])).toEqual([
      ["H100-SXM", 2.95, 8, "hyperstack:n3-H100x8", "Canada"],
      ["H100-PCIE", 1.9, 1, "hyperstack:n3-H100x1", "Canada"],
      ["A100-40G", 1.3, 8, "hyperstack:n3-A100x8", "Canada"],
    ]);
  });

  it("normalize() skips types with no available region and reports unmapped GPUs", () => {
    const unmapped: string[] = [];
    expect(run([type("L40S", 1, "pcie", 48, 145, false), type("GAUDI2", 8, "oam", 96, 1320)], unmapped)).toEqual([]);
    expect(unmapped).toEqual(["GAUDI2"]);
  });
});
