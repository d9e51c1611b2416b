/**
 * What the market verdicts (inference cost, model comparison) read from the warehouse: the newest captured
 * day of a table (not after today) and only that day's rows of the subjects asked. Every statement is a
 * constant text with `?` parameters; nothing of the request reaches the SQL but validated ids.
 */
import { perVersion } from "../warehouse/per-version.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { relationFrom } from "../warehouse/recent.ts";
import type { EndpointRow } from "../verdicts/inference-cost.ts";

/** The newest day of `table` with a day file on or before `today` (YYYY-MM-DD), or null. */
export function newestDay(warehouse: WarehouseReader, table: string, today: string): string | null {
  const dates = warehouse.dates(table);
  for (let i = dates.length - 1; i >= 0; i--) if (dates[i]! <= today) return dates[i]!;
  return null;
}

/** lower-case aggregator id → id as stored, for the matrix of `day` (once per warehouse version and day). */
export function matrixModels(warehouse: WarehouseReader, day: string): Promise<Map<string, string>> {
  return perVersion(warehouse, `inference_providers_daily.models.${day}`, async () => {
    const rows = await warehouse.query<{ v: string }>(`SELECT DISTINCT model_id AS v FROM ${relationFrom(warehouse, "inference_providers_daily", day)} WHERE date = CAST(? AS DATE)`, [day]);
    return new Map(rows.map((r) => [r.v.toLowerCase(), r.v]));
  });
}

const matrixRows = (relation: string) => `SELECT provider, tag, input_per_1m, output_per_1m, throughput_tps, latency_ms, uptime_pct
  FROM ${relation} WHERE date = CAST(? AS DATE) AND model_id = ? ORDER BY provider, tag`;

/** Every provider endpoint of one model on one day. */
export function readMatrix(warehouse: WarehouseReader, day: string, modelId: string): Promise<EndpointRow[]> {
  return warehouse.query<EndpointRow & Record<string, string | number | null>>(matrixRows(relationFrom(warehouse, "inference_providers_daily", day)), [day, modelId]);
}

/** At most this many ids per comparison (the statements bind exactly this many, padding with the first). */
export const MAX_COMPARE_IDS = 5;
const IN_IDS = `(${Array.from({ length: MAX_COMPARE_IDS }, () => "?").join(", ")})`;
const pad = (ids: readonly string[]) => Array.from({ length: MAX_COMPARE_IDS }, (_, i) => ids[i] ?? ids[0] ?? "");

// The served price of a day: the newest observation among the sources, curated on a tie (as the pricing snapshot serves it).
const priceRows = (relation: string) => `SELECT model_id, input_per_1m, output_per_1m FROM ${relation}
  WHERE date = CAST(? AS DATE) AND model_id IN ${IN_IDS} AND input_per_1m IS NOT NULL AND output_per_1m IS NOT NULL
  QUALIFY row_number() OVER (PARTITION BY model_id ORDER BY observed_at DESC NULLS LAST, CASE source WHEN 'curated' THEN 0 ELSE 1 END) = 1`;

/** Served prices of the ids on one day, by model id. */
export async function readPrices(warehouse: WarehouseReader, day: string, ids: readonly string[]): Promise<Map<string, { input: number; output: number }>> {
  const rows = await warehouse.query<{ model_id: string; input_per_1m: number; output_per_1m: number }>(priceRows(relationFrom(warehouse, "model_prices", day)), [day, ...pad(ids)]);
  return new Map(rows.map((r) => [r.model_id, { input: r.input_per_1m, output: r.output_per_1m }]));
}

const scoreRows = (relation: string) => `SELECT model_id, benchmark, score FROM ${relation} WHERE date = CAST(? AS DATE) AND model_id IN ${IN_IDS}`;

/** Benchmark scores of the ids on one day. */
export function readScores(warehouse: WarehouseReader, day: string, ids: readonly string[]): Promise<{ model_id: string; benchmark: string; score: number }[]> {
  return warehouse.query<{ model_id: string; benchmark: string; score: number }>(scoreRows(relationFrom(warehouse, "benchmark_scores", day)), [day, ...pad(ids)]);
}
