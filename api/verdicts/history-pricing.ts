/**
 * The daily price series of one model (GET /api/premium/history/pricing/series), decided from the warehouse's
 * model_prices rows of the range:
 * - Per day the served price is the newest observation (largest observed_at; a row without one counts as the
 *   oldest; ties go to the curated catalog). Only rows with both an input and an output price count.
 * - blended is the 3:1 input:output blend used across the API (USD per 1M tokens).
 * - A day without a priced row has has_data false and null figures, never a zero.
 * - changes_detected counts data days whose (input, output) differs from the previous data day's.
 * - delta_pct_blended is (latest − first) / first × 100 over the first and latest data days; null when the first
 *   blended price is 0 or there is no data.
 */
import { daysOf, type DayRange } from "./history-range.ts";
import { blended } from "./price.ts";
import { round } from "./round.ts";

/** One model_prices row as the series reads it. */
export interface PriceRow {
  date: string;
  provider: string;
  input_per_1m: number | null;
  output_per_1m: number | null;
  source: string;
  observed_at: string | null;
}

export interface PricePoint {
  date: string;
  has_data: boolean;
  input: number | null;
  output: number | null;
  blended: number | null;
  /** Who stated the served price (curated or aggregator); null without data. */
  source: string | null;
  /** When that source observed it (ISO UTC); null without data or when not recorded. */
  observed_at: string | null;
}

export interface PricingSeries {
  ok: true;
  model: string;
  provider: string | null;
  range: DayRange;
  points: PricePoint[];
  summary: {
    first: { date: string; blended: number } | null;
    latest: { date: string; blended: number } | null;
    min_blended: number | null;
    max_blended: number | null;
    delta_pct_blended: number | null;
    changes_detected: number;
    days_with_data: number;
    days_missing: number;
  };
  notes: string[];
}

/** Build the series of `model` over `range` from its model_prices rows (any order). */
export function pricingSeries(input: { model: string; provider: string | null; range: DayRange; rows: readonly PriceRow[] }): PricingSeries {
  const byDay = new Map<string, PriceRow[]>();
  for (const row of input.rows) {
    if (row.input_per_1m === null || row.output_per_1m === null) continue;
    const list = byDay.get(row.date) ?? [];
    list.push(row);
    byDay.set(row.date, list);
  }
  let disagreeDays = 0;
  let provider = input.provider;
  const points = daysOf(input.range).map((date): PricePoint => {
    const rows = byDay.get(date);
    if (!rows || rows.length === 0) return { date, has_data: false, input: null, output: null, blended: null, source: null, observed_at: null };
    const served = [...rows].sort(newestFirst)[0]!;
    if (rows.some((r) => r.input_per_1m !== served.input_per_1m || r.output_per_1m !== served.output_per_1m)) disagreeDays++;
    provider = served.provider;
    return {
      date,
      has_data: true,
      input: served.input_per_1m,
      output: served.output_per_1m,
      blended: blended(served.input_per_1m!, served.output_per_1m!),
      source: served.source,
      observed_at: served.observed_at,
    };
  });
  const data = points.filter((p) => p.has_data);
  let changes = 0;
  for (let i = 1; i < data.length; i++) {
    if (data[i]!.input !== data[i - 1]!.input || data[i]!.output !== data[i - 1]!.output) changes++;
  }
  const first = data[0];
  const latest = data[data.length - 1];
  const blends = data.map((p) => p.blended!);
  const notes: string[] = [];
  if (data.length === 0) notes.push(`no price of ${input.model} was captured between ${input.range.from} and ${input.range.to}: every point has has_data false`);
  else if (data.length < points.length) notes.push(`${points.length - data.length} day(s) without a captured price: has_data false and null figures on those days`);
  if (disagreeDays > 0) notes.push(`on ${disagreeDays} day(s) the sources stated different prices; the newest observation was served (see source and observed_at)`);
  return {
    ok: true,
    model: input.model,
    provider,
    range: input.range,
    points,
    summary: {
      first: first ? { date: first.date, blended: first.blended! } : null,
      latest: latest ? { date: latest.date, blended: latest.blended! } : null,
      min_blended: blends.length > 0 ? Math.min(...blends) : null,
      max_blended: blends.length > 0 ? Math.max(...blends) : null,
      delta_pct_blended: first && latest && first.blended! > 0 ? round(((latest.blended! - first.blended!) / first.blended!) * 100, 2) : null,
      changes_detected: changes,
      days_with_data: data.length,
      days_missing: points.length - data.length,
    },
    notes,
  };
}

/** Newest observation first; a missing observed_at is the oldest; ties: curated before aggregator, then by source name. */
function newestFirst(a: PriceRow, b: PriceRow): number {
  const ta = a.observed_at ? Date.parse(a.observed_at) : -Infinity;
  const tb = b.observed_at ? Date.parse(b.observed_at) : -Infinity;
  if (ta !== tb) return tb - ta;
  if (a.source === "curated" && b.source !== "curated") return -1;
  if (b.source === "curated" && a.source !== "curated") return 1;
  return a.source < b.source ? -1 : a.source > b.source ? 1 : 0;
}
