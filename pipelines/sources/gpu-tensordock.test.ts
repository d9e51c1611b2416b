import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { replayPathFor } from "../lib/replay-path.ts";
import { testSource } from "../lib/testing/contract.ts";
import { TENSORDOCK_URL, tensordockSource } from "./gpu-tensordock.ts";

testSource(tensordockSource, [{ fixture: join("pipelines/fixtures", replayPathFor(TENSORDOCK_URL)), url: TENSORDOCK_URL, meta: {}, minRows: 5 }]);

const node = (gpu: Record<string, unknown>, over: Record<string, unknown> = {}) => ({
  location: { city: "Orlando", region: "Florida", country: "United States" },
  specs: { cpu: { amount: 32, price: 0.003 }, gpu, ram: { amount: 128, price: 0.002 }, storage: { amount: 2000, price: 0.00005 } },
  status: { online: true },
  ...over,
});
const run = (hostnodes: Record<string, unknown>, unmapped: string[] = []) =>
  tensordockSource.normalize(tensordockSource.parse(JSON.stringify({ success: true, hostnodes })), {
    url: TENSORDOCK_URL, now: new Date("2026-11-22T10:00:00Z"), meta: { onUnmapped: (n) => unmapped.push(n) },
  });

describe("tensordockSource", () => {
  it("normalize() keeps the per-GPU price and the free GPU count, on_demand only", () => {
    const rows = run({ n1: node({ "rtxa6000-pcie-48gb": { amount: 8, price: 0.45, vram: 48 } }) });
    expect(rows).toEqual([
      { gpu: "A6000", marketplace: "tensordock", type: "on_demand", price_per_gpu_hour_usd: 0.45, gpu_count: 8, location: "Orlando, Florida, United States", offer_id: "n1", url: null },
    ]);
  });

  it("normalize() skips offline nodes, GPUs with none free, and reports unmapped keys", () => {
    const unmapped: string[] = [];
    const rows = run({
      a: node({ "geforcertx4090-pcie-24gb": { amount: 2, price: 0.35, vram: 24 } }, { status: { online: false } }),
      b: node({ "geforcertx4090-pcie-24gb": { amount: 0, price: 0.35, vram: 24 }, "geforcegtx1070-pcie-8gb": { amount: 1, price: 0.05, vram: 8 } }),
    }, unmapped);
    expect(rows).toEqual([]);
    expect(unmapped).toEqual(["geforcegtx1070-pcie-8gb"]);
  });

  it("parse() rejects success: false", () => {
    expect(() => tensordockSource.parse(JSON.stringify({ success: false, hostnodes: {} }))).toThrow(/success: false/);
  });
});
