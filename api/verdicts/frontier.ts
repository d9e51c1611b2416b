/**
 * The price–performance frontier: per priced model, a contamination-discounted capability index for a task and
 * the blended price; the Pareto frontier (no other model at most as dear and at least as capable, one of the two
 * strictly) and every dominated model with the model that dominates it.
 *
 * Choices where the spec is silent:
 * - Capability index (0–100): the task's benchmark blend of premium routing (TASK_BLENDS), each benchmark's weight
 *   multiplied by its trust factor (trust_score / 100, api/verdicts/benchmark-trust.ts), over percent scores:
 *   Σ w·t·score / Σ w. A benchmark the model lacks is imputed with that benchmark's median over every scored
 *   model, as routing does; a model with none of the task's benchmarks has no index and is left out. Rounded to
 *   2 decimals before comparing, so equal shown values are ties.
 * - Dominated by: the cheapest model that dominates it (then the most capable, then id).
 * - counts.priced: models with both a blended price and a capability index (the pool the frontier is drawn over).
 * - Order: frontier by price ascending (then capability descending, id); dominated by capability descending
 *   (then price ascending, id).
 */
import { median, TASK_BLENDS, type Task } from "./routing.ts";
import { round } from "./round.ts";

/** One model's blended price (USD per 1M tokens, 3:1) and display name. */
export interface PricedModel {
  model_id: string;
  name: string;
  blended_price: number;
}

/** A model on or off the frontier. */
export interface FrontierPoint {
  model_id: string;
  name: string;
  capability: number;
  blended_price: number;
}

export interface DominatedPoint extends FrontierPoint {
  dominated_by: { model_id: string; capability: number; blended_price: number };
}

export interface Frontier {
  frontier: FrontierPoint[];
  dominated: DominatedPoint[];
  counts: { priced: number; frontier: number; dominated: number };
}

/** Percent scores per benchmark id and model id. */
export type PercentScores = Map<string, Map<string, number>>;

/** Percent scores (lower-is-better benchmarks already inverted by the caller, if any) from rows. */
export function percentScores(rows: readonly { benchmark: string; model_id: string; score: number }[]): PercentScores {
  const table: PercentScores = new Map();
  for (const r of rows) {
    const m = table.get(r.benchmark) ?? new Map<string, number>();
    m.set(r.model_id, Math.min(100, Math.max(0, r.score)));
    table.set(r.benchmark, m);
  }
  return table;
}

/** model id → capability index 0–100 (2 decimals) for a task; models with none of the task's benchmarks absent. */
export function capabilityIndex(task: Task, scores: PercentScores, trust: ReadonlyMap<string, number>): Map<string, number> {
  const blend = Object.entries(TASK_BLENDS[task]);
  const medians = new Map<string, number>();
  const models = new Set<string>();
  for (const [b] of blend) {
    const byModel = scores.get(b);
    if (!byModel || byModel.size === 0) continue;
    medians.set(b, median([...byModel.values()]));
    for (const m of byModel.keys()) models.add(m);
  }
  const out = new Map<string, number>();
  const totalWeight = blend.reduce((s, [, w]) => s + w, 0);
  for (const m of models) {
    let sum = 0;
    for (const [b, w] of blend) {
      const v = scores.get(b)?.get(m) ?? medians.get(b);
      if (v === undefined) continue; // a benchmark nobody has a score on counts as 0 for everyone
      sum += w * (trust.get(b) ?? 1) * v;
    }
    out.set(m, round(sum / totalWeight, 2));
  }
  return out;
}

/** The Pareto frontier of the priced models that have a capability index. */
export function paretoFrontier(priced: readonly PricedModel[], capability: ReadonlyMap<string, number>): Frontier {
  const pool: FrontierPoint[] = [];
  for (const p of priced) {
    const c = capability.get(p.model_id);
    if (c !== undefined) pool.push({ model_id: p.model_id, name: p.name, capability: c, blended_price: p.blended_price });
  }
  const dominates = (a: FrontierPoint, b: FrontierPoint) =>
    a.blended_price <= b.blended_price && a.capability >= b.capability && (a.blended_price < b.blended_price || a.capability > b.capability);
  const byDominator = (a: FrontierPoint, b: FrontierPoint) =>
    a.blended_price - b.blended_price || b.capability - a.capability || a.model_id.localeCompare(b.model_id);
  const frontier: FrontierPoint[] = [];
  const dominated: DominatedPoint[] = [];
  for (const m of pool) {
    let by: FrontierPoint | undefined;
    for (const o of pool) if (o !== m && dominates(o, m) && (!by || byDominator(o, by) < 0)) by = o;
    if (by) dominated.push({ ...m, dominated_by: { model_id: by.model_id, capability: by.capability, blended_price: by.blended_price } });
    else frontier.push(m);
  }
  frontier.sort(byDominator);
  dominated.sort((a, b) => b.capability - a.capability || a.blended_price - b.blended_price || a.model_id.localeCompare(b.model_id));
  return { frontier, dominated, counts: { priced: pool.length, frontier: frontier.length, dominated: dominated.length } };
}
