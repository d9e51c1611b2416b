/**
 * GET /api/benchmarks: the curated benchmark catalog (HumanEval, SWE-bench Verified, MMLU-Pro, GPQA Diamond,
 * MATH-500) with per-model scores, each attributed to its source and date, as written by the `benchmarks`
 * pipeline (daily).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { BenchmarkEntrySchema, type BenchmarksSnapshot } from "../../pipelines/contract/snapshots/benchmarks.ts";

/** Body of GET /api/benchmarks. */
export const BenchmarksResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.iso.date().meta({ description: "newest publication date among the scores" }),
  benchmarks: z.array(BenchmarkEntrySchema),
});

export type BenchmarksResponse = z.infer<typeof BenchmarksResponse>;

/** Pure render of GET /api/benchmarks over the `benchmarks` snapshot. */
export function renderBenchmarks(ctx: RenderContext): BenchmarksResponse {
  const snapshot = readSnapshot<BenchmarksSnapshot>(ctx.snapshots, "benchmarks");
  return { ok: true, lastUpdated: snapshot.data.lastUpdated, benchmarks: snapshot.data.benchmarks };
}

/** /api/benchmarks. */
export const benchmarksRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/benchmarks",
    tier: "free",
    summary: "Benchmark catalog with per-model scores (percent), each with its source URL and date.",
    description:
      "Scores are percentages 0–100 copied from model cards, launch posts and technical reports; each names its source and publication date, and a note when it was measured on another version or setting (e.g. without extended thinking). Models without an attributable score are left out rather than estimated. Scores are sorted best first. Model ids match /api/models.",
    tags: ["models", "benchmarks"],
    response: BenchmarksResponse,
    snapshots: ["benchmarks"],
    freshness: { cadence: "daily", slaSeconds: 172_800 },
    render: (ctx) => renderBenchmarks(ctx),
  }),
];
