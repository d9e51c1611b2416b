/**
 * Canonical GPU ids for the `gpu-pricing` snapshot and the alias table that maps each marketplace's GPU
 * names onto them. Names are compared by their `gpuNameKey` (lowercase, vendor words such as "NVIDIA",
 * "GeForce", "Tesla" removed, everything but letters and digits dropped), so "NVIDIA H100 80GB HBM3",
 * "h100-80gb-hbm3" and "H100 80GB HBM3" are one alias. A name that stands for two models told apart only
 * by memory (Vast.ai's "A100 SXM4" comes with 40 or 80 GB) maps to a VRAM split: the variant whose memory
 * is nearest the reported VRAM wins; without a reported VRAM the name stays unmapped.
 */
import { z } from "zod";

/** Every canonical GPU id, in catalog order. */
export const GPU_IDS = [
  "B200",
  "H200",
  "H100-SXM",
  "H100-PCIE",
  "H100-NVL",
  "GH200",
  "A100-80G",
  "A100-40G",
  "L40S",
  "L40",
  "L4",
  "A40",
  "A10",
  "V100",
  "RTX-6000-ADA",
  "A6000",
  "A5000",
  "A4000",
  "RTX-5090",
  "RTX-4090",
  "RTX-3090",
  "MI300X",
] as const;

/** A canonical GPU id. */
export const gpuId = z.enum(GPU_IDS);
export type GpuId = z.infer<typeof gpuId>;

/** One canonical GPU: display name and memory per GPU. */
export interface GpuModel {
  id: GpuId;
  name: string;
  vram_gb: number;
}

/** The canonical GPUs with their display names and memory, in catalog order. */
export const GPU_MODELS: readonly GpuModel[] = [
  { id: "B200", name: "NVIDIA B200", vram_gb: 180 },
  { id: "H200", name: "NVIDIA H200 SXM", vram_gb: 141 },
  { id: "H100-SXM", name: "NVIDIA H100 SXM", vram_gb: 80 },
  { id: "H100-PCIE", name: "NVIDIA H100 PCIe", vram_gb: 80 },
  { id: "H100-NVL", name: "NVIDIA H100 NVL", vram_gb: 94 },
  { id: "GH200", name: "NVIDIA GH200 Grace Hopper", vram_gb: 96 },
  { id: "A100-80G", name: "NVIDIA A100 80GB", vram_gb: 80 },
  { id: "A100-40G", name: "NVIDIA A100 40GB", vram_gb: 40 },
  { id: "L40S", name: "NVIDIA L40S", vram_gb: 48 },
  { id: "L40", name: "NVIDIA L40", vram_gb: 48 },
  { id: "L4", name: "NVIDIA L4", vram_gb: 24 },
  { id: "A40", name: "NVIDIA A40", vram_gb: 48 },
  { id: "A10", name: "NVIDIA A10", vram_gb: 24 },
  { id: "V100", name: "NVIDIA Tesla V100", vram_gb: 16 },
  { id: "RTX-6000-ADA", name: "NVIDIA RTX 6000 Ada", vram_gb: 48 },
  { id: "A6000", name: "NVIDIA RTX A6000", vram_gb: 48 },
  { id: "A5000", name: "NVIDIA RTX A5000", vram_gb: 24 },
  { id: "A4000", name: "NVIDIA RTX A4000", vram_gb: 16 },
  { id: "RTX-5090", name: "NVIDIA GeForce RTX 5090", vram_gb: 32 },
  { id: "RTX-4090", name: "NVIDIA GeForce RTX 4090", vram_gb: 24 },
  { id: "RTX-3090", name: "NVIDIA GeForce RTX 3090", vram_gb: 24 },
  { id: "MI300X", name: "AMD Instinct MI300X", vram_gb: 192 },
];

/** A name that needs the reported VRAM to pick its model: VRAM in GB → id. */
export interface VramSplit {
  byVram: Partial<Record<number, GpuId>>;
}

/**
 * Marketplace names → canonical ids. Keys are written readably and keyed by `gpuNameKey` below; the
 * comment on each group names where the spelling comes from.
 */
const ALIASES: [string, GpuId | VramSplit][] = [
  // Canonical ids themselves and common short names.
  ...GPU_IDS.map((id): [string, GpuId] => [id, id]),
  ["H100", "H100-SXM"],
  ["A100", { byVram: { 40: "A100-40G", 80: "A100-80G" } }],
  ["RTX 4090", "RTX-4090"],
  ["RTX 3090", "RTX-3090"],
  ["RTX 5090", "RTX-5090"],
  ["RTX A6000", "A6000"],
  ["RTX A5000", "A5000"],
  ["RTX A4000", "A4000"],
  ["RTX 6000 Ada", "RTX-6000-ADA"],
  ["B200 SXM", "B200"],
  ["H200 SXM", "H200"],
  ["H100 SXM", "H100-SXM"],
  ["H100 SXM5", "H100-SXM"],
  ["H100 SXM5 80GB", "H100-SXM"],
  ["H100 80GB HBM3", "H100-SXM"],
  ["H100 PCIe", "H100-PCIE"],
  ["H100 80GB PCIe", "H100-PCIE"],
  ["H100 NVL", "H100-NVL"],
  ["A100 80GB", "A100-80G"],
  ["A100 40GB", "A100-40G"],
  ["A100 SXM4 80GB", "A100-80G"],
  ["A100 SXM4 40GB", "A100-40G"],
  ["A100 80GB PCIe", "A100-80G"],
  ["A100-SXM4-80GB", "A100-80G"],
  ["A100-SXM4-40GB", "A100-40G"],
  ["A100 PCIe 40GB", "A100-40G"],
  ["AMD Instinct MI300X", "MI300X"],
  ["MI300X OAM", "MI300X"],
  // Vast.ai bundles `gpu_name`.
  ["H100 PCIE", "H100-PCIE"],
  ["A100 SXM4", { byVram: { 40: "A100-40G", 80: "A100-80G" } }],
  ["A100 PCIE", { byVram: { 40: "A100-40G", 80: "A100-80G" } }],
  ["A100X", "A100-80G"],
  ["RTX 6000Ada", "RTX-6000-ADA"],
  ["Tesla V100", "V100"],
  ["InstinctMI300X", "MI300X"],
  // TensorDock hostnodes GPU keys.
  ["geforcertx4090-pcie-24gb", "RTX-4090"],
  ["geforcertx3090-pcie-24gb", "RTX-3090"],
  ["geforcertx5090-pcie-32gb", "RTX-5090"],
  ["rtxa6000-pcie-48gb", "A6000"],
  ["rtxa5000-pcie-24gb", "A5000"],
  ["rtxa4000-pcie-16gb", "A4000"],
  ["rtx6000ada-pcie-48gb", "RTX-6000-ADA"],
  ["a100-pcie-80gb", "A100-80G"],
  ["a100-sxm4-80gb", "A100-80G"],
  ["a100-pcie-40gb", "A100-40G"],
  ["h100-sxm5-80gb", "H100-SXM"],
  ["h100-pcie-80gb", "H100-PCIE"],
  ["l40-pcie-48gb", "L40"],
  ["l40s-pcie-48gb", "L40S"],
  ["a40-pcie-48gb", "A40"],
  ["v100-pcie-16gb", "V100"],
  ["v100-sxm2-16gb", "V100"],
  // Lambda `gpu_description`.
  ["B200 (180 GB SXM6)", "B200"],
  ["H100 (80 GB SXM5)", "H100-SXM"],
  ["H100 (80 GB PCIe)", "H100-PCIE"],
  ["GH200 (96 GB)", "GH200"],
  ["A100 (80 GB SXM4)", "A100-80G"],
  ["A100 (40 GB SXM4)", "A100-40G"],
  ["A100 (40 GB PCIe)", "A100-40G"],
  ["A10 (24 GB PCIe)", "A10"],
  ["A6000 (48 GB)", "A6000"],
  ["RTX A6000 (48 GB)", "A6000"],
  ["V100 (16 GB)", "V100"],
  // Shadeform `configuration.gpu_type` (SXM vs PCIe of H100/A100 comes from `interconnect`, see its source).
  ["A100_80G", "A100-80G"],
  ["H100_nvl", "H100-NVL"],
  ["RTX4090", "RTX-4090"],
  ["RTX3090", "RTX-3090"],
  ["RTX6000Ada", "RTX-6000-ADA"],
];

/** The comparison key of a GPU name: lowercase, vendor words dropped, letters and digits only. */
export function gpuNameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/\b(nvidia|geforce|tesla)\b/g, "")
    .replace(/^(nvidia|geforce)/, "")
    .replace(/[^a-z0-9]+/g, "");
}

const TABLE: ReadonlyMap<string, GpuId | VramSplit> = (() => {
  const map = new Map<string, GpuId | VramSplit>();
  for (const [name, target] of ALIASES) {
    const key = gpuNameKey(name);
    const existing = map.get(key);
    if (existing !== undefined && JSON.stringify(existing) !== JSON.stringify(target)) {
      throw new Error(`gpu-models: alias ${JSON.stringify(name)} (key ${key}) maps to two ids`);
    }
    map.set(key, target);
  }
  return map;
})();

/** Every alias key of the table (for tests and docs). */
export function aliasKeys(): string[] {
  return [...TABLE.keys()].sort();
}

/**
 * Map a marketplace GPU name (and, when the marketplace reports it, memory per GPU in GB) to a canonical
 * id; undefined when the name is not in the alias table or a VRAM split has no VRAM to decide by.
 */
export function resolveGpu(name: string, vramGb?: number | null): GpuId | undefined {
  const target = TABLE.get(gpuNameKey(name));
  if (target === undefined) return undefined;
  if (typeof target === "string") return target;
  if (vramGb === undefined || vramGb === null || !Number.isFinite(vramGb) || vramGb <= 0) return undefined;
  let best: { id: GpuId; distance: number } | undefined;
  for (const [gb, id] of Object.entries(target.byVram)) {
    if (id === undefined) continue;
    const distance = Math.abs(Number(gb) - vramGb);
    if (best === undefined || distance < best.distance) best = { id, distance };
  }
  return best?.id;
}

/**
 * Look a user's GPU query up: a canonical id (case-insensitive) or any alias that needs no VRAM to
 * decide. Used by the API's `gpu` parameter.
 */
export function lookupGpu(query: string): GpuId | undefined {
  const trimmed = query.trim();
  const exact = GPU_IDS.find((id) => id.toLowerCase() === trimmed.toLowerCase());
  return exact ?? resolveGpu(trimmed);
}

/** The model entry of a canonical id. */
export function gpuModel(id: GpuId): GpuModel {
  const model = GPU_MODELS.find((m) => m.id === id);
  if (!model) throw new Error(`gpu-models: no model entry for id ${id}`);
  return model;
}
