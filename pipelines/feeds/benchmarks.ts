/**
 * Feed `benchmarks`: the curated benchmark catalog with attributed per-model scores (no upstream request;
 * the catalog is maintained by hand under pipelines/catalog/benchmarks.ts). Daily, so the warehouse gets one
 * `benchmark_scores` sample per day for premium routing's quality blend.
 */
import { benchmarks as catalogBenchmarks, type Benchmark } from "../catalog/benchmarks.ts";
import type { Feed, FeedContext, FeedOutput, WarehouseBatch } from "../lib/types.ts";
import { type BenchmarksSnapshot, benchmarksSnapshotType } from "../contract/snapshots/benchmarks.ts";

export { BenchmarkEntrySchema, type BenchmarksSnapshot, BenchmarksSnapshotSchema } from "../contract/snapshots/benchmarks.ts";

/** Build the snapshot: benchmarks in catalog order, scores best first (ties by model id). */
export function buildBenchmarksSnapshot(list: readonly Benchmark[]): BenchmarksSnapshot {
  const dates = list.flatMap((b) => b.scores.map((s) => s.date)).sort();
  const lastUpdated = dates.at(-1);
  if (!lastUpdated) throw new Error("benchmarks: the catalog holds no scores");
  return {
    lastUpdated,
    benchmarks: list.map((b) => ({
      id: b.id,
      name: b.name,
      category: b.category,
      url: b.url,
      description: b.description,
      higherIsBetter: b.higherIsBetter,
      scores: [...b.scores].sort((x, y) =>
        x.score !== y.score ? (b.higherIsBetter ? y.score - x.score : x.score - y.score) : x.model.localeCompare(y.model),
      ),
    })),
  };
}

/** Warehouse rows of table `benchmark_scores` for one run date (`reported_date` is the source's own date). */
export function benchmarkScoreRows(snapshot: BenchmarksSnapshot, date: string): WarehouseBatch {
  return {
    table: "benchmark_scores",
    key: ["date", "benchmark", "model_id"],
    rows: snapshot.benchmarks.flatMap((b) =>
      b.scores.map((s) => ({
        date,
        benchmark: b.id,
        model_id: s.model,
        score: s.score,
        source: s.source,
        reported_date: s.date,
      })),
    ),
  };
}

/** The `benchmarks` feed. */
export const benchmarksFeed: Feed<BenchmarksSnapshot> = {
  ...benchmarksSnapshotType,
  urls: () => [],
  historyRows: (data, at) => [benchmarkScoreRows(data, at.date)],
  async run(ctx: FeedContext): Promise<FeedOutput<BenchmarksSnapshot>> {
    const data = buildBenchmarksSnapshot(catalogBenchmarks);
    const rows = data.benchmarks.reduce((n, b) => n + b.scores.length, 0);
    for (const b of data.benchmarks) {
      if (b.scores.length === 0) ctx.notice(`benchmarks: ${b.id} has no attributed scores`);
    }
    return {
      data,
      rows,
      sources: [{ id: "curated", ok: true, rows }],
      warehouse: [benchmarkScoreRows(data, ctx.now.toISOString().slice(0, 10))],
    };
  },
};
