/**
 * The inference cost verdict: for one model and a monthly token volume, the monthly cost at every provider the
 * aggregator lists for it (warehouse table inference_providers_daily, newest day), the cheapest one with its
 * output throughput, and the savings against the caller's current provider (or, without one, against the
 * dearest listing). Costs are summed in integer micro-USD (USDC's base unit) and shown in USD.
 */
import { round } from "./round.ts";

/** One provider endpoint of the matrix, as the route reads it. */
export interface EndpointRow {
  provider: string;
  tag: string;
  input_per_1m: number | null;
  output_per_1m: number | null;
  throughput_tps: number | null;
  latency_ms: number | null;
  uptime_pct: number | null;
}

/** The input:output split applied to monthly_tokens when no exact split is given (3 input : 1 output, the usual chat mix). */
export const DEFAULT_INPUT_SHARE = 0.75;

/** How the monthly tokens divide between input and output. */
export interface TokenSplit {
  input_tokens: number;
  output_tokens: number;
  basis: "exact" | "default_3_to_1";
}

/** The split for a request: the exact one when both halves are given, else 3:1 over monthly_tokens (input rounded half up). */
export function tokenSplit(q: { monthly_tokens?: number; input_tokens?: number; output_tokens?: number }): TokenSplit {
  if (q.input_tokens !== undefined && q.output_tokens !== undefined) return { input_tokens: q.input_tokens, output_tokens: q.output_tokens, basis: "exact" };
  const total = q.monthly_tokens ?? 0;
  const input = Math.round(total * DEFAULT_INPUT_SHARE);
  return { input_tokens: input, output_tokens: total - input, basis: "default_3_to_1" };
}

/** One provider's monthly cost (its cheapest priced endpoint). */
export interface ProviderCost {
  provider: string;
  tag: string;
  monthly_cost_usd: number;
  output_tps: number | null;
  latency_ms: number | null;
  uptime_pct: number | null;
}

export type CostRecommendation = "SWITCH" | "STAY" | "USE_CHEAPEST" | "NOT_IN_MATRIX" | "NO_PRICED_PROVIDER";

/** The verdict body (the billing wrapper adds billing). */
export interface InferenceCostVerdict {
  ok: true;
  verdict_kind: "inference_cost";
  model: string;
  model_id: string | null;
  in_matrix: boolean;
  as_of: string | null;
  split: TokenSplit;
  cheapest: { provider: string; tag: string; monthly_cost_usd: number; output_tps: number | null } | null;
  current: { provider: string; monthly_cost_usd: number; basis: "current_provider" | "most_expensive" } | null;
  savings: { vs_current_usd: number; vs_current_pct: number | null } | null;
  recommendation: CostRecommendation;
  why: string;
  providers: ProviderCost[];
  source: string | null;
  notes: string[];
}

/** What the verdict decides over. */
export interface InferenceCostInput {
  /** The model as asked. */
  model: string;
  /** The matrix's id for it, or null when the model is not in the matrix. */
  model_id: string | null;
  /** The matrix day read (null when the warehouse holds no day). */
  as_of: string | null;
  rows: readonly EndpointRow[];
  split: TokenSplit;
  /** The caller's provider, already resolved with findProvider (its name as the matrix spells it). */
  current_provider?: string;
  /** Where the matrix comes from. */
  source: string;
  now: Date;
}

/** Monthly cost in integer micro-USD: tokens × USD per 1M tokens. */
export function monthlyMicroUsd(split: TokenSplit, input_per_1m: number, output_per_1m: number): number {
  return Math.round(split.input_tokens * input_per_1m + split.output_tokens * output_per_1m);
}

const usd = (micro: number) => micro / 1_000_000;

/** Cheaper first; on a tie, faster output, then higher uptime, then provider name. */
function byCost(a: ProviderCost & { micro: number }, b: ProviderCost & { micro: number }): number {
  return a.micro - b.micro || (b.output_tps ?? -1) - (a.output_tps ?? -1) || (b.uptime_pct ?? -1) - (a.uptime_pct ?? -1) || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0);
}

/** The provider a caller named (case-insensitive: provider name, endpoint tag, or the tag's part before "/"), or null. */
export function findProvider(rows: readonly EndpointRow[], asked: string): string | null {
  const a = asked.trim().toLowerCase();
  const hit = rows.find((r) => r.provider.toLowerCase() === a || r.tag.toLowerCase() === a || r.tag.toLowerCase().split("/")[0] === a);
  return hit ? hit.provider : null;
}

/** Decide the inference cost verdict. */
export function inferenceCost(input: InferenceCostInput): InferenceCostVerdict {
  const base = { ok: true as const, verdict_kind: "inference_cost" as const, model: input.model, model_id: input.model_id, as_of: input.as_of, split: input.split };
  const empty = { cheapest: null, current: null, savings: null, providers: [] };
  if (input.model_id === null || input.rows.length === 0) {
    return {
      ...base,
      ...empty,
      in_matrix: false,
      recommendation: "NOT_IN_MATRIX",
      why: `${input.model} is not in the inference-provider matrix${input.as_of ? ` of ${input.as_of}` : ""}; no cost can be computed.`,
      source: null,
      notes: ["The matrix lists the curated catalog's models as the aggregator serves them; see /api/models for the ids."],
    };
  }
  const notes: string[] = [];
  const best = new Map<string, ProviderCost & { micro: number }>();
  let unpriced = 0;
  for (const r of input.rows) {
    if (r.input_per_1m === null || r.output_per_1m === null) {
      unpriced += 1;
      continue;
    }
    const micro = monthlyMicroUsd(input.split, r.input_per_1m, r.output_per_1m);
    const entry = { provider: r.provider, tag: r.tag, micro, monthly_cost_usd: usd(micro), output_tps: r.throughput_tps, latency_ms: r.latency_ms, uptime_pct: r.uptime_pct };
    const held = best.get(r.provider);
    if (!held || byCost(entry, held) < 0) best.set(r.provider, entry);
  }
  if (unpriced > 0) notes.push(`${unpriced} endpoint(s) without a stated price are left out.`);
  const ranked = [...best.values()].sort(byCost);
  const providers = ranked.map(({ micro: _micro, ...p }) => p);
  const asOfAge = input.as_of ? Math.floor((Date.parse(`${input.now.toISOString().slice(0, 10)}T00:00:00Z`) - Date.parse(`${input.as_of}T00:00:00Z`)) / 86_400_000) : 0;
  if (asOfAge > 0) notes.push(`The matrix is from ${input.as_of}, ${asOfAge} day(s) before today (UTC).`);
  if (ranked.some((p) => p.output_tps === null)) notes.push("output_tps is null where the aggregator states no throughput for the last 30 minutes (source: null for that figure).");
  const cheapest = ranked[0];
  if (!cheapest) {
    return { ...base, ...empty, in_matrix: true, recommendation: "NO_PRICED_PROVIDER", why: `No provider of ${input.model_id} states a price${input.as_of ? ` on ${input.as_of}` : ""}.`, source: input.source, notes };
  }
  const named = input.current_provider !== undefined ? best.get(input.current_provider) : undefined;
  if (input.current_provider !== undefined && !named) notes.push(`${input.current_provider} lists ${input.model_id} without a price; compared with the dearest listing instead.`);
  const current = named ?? ranked[ranked.length - 1]!;
  const basis = named ? ("current_provider" as const) : ("most_expensive" as const);
  const savedMicro = current.micro - cheapest.micro;
  const savings = { vs_current_usd: usd(savedMicro), vs_current_pct: current.micro === 0 ? null : round((savedMicro / current.micro) * 100, 2) };
  let recommendation: CostRecommendation;
  let why: string;
  if (basis === "current_provider") {
    if (savedMicro > 0) {
      recommendation = "SWITCH";
      why = `${cheapest.provider} serves ${input.model_id} for $${usd(cheapest.micro)} a month against $${usd(current.micro)} at ${current.provider}: $${usd(savedMicro)} (${savings.vs_current_pct}%) less.`;
    } else {
      recommendation = "STAY";
      why = `${current.provider} is already among the cheapest providers of ${input.model_id} at $${usd(current.micro)} a month.`;
    }
  } else {
    recommendation = "USE_CHEAPEST";
    why = `${cheapest.provider} is the cheapest of ${ranked.length} provider(s) at $${usd(cheapest.micro)} a month; the dearest, ${current.provider}, costs $${usd(current.micro)}.`;
  }
  return {
    ...base,
    in_matrix: true,
    cheapest: { provider: cheapest.provider, tag: cheapest.tag, monthly_cost_usd: usd(cheapest.micro), output_tps: cheapest.output_tps },
    current: { provider: current.provider, monthly_cost_usd: usd(current.micro), basis },
    savings,
    recommendation,
    why,
    providers,
    source: input.source,
    notes,
  };
}
