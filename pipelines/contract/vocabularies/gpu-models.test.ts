import { describe, expect, it } from "vitest";
import { GPU_IDS, GPU_MODELS, aliasKeys, gpuModel, gpuNameKey, lookupGpu, resolveGpu } from "./gpu-models.ts";

describe("gpu-models catalog", () => {
  it("GPU_MODELS lists every canonical id once, in GPU_IDS order", () => {
    expect(GPU_MODELS.map((m) => m.id)).toEqual([...GPU_IDS]);
    for (const id of GPU_IDS) expect(gpuModel(id).vram_gb).toBeGreaterThan(0);
  });

  it("gpuNameKey() drops vendor words, case and punctuation", () => {
    expect(gpuNameKey("NVIDIA H100 80GB HBM3")).toBe("h10080gbhbm3");
    expect(gpuNameKey("geforcertx4090-pcie-24gb")).toBe("rtx4090pcie24gb");
    expect(gpuNameKey("NVIDIA GeForce RTX 4090")).toBe("rtx4090");
    expect(gpuNameKey("Tesla V100")).toBe("v100");
  });

  it("resolveGpu() maps each marketplace's spelling to the canonical id", () => {
    const cases: [string, string][] = [
      ["H100 SXM5 80GB", "H100-SXM"],
      ["NVIDIA H100 80GB HBM3", "H100-SXM"],
      ["H100 SXM", "H100-SXM"],
      ["H100 PCIE", "H100-PCIE"],
      ["H100 (80 GB PCIe)", "H100-PCIE"],
      ["h100-sxm5-80gb", "H100-SXM"],
      ["RTX 4090", "RTX-4090"],
      ["geforcertx4090-pcie-24gb", "RTX-4090"],
      ["RTX A6000", "A6000"],
      ["rtxa6000-pcie-48gb", "A6000"],
      ["A6000 (48 GB)", "A6000"],
      ["A100 (40 GB SXM4)", "A100-40G"],
      ["A100_80G", "A100-80G"],
      ["B200 (180 GB SXM6)", "B200"],
      ["AMD Instinct MI300X", "MI300X"],
      ["l40s", "L40S"],
    ];
    for (const [name, id] of cases) expect(resolveGpu(name), name).toBe(id);
  });

  it("resolveGpu() splits A100 names by reported VRAM and leaves them unmapped without it", () => {
    expect(resolveGpu("A100 SXM4", 80)).toBe("A100-80G");
    expect(resolveGpu("A100 SXM4", 79.6)).toBe("A100-80G");
    expect(resolveGpu("A100 PCIE", 40)).toBe("A100-40G");
    expect(resolveGpu("A100 PCIE")).toBeUndefined();
    expect(resolveGpu("A100 PCIE", 0)).toBeUndefined();
  });

  it("resolveGpu() leaves unknown names unmapped", () => {
    for (const name of ["Q RTX 8000", "GTX 1080 Ti", "GAUDI2", "RTX 6000 (24 GB)", ""]) expect(resolveGpu(name), name).toBeUndefined();
  });

  it("lookupGpu() accepts canonical ids case-insensitively and aliases", () => {
    expect(lookupGpu("h100-sxm")).toBe("H100-SXM");
    expect(lookupGpu(" rtx-4090 ")).toBe("RTX-4090");
    expect(lookupGpu("RTX 4090")).toBe("RTX-4090");
    expect(lookupGpu("nvidia h100 80gb hbm3")).toBe("H100-SXM");
    expect(lookupGpu("H9000")).toBeUndefined();
  });

  it("aliasKeys() covers every canonical id", () => {
    const keys = new Set(aliasKeys());
    for (const id of GPU_IDS) expect(keys.has(gpuNameKey(id)), id).toBe(true);
  });
});
