/**
 * What the model verdicts (benchmark trust, frontier, migration) read: the newest captured day of the warehouse
 * tables benchmark_scores and model_prices (one day file each, read once per warehouse version and shared by
 * every request until the reader sees new day files), and from the latest snapshots only what no table holds:
 * benchmark names, categories, leaderboard URLs and direction (benchmarks), model display names (pricing) and the
 * deprecation calendar (model-deprecations). Every statement is a constant text with `?` parameters.
 */
import { ApiError, type RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { perVersion } from "../warehouse/per-version.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { relationFrom } from "../warehouse/recent.ts";
import { blended } from "../verdicts/price.ts";
import { benchmarkTrustAll, trustFactors, type BenchmarkInfo, type BenchmarkScoreRow, type BenchmarkTrust } from "../verdicts/benchmark-trust.ts";
import { capabilityIndex, percentScores, type PricedModel } from "../verdicts/frontier.ts";
import type { Task } from "../verdicts/routing.ts";
import { type BenchmarksSnapshot, BenchmarksSnapshotSchema } from "../../pipelines/contract/snapshots/benchmarks.ts";
import { type PricingSnapshot, PricingSnapshotSchema } from "../../pipelines/contract/snapshots/pricing.ts";

/** The reader, or 503 warehouse_unavailable. */
export function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** The newest day with a day file of `table`, or null. */
export function latestDay(warehouse: WarehouseReader, table: string): string | null {
  const dates = warehouse.dates(table);
  return dates.length === 0 ? null : dates[dates.length - 1]!;
}

const scoresSql = (relation: string) => `SELECT benchmark, model_id, score, CAST(reported_date AS VARCHAR) AS reported_date
  FROM ${relation} WHERE date = CAST(? AS DATE) ORDER BY benchmark, model_id`;

/** The benchmark scores of the newest captured day (capturedAt null and no rows without any day file). */
export function readLatestScores(warehouse: WarehouseReader): Promise<{ capturedAt: string | null; rows: BenchmarkScoreRow[] }> {
  return perVersion(warehouse, "model-verdicts.scores", async () => {
    const capturedAt = latestDay(warehouse, "benchmark_scores");
    if (capturedAt === null) return { capturedAt, rows: [] };
    const rows = await warehouse.query(scoresSql(relationFrom(warehouse, "benchmark_scores", capturedAt)), [capturedAt]);
    return {
      capturedAt,
      rows: rows.map((r) => ({ benchmark: String(r["benchmark"]), model_id: String(r["model_id"]), score: Number(r["score"]), reported_date: String(r["reported_date"]) })),
    };
  });
}

/** Per model of the newest captured day, its newest price observation (largest observed_at; curated wins a tie). */
const pricesSql = (relation: string) => `SELECT model_id, input_per_1m, output_per_1m FROM ${relation}
  WHERE date = CAST(? AS DATE) AND input_per_1m IS NOT NULL AND output_per_1m IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY model_id ORDER BY observed_at DESC NULLS LAST, CASE source WHEN 'curated' THEN 0 ELSE 1 END) = 1
  ORDER BY model_id`;

/** model id → blended price (3:1, USD per 1M) of the newest observation on the newest captured day. */
export function readLatestPrices(warehouse: WarehouseReader): Promise<Map<string, number>> {
  return perVersion(warehouse, "model-verdicts.prices", async () => {
    const day = latestDay(warehouse, "model_prices");
    if (day === null) return new Map<string, number>();
    const rows = await warehouse.query(pricesSql(relationFrom(warehouse, "model_prices", day)), [day]);
    return new Map(rows.map((r) => [String(r["model_id"]), blended(Number(r["input_per_1m"]), Number(r["output_per_1m"]))]));
  });
}

/** The benchmark catalog of the latest benchmarks snapshot (names, categories, leaderboard URLs, direction). */
export function benchmarkCatalog(ctx: RenderContext): BenchmarkInfo[] {
  const snapshot: BenchmarksSnapshot = readSnapshot(ctx.snapshots, "benchmarks", BenchmarksSnapshotSchema).data;
  return snapshot.benchmarks.map((b) => ({ id: b.id, name: b.name, category: b.category, url: b.url, higherIsBetter: b.higherIsBetter }));
}

/** model id → display name from the latest pricing snapshot. */
export function modelNames(ctx: RenderContext): Map<string, string> {
  const pricing: PricingSnapshot = readSnapshot(ctx.snapshots, "pricing", PricingSnapshotSchema).data;
  return new Map(pricing.providers.flatMap((p) => p.models.map((m) => [m.id, m.name] as const)));
}

/** Trust verdicts for every catalog benchmark over the newest captured day. */
export async function readBenchmarkTrust(ctx: RenderContext): Promise<{ capturedAt: string | null; catalog: BenchmarkInfo[]; verdicts: BenchmarkTrust[]; rows: BenchmarkScoreRow[] }> {
  const catalog = benchmarkCatalog(ctx);
  const { capturedAt, rows } = await readLatestScores(warehouseOf(ctx));
  return { capturedAt, catalog, rows, verdicts: benchmarkTrustAll(catalog, rows, capturedAt ?? ctx.now.toISOString().slice(0, 10)) };
}

/** Capability index per model for a task (trust-discounted; lower-is-better benchmarks inverted to 100 − score). */
export async function readCapability(ctx: RenderContext, task: Task): Promise<Map<string, number>> {
  const { catalog, verdicts, rows } = await readBenchmarkTrust(ctx);
  const lowerIsBetter = new Set(catalog.filter((b) => !b.higherIsBetter).map((b) => b.id));
  const known = new Set(catalog.map((b) => b.id));
  const oriented = rows.filter((r) => known.has(r.benchmark)).map((r) => (lowerIsBetter.has(r.benchmark) ? { ...r, score: 100 - r.score } : r));
  return capabilityIndex(task, percentScores(oriented), trustFactors(verdicts));
}

/** Every priced model of the newest day with its display name (the id when the catalog has no name). */
export async function readPricedModels(ctx: RenderContext): Promise<PricedModel[]> {
  const prices = await readLatestPrices(warehouseOf(ctx));
  const names = modelNames(ctx);
  return [...prices].map(([model_id, blended_price]) => ({ model_id, name: names.get(model_id) ?? model_id, blended_price }));
}
