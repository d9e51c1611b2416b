/**
 * GET /api/premium/benchmark-trust-verdict: per catalog benchmark, how far its scores can be trusted
 * (api/verdicts/benchmark-trust.ts), over the newest captured day of the warehouse table benchmark_scores.
 * Billing, auth and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { BENCHMARK_STATUSES, CONTAMINATION_RISKS, TRUST_BANDS, type BenchmarkTrust } from "../verdicts/benchmark-trust.ts";
import { readBenchmarkTrust } from "./premium-model-reads.ts";

const slug = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `${what} must not be empty`)
    .max(100, `${what} is at most 100 characters`)
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, `${what} may hold letters, digits and . _ - only`)
    .optional();

/** Query of GET /api/premium/benchmark-trust-verdict. */
export const BenchmarkTrustQuery = z.strictObject({
  benchmark: slug("benchmark").meta({ description: "One benchmark id as in /api/benchmarks (case-insensitive), e.g. gpqa-diamond; omit for all." }),
  category: slug("category").meta({ description: "One catalog category (coding, knowledge, reasoning, math; case-insensitive); omit for all." }),
});
export type BenchmarkTrustQueryInput = z.infer<typeof BenchmarkTrustQuery>;

const fraction = z.number().min(0).max(1);

/** One benchmark's verdict as served. */
export const BenchmarkTrustVerdict = z.strictObject({
  id: z.string(),
  name: z.string(),
  category: z.string(),
  status: z.enum(BENCHMARK_STATUSES).meta({ description: "active (a score reported within 365 days of capturedAt), dormant (none that recent) or unscored." }),
  contamination_risk: z.enum(CONTAMINATION_RISKS).meta({ description: "From exposure: days since the earliest score the catalog holds; < 1 year low, 1-2 medium, ≥ 2 high; none without scores." }),
  frontier_score: z.number().nullable().meta({ description: "Best score, percent." }),
  score_range: z.strictObject({ min: z.number(), max: z.number() }).nullable(),
  trust_band: z.enum(TRUST_BANDS),
  trust_score: z.number().int().min(0).max(100).nullable().meta({ description: "0-100; null when unscored." }),
  signals: z.strictObject({
    ceiling_proximity: fraction.nullable().meta({ description: "Best score over the 100 % ceiling, 0-1." }),
    frontier_compression: z.number().min(-1).max(1).nullable().meta({ description: "Relative shrink of the top-5 spread against the scores reported ≥ 365 days before the newest; positive when leaders bunch up." }),
    top_score_spread: z.number().nonnegative().nullable().meta({ description: "Best minus fifth-best score (or last under 5), points." }),
    models_scored: z.number().int().nonnegative(),
  }),
  recommendation: z.string(),
  leaderboard_url: z.string(),
});

/** Body of GET /api/premium/benchmark-trust-verdict (the billing wrapper adds billing and the receipt). */
export const BenchmarkTrustResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable().meta({ description: "The warehouse day the scores were read from; null when the warehouse holds none." }),
  filter: z.strictObject({ benchmark: z.string().nullable(), category: z.string().nullable() }),
  count: z.number().int().nonnegative(),
  verdicts: z.array(BenchmarkTrustVerdict),
});
export type BenchmarkTrustBody = z.infer<typeof BenchmarkTrustResponse>;

/** Render GET /api/premium/benchmark-trust-verdict. */
export async function renderBenchmarkTrust(ctx: RenderContext, query: BenchmarkTrustQueryInput): Promise<BenchmarkTrustBody> {
  const { capturedAt, catalog, verdicts } = await readBenchmarkTrust(ctx);
  let benchmark: string | null = null;
  let category: string | null = null;
  if (query.benchmark !== undefined) {
    benchmark = catalog.find((b) => b.id.toLowerCase() === query.benchmark!.toLowerCase())?.id ?? null;
    if (benchmark === null) {
      throw new ApiError(404, "unknown_benchmark", `benchmark ${JSON.stringify(query.benchmark)} is not in the catalog; see /api/benchmarks`, { known: catalog.map((b) => b.id) });
    }
  }
  if (query.category !== undefined) {
    const categories = [...new Set(catalog.map((b) => b.category))].sort();
    category = categories.find((c) => c.toLowerCase() === query.category!.toLowerCase()) ?? null;
    if (category === null) throw new ApiError(404, "unknown_category", `category ${JSON.stringify(query.category)} has no benchmark in the catalog`, { known: categories });
  }
  const chosen: BenchmarkTrust[] = verdicts.filter((v) => (benchmark === null || v.id === benchmark) && (category === null || v.category === category));
  return { ok: true, capturedAt, filter: { benchmark, category }, count: chosen.length, verdicts: chosen };
}

/** Why a successful answer is not charged, or null. */
export function benchmarkTrustNoCharge(body: BenchmarkTrustBody): string | null {
  if (body.count === 0) return "no_benchmark_matched";
  return body.verdicts.every((v) => v.status === "unscored") ? "no_scores" : null;
}

/** The benchmark trust route. */
export const premiumBenchmarkTrustRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/benchmark-trust-verdict",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Per benchmark: contamination risk, ceiling proximity, frontier compression, top-score spread, trust band and score 0-100, leaderboard URL.",
    description: [
      "Scores are read from the warehouse table benchmark_scores (its newest day file: the scores the curated catalog stated that day, each with the day its source reported it); names, categories and leaderboard URLs from the latest benchmarks snapshot, which no table holds.",
      "contamination_risk: the catalog records no benchmark release date and every catalog benchmark has a public test set, so risk is read from exposure, the days between the earliest score the catalog holds for the benchmark and capturedAt: under 1 year low, 1-2 years medium, 2 years or more high.",
      "ceiling_proximity = best score / 100. top_score_spread = best − fifth-best (or last) in points. frontier_compression = (spread then − spread now) / spread then, 'then' being the scores reported at least 365 days before the benchmark's newest one.",
      "trust_score = 100 − exposure penalty (up to 40 over 3 years) − ceiling penalty (up to 35 as the best score goes from 70 to 100) − compression penalty (up to 15) − thin-data penalty (2 per model under 5), rounded.",
      "trust_band: contaminated (high contamination risk and ceiling proximity ≥ 0.9), saturated (ceiling proximity ≥ 0.9), high (trust_score ≥ 70), medium (≥ 45), low (below), insufficient_data (no score; trust_score null).",
      "Filters benchmark and category are case-insensitive; an unknown one is 404 (unknown_benchmark, unknown_category), not charged. Not charged either: a filter pair that matches no benchmark (no_benchmark_matched), or no score for any matched benchmark (no_scores), or a stale benchmarks snapshot.",
    ].join(" "),
    tags: ["premium", "benchmarks", "models"],
    query: BenchmarkTrustQuery,
    response: BenchmarkTrustResponse,
    errors: { 404: "unknown benchmark or category (unknown_benchmark, unknown_category)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["benchmarks"],
    example: "/api/premium/benchmark-trust-verdict?category=coding",
    noCharge: {
      outcomes: {
        no_benchmark_matched: "the benchmark and category filters together match no catalog benchmark",
        no_scores: "the warehouse holds no score for any matched benchmark",
      },
      check: benchmarkTrustNoCharge,
    },
    render: (ctx, { query }) => renderBenchmarkTrust(ctx, query),
  }),
];
