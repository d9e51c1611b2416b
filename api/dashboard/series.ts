/**
 * What the dashboard charts read from the warehouse, as aggregates only: per provider its last 14 days of
 * status-page uptime and incident hours (status_daily), the 3:1 blended price of the six models with the most
 * price days in the last 90 days (model_prices; the newest observation per model and day, curated on a tie),
 * and the cheapest on-demand median per GPU-hour of the five GPUs with the most offers (gpu_prices).
 */
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { addDays } from "../verdicts/history-range.ts";
import { blended } from "../verdicts/price.ts";
import { round } from "../verdicts/round.ts";

/** Days of the provider timelines and of the price charts. */
export const TIMELINE_DAYS = 14;
export const PRICE_DAYS = 90;
/** Series per chart. */
export const PRICE_MODELS = 6;
export const GPU_SERIES = 5;

/** One provider's daily timeline. */
export interface ProviderTimeline {
  provider: string;
  days: { date: string; uptime_pct: number | null; incident_hours: number }[];
}

/** A chart: the dates (x) and one line per subject, null where that day has no value. */
export interface Chart {
  dates: string[];
  series: { name: string; values: (number | null)[] }[];
}

const newest = (reader: WarehouseReader, table: string): string | null => reader.dates(table).at(-1) ?? null;

const TIMELINE_SQL = `SELECT provider, CAST(date AS VARCHAR) AS date, sum(known) AS known, sum(up) AS up, sum(incident_seconds) AS incident_seconds
  FROM status_daily WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE) GROUP BY provider, date ORDER BY provider, date`;

/** Per provider, its daily uptime % (operational or degraded over known samples) and incident hours. */
export async function providerTimelines(reader: WarehouseReader): Promise<ProviderTimeline[]> {
  const to = newest(reader, "status_samples");
  if (!to) return [];
  const rows = await reader.query(TIMELINE_SQL, [addDays(to, -(TIMELINE_DAYS - 1)), to]);
  const out = new Map<string, ProviderTimeline>();
  for (const r of rows) {
    const provider = String(r["provider"]);
    const known = Number(r["known"]);
    const entry = out.get(provider) ?? { provider, days: [] };
    entry.days.push({
      date: String(r["date"]),
      uptime_pct: known > 0 ? round((100 * Number(r["up"])) / known, 2) : null,
      incident_hours: round(Number(r["incident_seconds"]) / 3600, 2),
    });
    out.set(provider, entry);
  }
  return [...out.values()];
}

const PRICES_SQL = `WITH w AS (SELECT * FROM model_prices WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)
    AND input_per_1m IS NOT NULL AND output_per_1m IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY model_id, date ORDER BY observed_at DESC NULLS LAST, CASE source WHEN 'curated' THEN 0 ELSE 1 END) = 1),
  top AS (SELECT model_id FROM w GROUP BY model_id ORDER BY count(*) DESC, model_id LIMIT ${PRICE_MODELS})
  SELECT w.model_id AS name, CAST(w.date AS VARCHAR) AS date, input_per_1m, output_per_1m
  FROM w JOIN top USING (model_id) ORDER BY name, date`;

const GPU_SQL = `WITH w AS (SELECT * FROM gpu_prices WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE) AND type = 'on_demand'),
  top AS (SELECT gpu FROM w GROUP BY gpu ORDER BY sum(offers) DESC, gpu LIMIT ${GPU_SERIES})
  SELECT w.gpu AS name, CAST(w.date AS VARCHAR) AS date, min(median_usd) AS value
  FROM w JOIN top USING (gpu) GROUP BY w.gpu, w.date ORDER BY name, date`;

/**
 * A chart of `sql`'s (name, date, …) rows over the PRICE_DAYS days ending with the table's newest day, each row's
 * value taken by `valueOf` (rounded as the API's answers round theirs).
 */
async function chartOf(reader: WarehouseReader, table: string, sql: string, valueOf: (row: Record<string, unknown>) => number): Promise<Chart> {
  const to = newest(reader, table);
  if (!to) return { dates: [], series: [] };
  const rows = await reader.query(sql, [addDays(to, -(PRICE_DAYS - 1)), to]);
  const dates = [...new Set(rows.map((r) => String(r["date"])))].sort();
  const index = new Map(dates.map((d, i) => [d, i]));
  const series = new Map<string, (number | null)[]>();
  for (const r of rows) {
    const name = String(r["name"]);
    const values = series.get(name) ?? dates.map(() => null);
    values[index.get(String(r["date"]))!] = valueOf(r);
    series.set(name, values);
  }
  return { dates, series: [...series].map(([name, values]) => ({ name, values })) };
}

/** The model price chart. */
export const modelPriceChart = (reader: WarehouseReader): Promise<Chart> =>
  chartOf(reader, "model_prices", PRICES_SQL, (r) => blended(Number(r["input_per_1m"]), Number(r["output_per_1m"])));
/** The GPU price chart. */
export const gpuPriceChart = (reader: WarehouseReader): Promise<Chart> => chartOf(reader, "gpu_prices", GPU_SQL, (r) => round(Number(r["value"]), 4));
