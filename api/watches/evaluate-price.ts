/**
 * price watches: lt fires when the price goes from at or above the threshold (or unknown) to below it, gt
 * from at or below (or unknown) to above it, changes on any change of a known price. Edge-triggered: a price
 * that stays below the threshold fires once.
 */
import type { PriceSpec } from "./spec.ts";
import type { ModelPrices } from "./values.ts";
import { deltaPct, type Evaluation } from "./evaluation.ts";

/** What a price watch remembers: the price it last saw (null when unknown). */
export interface PriceSeen {
  value: number | null;
}

/** Evaluate one price watch; `current` is undefined when the model left the pricing data (nothing changes then). */
export function evaluatePrice(spec: PriceSpec, last: PriceSeen | null, current: ModelPrices | undefined): Evaluation<PriceSeen> {
  const old = last?.value ?? null;
  if (!current) return { seen: { value: old }, match: null };
  const now = current[spec.field];
  const seen = { value: now };
  if (old === now) return { seen, match: null };
  let crossed: "below" | "above" | null = null;
  if (spec.op === "lt") {
    if (!(now < spec.threshold!) || (old !== null && old < spec.threshold!)) return { seen, match: null };
    crossed = "below";
  } else if (spec.op === "gt") {
    if (!(now > spec.threshold!) || (old !== null && old > spec.threshold!)) return { seen, match: null };
    crossed = "above";
  } else if (old === null) {
    return { seen, match: null };
  }
  return {
    seen,
    match: {
      type: "price",
      model: spec.model,
      provider: current.provider,
      field: spec.field,
      from: old,
      to: now,
      delta_pct: old === null ? null : deltaPct(old, now),
      threshold: spec.threshold ?? null,
      crossed,
    },
  };
}
