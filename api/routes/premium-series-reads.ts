/**
 * What the aggregator and model hub series read from the warehouse: the reader's per-day and day-pair rollups
 * (api/warehouse/rollups.ts), computed when a day file appears or changes, so a 90-day window of a 500-model
 * catalog reads a few hundred small rows; over the days from the previous captured day before `from` to `to`,
 * one statement per series (its rows carry a `section` column: day figures, changes, gainers). Every statement is a constant text with `?` parameters;
 * nothing of the request reaches the SQL but the validated dates and the sample sizes.
 */
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { SAMPLE_SIZE, type AggregatorChange, type AggregatorDay } from "../verdicts/aggregator-series.ts";
import { TOP_SIZE, type HubGainer, type HubKind, type HubKindDay, type HubMove } from "../verdicts/modelhub-velocity.ts";

/** The newest day of `table` with a day file strictly before `from`, or null (the captured day the window's first day compares with). */
export function priorCapture(warehouse: WarehouseReader, table: string, from: string): string | null {
  const dates = warehouse.dates(table);
  let prior: string | null = null;
  for (const d of dates) {
    if (d >= from) break;
    prior = d;
  }
  return prior;
}

/**
 * The window's captured days from the rollup aggregator_day (each with the captured day before it), and the
 * sampled changes of every day after `lo` from the pair rollup aggregator_changes (api/warehouse/rollups.ts):
 * a few hundred small rows, whatever the size of the catalog.
 */
const AGGREGATOR_SQL = `SELECT 'day' AS section, date, lag(date) OVER (ORDER BY date) AS prev, total_models, cheapest_input, cheapest_output,
  free_tier_count, namespace_count, top_namespace
FROM aggregator_day WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)
UNION ALL BY NAME
(SELECT 'change' AS section, date, change, model_id, n FROM aggregator_changes
 WHERE date > CAST(? AS DATE) AND date <= CAST(? AS DATE) AND rank <= ?)
ORDER BY date, section, change, model_id`;

/** Aggregator figures and changes for the window [from, to], in one statement (one pass over the day files). */
export async function readAggregatorSeries(
  warehouse: WarehouseReader,
  from: string,
  to: string,
): Promise<{ days: AggregatorDay[]; changes: AggregatorChange[] }> {
  const lo = priorCapture(warehouse, "aggregator_models_daily", from) ?? from;
  const rows = await warehouse.query(AGGREGATOR_SQL, [lo, to, lo, to, SAMPLE_SIZE]);
  const days: AggregatorDay[] = [];
  const changes: AggregatorChange[] = [];
  for (const r of rows) {
    if (r["section"] === "day") {
      days.push({
        date: String(r["date"]),
        prev: r["prev"] === null ? null : String(r["prev"]),
        total_models: Number(r["total_models"]),
        cheapest_input: r["cheapest_input"] === null ? null : Number(r["cheapest_input"]),
        cheapest_output: r["cheapest_output"] === null ? null : Number(r["cheapest_output"]),
        free_tier_count: Number(r["free_tier_count"]),
        namespace_count: Number(r["namespace_count"]),
        top_namespace: r["top_namespace"] === null ? null : String(r["top_namespace"]),
      });
    } else {
      changes.push({ date: String(r["date"]), change: r["change"] as AggregatorChange["change"], model_id: String(r["model_id"]), n: Number(r["n"]) });
    }
  }
  return { days, changes };
}

/**
 * Each listing's captured days in [lo, to] from the rollup hub_day (with the listing's previous captured day in
 * that window), and the moves of the days that have one from the pair rollup hub_moves: entries and exits
 * (one sample id each, with the count), the top risers among ids on both days, and the window's top gainers.
 */
const HUB_SQL = `WITH k AS MATERIALIZED (SELECT kind, date AS cur, lag(date) OVER (PARTITION BY kind ORDER BY date) AS prev, count FROM hub_day
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
j AS MATERIALIZED (SELECT j.date, j.kind, j.id, j.change, j.value, j.delta, j.rank, j.n FROM hub_moves j JOIN k ON k.cur = j.date AND k.kind = j.kind AND k.prev IS NOT NULL
  WHERE j.date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE))
SELECT 'day' AS section, cur AS date, kind, prev, count FROM k
UNION ALL BY NAME
(SELECT 'move' AS section, date, kind, change, id, value, delta, n FROM j WHERE rank <= CASE WHEN change = 'kept' THEN ? ELSE 1 END)
UNION ALL BY NAME
(SELECT 'gain' AS section, kind, id, arg_max(value, date) AS value, CAST(sum(delta) AS BIGINT) AS delta, count(*) AS n FROM j
 WHERE change = 'kept' AND kind IN ('model', 'dataset') AND delta IS NOT NULL
 GROUP BY kind, id
 QUALIFY row_number() OVER (PARTITION BY kind ORDER BY sum(delta) DESC, id) <= ?)
ORDER BY section, date, kind, change, id`;

/** Model hub listings, moves and window gainers for the window [from, to], in one statement. */
export async function readModelhubVelocity(
  warehouse: WarehouseReader,
  from: string,
  to: string,
): Promise<{ days: HubKindDay[]; moves: HubMove[]; gainers: HubGainer[] }> {
  const lo = priorCapture(warehouse, "modelhub_daily", from) ?? from;
  const rows = await warehouse.query(HUB_SQL, [lo, to, lo, to, TOP_SIZE, TOP_SIZE]);
  const days: HubKindDay[] = [];
  const moves: HubMove[] = [];
  const gainers: HubGainer[] = [];
  const num = (v: unknown) => (v === null ? null : Number(v));
  for (const r of rows) {
    const kind = r["kind"] as HubKind;
    if (r["section"] === "day") days.push({ date: String(r["date"]), kind, prev: r["prev"] === null ? null : String(r["prev"]), count: Number(r["count"]) });
    else if (r["section"] === "move") {
      moves.push({ date: String(r["date"]), kind, change: r["change"] as HubMove["change"], id: String(r["id"]), value: num(r["value"]), delta: num(r["delta"]), n: Number(r["n"]) });
    } else if (kind === "model" || kind === "dataset") {
      gainers.push({ kind, id: String(r["id"]), downloads: Number(r["value"]), download_delta: Number(r["delta"]), days: Number(r["n"]) });
    }
  }
  return { days, moves, gainers };
}
