/**
 * Premium routing: rank priced models for a task by a weighted composite of four sub-scores in [0, 1]
 * (quality from benchmarks blended by task, availability from the provider's status, cost from the blended
 * price, latency a fixed placeholder). Pure over the pricing, benchmarks and status snapshots.
 *
 * Choices where the spec is silent:
 * - Weights: supplied weights are kept as given and the unsupplied ones share the remainder 1 − Σsupplied in
 *   proportion to their defaults; when the supplied ones sum above 1 (or all four are supplied) the supplied
 *   weights are scaled to sum 1 and the unsupplied get 0. Weights that all come to zero are a 400.
 * - Quality: benchmark percentages / 100, blended by the task's weights. A benchmark the model lacks is imputed
 *   with that benchmark's median over every scored model (benchmarks differ in scale, so imputing a typical
 *   value is fairer than renormalizing over the present ones); a model with none of the task's benchmarks is
 *   left out.
 * - Availability: operational 1, degraded 0.5, down 0, unknown (or provider not tracked) 0.5.
 * - Cost: 1 − log-position of the blended price between the cheapest and dearest model in the pool (every
 *   model with a quality score for the task, before the budget and min_quality filters, so filters only remove
 *   rows and never change the scores of the rest). Prices below 0.01 USD per 1M count as 0.01.
 * - Ranking: composite (rounded to 4 decimals, as shown) descending, then quality descending, then blended
 *   price ascending, then model id ascending.
 */
import { blended } from "./price.ts";
import { ApiError } from "../registry/types.ts";
import type { BenchmarksSnapshot } from "../../pipelines/contract/snapshots/benchmarks.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import type { StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";
import { round } from "./round.ts";

/** Tasks the routing endpoint knows. */
export const TASKS = ["code", "reasoning", "creative", "general"] as const;
export type Task = (typeof TASKS)[number];

/** Benchmark ids of the benchmarks snapshot that the quality blend reads. */
export const BENCHMARK = {
  humaneval: "humaneval",
  sweBench: "swe-bench-verified",
  mmluPro: "mmlu-pro",
  gpqa: "gpqa-diamond",
  math: "math-500",
} as const;

/** Share of each benchmark in the quality sub-score, per task (each row sums to 1). */
export const TASK_BLENDS: Record<Task, Readonly<Record<string, number>>> = {
  code: { [BENCHMARK.humaneval]: 0.4, [BENCHMARK.sweBench]: 0.4, [BENCHMARK.mmluPro]: 0.2 },
  reasoning: { [BENCHMARK.gpqa]: 0.4, [BENCHMARK.math]: 0.4, [BENCHMARK.mmluPro]: 0.2 },
  creative: { [BENCHMARK.mmluPro]: 0.5, [BENCHMARK.humaneval]: 0.25, [BENCHMARK.math]: 0.25 },
  general: {
    [BENCHMARK.humaneval]: 0.2,
    [BENCHMARK.sweBench]: 0.2,
    [BENCHMARK.mmluPro]: 0.2,
    [BENCHMARK.gpqa]: 0.2,
    [BENCHMARK.math]: 0.2,
  },
};

export interface Weights {
  quality: number;
  availability: number;
  cost: number;
  latency: number;
}
const WEIGHT_KEYS = ["quality", "availability", "cost", "latency"] as const;

/** Composite weights when none is supplied. */
export const DEFAULT_WEIGHTS: Readonly<Weights> = { quality: 0.4, availability: 0.3, cost: 0.2, latency: 0.1 };

/** Availability sub-score per provider status. */
export const AVAILABILITY: Readonly<Record<ServiceState, number>> = { operational: 1, degraded: 0.5, down: 0, unknown: 0.5 };
export type ServiceState = "operational" | "degraded" | "down" | "unknown";

/** The latency sub-score until latency is measured per model. */
export const LATENCY_PLACEHOLDER = 0.5;
/** Blended prices below this (USD per 1M) count as this in the log scale. */
export const COST_FLOOR = 0.01;


/**
 * Final weights from the supplied ones (see the module comment). Throws ApiError 400 `invalid_weights` when
 * they all come to zero.
 */
export function resolveWeights(supplied: Partial<Weights>): Weights {
  const given = WEIGHT_KEYS.filter((k) => supplied[k] !== undefined);
  const rest = WEIGHT_KEYS.filter((k) => supplied[k] === undefined);
  if (given.length === 0) return { ...DEFAULT_WEIGHTS };
  const sumGiven = given.reduce((s, k) => s + supplied[k]!, 0);
  const out: Weights = { quality: 0, availability: 0, cost: 0, latency: 0 };
  if (sumGiven > 1 || rest.length === 0) {
    // Only reachable with all four supplied: a supplied subset summing to 0 leaves the defaults a remainder of 1.
    if (sumGiven <= 0) {
      throw new ApiError(400, "invalid_weights", `w_quality, w_availability, w_cost and w_latency are all 0 (${given.map((k) => `w_${k}=${supplied[k]}`).join(", ")}); at least one must be above 0`);
    }
    for (const k of given) out[k] = supplied[k]! / sumGiven;
    return out;
  }
  const remainder = 1 - sumGiven;
  const restDefaults = rest.reduce((s, k) => s + DEFAULT_WEIGHTS[k], 0);
  for (const k of given) out[k] = supplied[k]!;
  for (const k of rest) out[k] = (remainder * DEFAULT_WEIGHTS[k]) / restDefaults;
  return out;
}

/** Scores in [0, 1] per benchmark id and model id. */
export type ScoreTable = Map<string, Map<string, number>>;

/** Benchmark scores as fractions in [0, 1] (percent / 100; inverted when lower is better). */
export function scoreTable(benchmarks: BenchmarksSnapshot): ScoreTable {
  const table: ScoreTable = new Map();
  for (const b of benchmarks.benchmarks) {
    const byModel = new Map<string, number>();
    for (const s of b.scores) {
      const v = Math.min(1, Math.max(0, s.score / 100));
      byModel.set(s.model, b.higherIsBetter ? v : 1 - v);
    }
    table.set(b.id, byModel);
  }
  return table;
}

/** Median of a non-empty list. */
export function median(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const mid = Math.floor(v.length / 2);
  return v.length % 2 === 1 ? v[mid]! : (v[mid - 1]! + v[mid]!) / 2;
}

/**
 * Quality sub-score of one model for a task, or null when the model has no score on any of the task's
 * benchmarks. Missing benchmarks are imputed with their median over scored models; a benchmark nobody is
 * scored on drops out of the blend (its weight is shared by the others).
 */
export function qualityScore(table: ScoreTable, modelId: string, task: Task): number | null {
  let total = 0;
  let weight = 0;
  let present = 0;
  for (const [benchmarkId, w] of Object.entries(TASK_BLENDS[task])) {
    const scores = table.get(benchmarkId);
    if (!scores || scores.size === 0) continue;
    const own = scores.get(modelId);
    if (own !== undefined) present++;
    total += w * (own ?? median([...scores.values()]));
    weight += w;
  }
  if (present === 0 || weight === 0) return null;
  return total / weight;
}

/** Cost sub-score: 1 for the cheapest price of the pool, 0 for the dearest, log-scaled between. */
export function costScore(price: number, cheapest: number, dearest: number): number {
  const lo = Math.log(Math.max(cheapest, COST_FLOOR));
  const hi = Math.log(Math.max(dearest, COST_FLOOR));
  if (hi <= lo) return 1;
  const x = Math.log(Math.max(price, COST_FLOOR));
  return Math.min(1, Math.max(0, 1 - (x - lo) / (hi - lo)));
}

/** Query of the routing verdict, already validated. */
export interface RoutingOptions {
  task: Task;
  budget?: number;
  min_quality?: number;
  top_n: number;
  weights: Partial<Weights>;
}

export interface Recommendation {
  rank: number;
  model: { id: string; name: string; provider: string };
  pricing: { input: number; output: number; currency: "USD" };
  status: ServiceState;
  composite_score: number;
  components: Weights;
}

export interface RoutingVerdict {
  ok: true;
  task: Task;
  weights: Weights;
  recommendations: Recommendation[];
}

interface Candidate {
  rec: Omit<Recommendation, "rank" | "composite_score" | "components">;
  blended: number;
  quality: number;
  availability: number;
  composite: number;
  cost: number;
}

/** The routing verdict over the three snapshots. */
export function routeModels(
  data: { pricing: PricingSnapshot; benchmarks: BenchmarksSnapshot; status: StatusSnapshot },
  options: RoutingOptions,
): RoutingVerdict {
  const weights = resolveWeights(options.weights);
  const table = scoreTable(data.benchmarks);
  const states = new Map(data.status.services.map((s) => [s.provider, s.status as ServiceState]));

  const pool = data.pricing.providers
    .flatMap((p) => p.models)
    .flatMap((m) => {
      const quality = qualityScore(table, m.id, options.task);
      if (quality === null) return [];
      const status = states.get(m.provider) ?? "unknown";
      return [{
        rec: {
          model: { id: m.id, name: m.name, provider: m.provider },
          pricing: { input: m.inputCostPer1M, output: m.outputCostPer1M, currency: m.currency },
          status,
        },
        blended: blended(m.inputCostPer1M, m.outputCostPer1M),
        quality,
        availability: AVAILABILITY[status],
      }];
    });
  if (pool.length === 0) return { ok: true, task: options.task, weights: roundWeights(weights), recommendations: [] };

  const prices = pool.map((c) => c.blended);
  const cheapest = Math.min(...prices);
  const dearest = Math.max(...prices);
  const scored: Candidate[] = pool.map((c) => {
    const cost = costScore(c.blended, cheapest, dearest);
    const composite = round(
      weights.quality * c.quality + weights.availability * c.availability + weights.cost * cost + weights.latency * LATENCY_PLACEHOLDER,
      4,
    );
    return { ...c, cost, composite };
  });

  const kept = scored
    .filter((c) => options.budget === undefined || c.blended <= options.budget)
    .filter((c) => options.min_quality === undefined || c.quality >= options.min_quality)
    .sort(
      (a, b) =>
        b.composite - a.composite ||
        b.quality - a.quality ||
        a.blended - b.blended ||
        (a.rec.model.id < b.rec.model.id ? -1 : a.rec.model.id > b.rec.model.id ? 1 : 0),
    )
    .slice(0, options.top_n);

  return {
    ok: true,
    task: options.task,
    weights: roundWeights(weights),
    recommendations: kept.map((c, i) => ({
      rank: i + 1,
      ...c.rec,
      composite_score: c.composite,
      components: {
        quality: round(c.quality, 4),
        availability: c.availability,
        cost: round(c.cost, 4),
        latency: LATENCY_PLACEHOLDER,
      },
    })),
  };
}

function roundWeights(w: Weights): Weights {
  return { quality: round(w.quality, 6), availability: round(w.availability, 6), cost: round(w.cost, 6), latency: round(w.latency, 6) };
}
