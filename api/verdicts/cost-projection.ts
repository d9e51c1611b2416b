/**
 * Premium cost projection: what a daily token workload costs per model over a day, week, 30-day month and
 * 365-day year, at the catalog's list prices. Pure over the pricing snapshot.
 *
 * Choices where the spec is silent:
 * - Matching, per requested name in order: catalog id exactly, else display name case-insensitively, else the
 *   aggregator id case-insensitively; the first model in catalog order wins. A model asked for twice (same
 *   match, or the same unmatched text ignoring case) is projected once, where it first appears.
 * - Unmatched names stay in `projections` with matched false, provider null and null figures, and are left out
 *   of `ranked_cheapest_monthly`.
 * - week = 7 days, month = 30 days, year = 365 days. Every figure is computed from unrounded values and then
 *   rounded to 6 decimals of USD (cents would print 0 for small workloads).
 * - rates.blended_per_1m is the catalog's 3:1 input:output blend (as in /api/agents/pricing); the projected
 *   totals use the workload's own split.
 * - horizon only sets `primary_horizon`; every horizon is always computed, and the ranking is monthly as named.
 */
import { blended } from "./price.ts";
import type { PricingModel, PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import { round } from "./round.ts";

export const HORIZONS = ["daily", "weekly", "monthly", "yearly"] as const;
export type Horizon = (typeof HORIZONS)[number];

/** Days per horizon. */
export const DAYS: Readonly<Record<Horizon, number>> = { daily: 1, weekly: 7, monthly: 30, yearly: 365 };

/** Models per request (spec Limits: cost projection 1 to 10 models). */
export const MAX_MODELS = 10;

/** USD to 6 decimals. */
export function usd(x: number): number {
  return round(x, 6);
}

/** Find a catalog model for a requested id or name (see the module comment), or undefined. */
export function matchModel(models: readonly PricingModel[], wanted: string): PricingModel | undefined {
  const lower = wanted.toLowerCase();
  return (
    models.find((m) => m.id === wanted) ??
    models.find((m) => m.name.toLowerCase() === lower) ??
    models.find((m) => m.aggregatorId.toLowerCase() === lower)
  );
}

export interface CostProjectionOptions {
  models: readonly string[];
  input_tokens_per_day: number;
  output_tokens_per_day: number;
  horizon: Horizon;
}

export interface Projection {
  model: string;
  provider: string | null;
  matched: boolean;
  rates: { input_per_1m: number | null; output_per_1m: number | null; blended_per_1m: number | null };
  daily: { input_cost: number | null; output_cost: number | null; total: number | null };
  weekly_total: number | null;
  monthly_total: number | null;
  yearly_total: number | null;
}

export interface CostProjection {
  ok: true;
  workload: { input_tokens_per_day: number; output_tokens_per_day: number; total_tokens_per_day: number };
  primary_horizon: Horizon;
  projections: Projection[];
  ranked_cheapest_monthly: { model: string; provider: string; monthly_total: number }[];
}

/** Project one matched model. */
export function projectModel(model: PricingModel, inputPerDay: number, outputPerDay: number): Projection {
  const input = (inputPerDay / 1e6) * model.inputCostPer1M;
  const output = (outputPerDay / 1e6) * model.outputCostPer1M;
  const day = input + output;
  return {
    model: model.id,
    provider: model.provider,
    matched: true,
    rates: { input_per_1m: model.inputCostPer1M, output_per_1m: model.outputCostPer1M, blended_per_1m: blended(model.inputCostPer1M, model.outputCostPer1M) },
    daily: { input_cost: usd(input), output_cost: usd(output), total: usd(day) },
    weekly_total: usd(day * DAYS.weekly),
    monthly_total: usd(day * DAYS.monthly),
    yearly_total: usd(day * DAYS.yearly),
  };
}

function unmatched(wanted: string): Projection {
  return {
    model: wanted,
    provider: null,
    matched: false,
    rates: { input_per_1m: null, output_per_1m: null, blended_per_1m: null },
    daily: { input_cost: null, output_cost: null, total: null },
    weekly_total: null,
    monthly_total: null,
    yearly_total: null,
  };
}

/** The cost projection over the pricing snapshot. */
export function projectCosts(pricing: PricingSnapshot, options: CostProjectionOptions): CostProjection {
  const catalog = pricing.providers.flatMap((p) => p.models);
  const seen = new Set<string>();
  const projections: Projection[] = [];
  for (const wanted of options.models) {
    const model = matchModel(catalog, wanted);
    const key = model ? `id:${model.id}` : `text:${wanted.toLowerCase()}`;
    if (seen.has(key)) continue;
    seen.add(key);
    projections.push(model ? projectModel(model, options.input_tokens_per_day, options.output_tokens_per_day) : unmatched(wanted));
  }
  const ranked = projections
    .filter((p) => p.matched)
    .map((p) => ({ model: p.model, provider: p.provider!, monthly_total: p.monthly_total! }))
    .sort((a, b) => a.monthly_total - b.monthly_total || (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
  return {
    ok: true,
    workload: {
      input_tokens_per_day: options.input_tokens_per_day,
      output_tokens_per_day: options.output_tokens_per_day,
      total_tokens_per_day: options.input_tokens_per_day + options.output_tokens_per_day,
    },
    primary_horizon: options.horizon,
    projections,
    ranked_cheapest_monthly: ranked,
  };
}
