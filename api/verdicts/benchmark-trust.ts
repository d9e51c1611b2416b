/**
 * Benchmark trust: how far a benchmark's scores can still be trusted to separate models, per benchmark of the
 * curated catalog, from the scores the catalog states on one day (warehouse table benchmark_scores).
 *
 * Choices where the spec is silent:
 * - Contamination risk: the catalog records no benchmark release date or test-set policy, and every catalog
 *   benchmark publishes its test set, so the risk is read from exposure: the days between the earliest score the
 *   catalog holds for the benchmark (a lower bound on how long its public test set has been trained and tuned
 *   against) and the capture day. Under 1 year low, 1 to 2 years medium, 2 years or more high; none without
 *   scores.
 * - Ceiling proximity: the frontier (best) score over the ceiling (100 %), as a fraction 0–1; for a benchmark
 *   where lower is better, 1 − best / 100.
 * - Top-score spread: best minus fifth-best score in points (minus the last when fewer than 5); null under 2.
 * - Frontier compression: how much the top-5 spread shrank over a year: (spread then − spread now) / spread then,
 *   where "then" holds the scores reported at least 365 days before the benchmark's newest score; in [−1, 1],
 *   positive when the leaders bunch up; null when either side has fewer than 2 scores or the old spread is 0.
 * - Trust score 0–100: 100 minus exposure (up to 40 over 3 years), ceiling (up to 35 as the best score goes from
 *   70 % to 100 %), compression (up to 15) and thin data (2 per model under 5, up to 10) penalties, rounded.
 * - Trust band: contaminated (high contamination risk and ceiling proximity ≥ 0.9: near-perfect scores on a
 *   long-public test set no longer tell capability from memorisation), saturated (ceiling proximity ≥ 0.9),
 *   high (score ≥ 70), medium (≥ 45), low (below), insufficient_data (no score; trust_score null).
 * - Status: active (a score reported within 365 days of the capture day), dormant (none that recent), unscored.
 * - The trust factor other verdicts discount a benchmark by is trust_score / 100 (1 for an untouched benchmark).
 */
import { addDays, daysBetween } from "./history-range.ts";
import { round } from "./round.ts";

/** One catalog benchmark as the verdict needs it. */
export interface BenchmarkInfo {
  id: string;
  name: string;
  category: string;
  url: string;
  higherIsBetter: boolean;
}

/** One score row of the captured day. */
export interface BenchmarkScoreRow {
  benchmark: string;
  model_id: string;
  score: number;
  reported_date: string;
}

export const TRUST_BANDS = ["high", "medium", "low", "saturated", "contaminated", "insufficient_data"] as const;
export type TrustBand = (typeof TRUST_BANDS)[number];
export const CONTAMINATION_RISKS = ["low", "medium", "high", "none"] as const;
export type ContaminationRisk = (typeof CONTAMINATION_RISKS)[number];
export const BENCHMARK_STATUSES = ["active", "dormant", "unscored"] as const;
export type BenchmarkStatus = (typeof BENCHMARK_STATUSES)[number];

/** One benchmark's verdict. */
export interface BenchmarkTrust {
  id: string;
  name: string;
  category: string;
  status: BenchmarkStatus;
  contamination_risk: ContaminationRisk;
  frontier_score: number | null;
  score_range: { min: number; max: number } | null;
  trust_band: TrustBand;
  trust_score: number | null;
  signals: {
    ceiling_proximity: number | null;
    frontier_compression: number | null;
    top_score_spread: number | null;
    models_scored: number;
  };
  recommendation: string;
  leaderboard_url: string;
}

/** Scores this recent (days before the capture day) keep a benchmark active. */
export const ACTIVE_DAYS = 365;
/** How far back "then" is for frontier compression, days before the newest score. */
export const COMPRESSION_DAYS = 365;
/** Ceiling proximity from which a benchmark counts as saturated. */
export const SATURATION = 0.9;
const TOP_N = 5;


/** Scores best first for the benchmark's direction. */
function bestFirst(scores: number[], higherIsBetter: boolean): number[] {
  return [...scores].sort((a, b) => (higherIsBetter ? b - a : a - b));
}

/** Best minus fifth-best (or last) in points; null under 2 scores. */
export function topSpread(scores: number[], higherIsBetter: boolean): number | null {
  if (scores.length < 2) return null;
  const top = bestFirst(scores, higherIsBetter).slice(0, TOP_N);
  return round(Math.abs(top[0]! - top[top.length - 1]!), 2);
}

/** Exposure in days → contamination risk. */
export function contaminationRisk(exposureDays: number | null): ContaminationRisk {
  if (exposureDays === null) return "none";
  if (exposureDays >= 730) return "high";
  if (exposureDays >= 365) return "medium";
  return "low";
}

const RECOMMENDATION: Record<TrustBand, string> = {
  high: "Trust the ranking: scores still separate models and the test set is young.",
  medium: "Use with care: cross-check the ranking on a second benchmark of the same category.",
  low: "Weak signal: do not choose a model on this benchmark alone.",
  saturated: "Saturated: top models score near the ceiling, so differences at the top are noise; prefer a harder benchmark.",
  contaminated:
    "Likely contaminated: near-perfect scores on a test set public for years may reflect training exposure; do not rank models on it.",
  insufficient_data: "No attributed score in the catalog: nothing to judge.",
};

/** The verdict for one benchmark over its rows of the captured day. */
export function benchmarkTrust(info: BenchmarkInfo, rows: readonly BenchmarkScoreRow[], capturedAt: string): BenchmarkTrust {
  const scores = rows.map((r) => r.score);
  const base = { id: info.id, name: info.name, category: info.category, leaderboard_url: info.url };
  if (rows.length === 0) {
    return {
      ...base,
      status: "unscored",
      contamination_risk: "none",
      frontier_score: null,
      score_range: null,
      trust_band: "insufficient_data",
      trust_score: null,
      signals: { ceiling_proximity: null, frontier_compression: null, top_score_spread: null, models_scored: 0 },
      recommendation: RECOMMENDATION.insufficient_data,
    };
  }
  const dates = rows.map((r) => r.reported_date).sort();
  const first = dates[0]!;
  const newest = dates[dates.length - 1]!;
  const exposure = Math.max(0, daysBetween(first, capturedAt));
  const risk = contaminationRisk(exposure);
  const best = bestFirst(scores, info.higherIsBetter)[0]!;
  const ceiling = round(Math.min(1, Math.max(0, info.higherIsBetter ? best / 100 : 1 - best / 100)), 4);
  const spreadNow = topSpread(scores, info.higherIsBetter);
  const cutoff = addDays(newest, -COMPRESSION_DAYS);
  const spreadThen = topSpread(
    rows.filter((r) => r.reported_date <= cutoff).map((r) => r.score),
    info.higherIsBetter,
  );
  const compression =
    spreadNow === null || spreadThen === null || spreadThen === 0 ? null : round(Math.max(-1, Math.min(1, (spreadThen - spreadNow) / spreadThen)), 4);

  const penalty =
    Math.min(40, (40 * exposure) / 1095) +
    Math.max(0, Math.min(35, ((ceiling - 0.7) / 0.3) * 35)) +
    Math.max(0, compression ?? 0) * 15 +
    Math.min(10, Math.max(0, TOP_N - rows.length) * 2);
  const trustScore = Math.max(0, Math.min(100, Math.round(100 - penalty)));
  const band: TrustBand =
    ceiling >= SATURATION ? (risk === "high" ? "contaminated" : "saturated") : trustScore >= 70 ? "high" : trustScore >= 45 ? "medium" : "low";
  return {
    ...base,
    status: daysBetween(newest, capturedAt) <= ACTIVE_DAYS ? "active" : "dormant",
    contamination_risk: risk,
    frontier_score: best,
    score_range: { min: Math.min(...scores), max: Math.max(...scores) },
    trust_band: band,
    trust_score: trustScore,
    signals: { ceiling_proximity: ceiling, frontier_compression: compression, top_score_spread: spreadNow, models_scored: rows.length },
    recommendation: RECOMMENDATION[band],
    leaderboard_url: info.url,
  };
}

/** Verdicts for every catalog benchmark (catalog order), over the captured day's rows. */
export function benchmarkTrustAll(catalog: readonly BenchmarkInfo[], rows: readonly BenchmarkScoreRow[], capturedAt: string): BenchmarkTrust[] {
  const byBenchmark = new Map<string, BenchmarkScoreRow[]>();
  for (const r of rows) {
    const list = byBenchmark.get(r.benchmark) ?? [];
    list.push(r);
    byBenchmark.set(r.benchmark, list);
  }
  return catalog.map((b) => benchmarkTrust(b, byBenchmark.get(b.id) ?? [], capturedAt));
}

/** benchmark id → trust factor in [0, 1] (trust_score / 100; 1 for a benchmark without a verdict). */
export function trustFactors(verdicts: readonly BenchmarkTrust[]): Map<string, number> {
  return new Map(verdicts.map((v) => [v.id, v.trust_score === null ? 1 : v.trust_score / 100]));
}
