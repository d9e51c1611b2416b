/**
 * What the watches compare: each model's three prices (pricing snapshot) and each provider's status (status
 * snapshot), read from the served snapshots as plain maps.
 */
import { PricingSnapshotSchema, type PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import { statusSnapshot, type StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import type { SnapshotReader } from "../registry/types.ts";
import { blended } from "../verdicts/price.ts";

/** A model's watched prices, USD per 1M tokens. */
export interface ModelPrices {
  provider: string;
  inputPrice: number;
  outputPrice: number;
  /** The catalog's 3:1 input:output blend, rounded to 4 decimals. */
  blended: number;
}

/** Model id → prices, from a pricing body (the first listing wins when an id repeats). */
export function pricesOf(pricing: PricingSnapshot): Map<string, ModelPrices> {
  const out = new Map<string, ModelPrices>();
  for (const p of pricing.providers) {
    for (const m of p.models) {
      if (out.has(m.id)) continue;
      out.set(m.id, { provider: p.id, inputPrice: m.inputCostPer1M, outputPrice: m.outputCostPer1M, blended: blended(m.inputCostPer1M, m.outputCostPer1M) });
    }
  }
  return out;
}

/** Provider id → status, from a status body. */
export function statusesOf(status: StatusSnapshot): Map<string, string> {
  return new Map(status.services.map((s) => [s.provider, s.status]));
}

/** Prices of the served pricing snapshot (503 when it is missing). */
export function priceValues(snapshots: SnapshotReader): Map<string, ModelPrices> {
  return pricesOf(readSnapshot(snapshots, "pricing", PricingSnapshotSchema).data);
}

/** Statuses of the served status snapshot (503 when it is missing). */
export function statusValues(snapshots: SnapshotReader): Map<string, string> {
  return statusesOf(readSnapshot(snapshots, "status", statusSnapshot).data);
}
