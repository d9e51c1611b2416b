/**
 * What the aggregator and model hub series read from the warehouse: per-day figures aggregated in SQL (so a
 * 90-day window of a 500-model catalog comes back as a few hundred rows, not tens of thousands), over the days
 * from the previous captured day before `from` to `to`, one statement per series so the day files are read once
 * (its rows carry a `section` column: day figures, changes, gainers). Every statement is a constant text with `?` parameters;
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

/** The rows of aggregator_models_daily in [lo, to], read once, and each captured day with its previous one. */
const AGGREGATOR_SQL = `WITH m AS MATERIALIZED (
  SELECT date, model_id, namespace, input_per_1m, output_per_1m FROM aggregator_models_daily
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
d AS MATERIALIZED (SELECT date AS cur, lag(date) OVER (ORDER BY date) AS prev FROM (SELECT DISTINCT date FROM m)),
ns AS (SELECT date, namespace, count(*) AS n FROM m GROUP BY date, namespace),
top AS (SELECT date, first(namespace ORDER BY n DESC, namespace) AS top_namespace FROM ns GROUP BY date),
days AS (
  SELECT date, count(*) AS total_models,
    min(input_per_1m) FILTER (WHERE input_per_1m > 0) AS cheapest_input,
    min(output_per_1m) FILTER (WHERE output_per_1m > 0) AS cheapest_output,
    count(*) FILTER (WHERE input_per_1m = 0 AND output_per_1m = 0) AS free_tier_count,
    count(DISTINCT namespace) AS namespace_count
  FROM m GROUP BY date),
now_rows AS (SELECT d.cur, m.model_id, m.input_per_1m, m.output_per_1m FROM d JOIN m ON m.date = d.cur WHERE d.prev IS NOT NULL),
prev_rows AS (SELECT d.cur, m.model_id, m.input_per_1m, m.output_per_1m FROM d JOIN m ON m.date = d.prev),
ch AS (
  SELECT coalesce(a.cur, b.cur) AS date, coalesce(a.model_id, b.model_id) AS model_id,
    CASE WHEN b.model_id IS NULL THEN 'added' WHEN a.model_id IS NULL THEN 'removed' ELSE 'price' END AS change
  FROM now_rows a FULL JOIN prev_rows b ON a.cur = b.cur AND a.model_id = b.model_id
  WHERE a.model_id IS NULL OR b.model_id IS NULL
     OR a.input_per_1m IS DISTINCT FROM b.input_per_1m OR a.output_per_1m IS DISTINCT FROM b.output_per_1m)
SELECT 'day' AS section, days.date, d.prev, total_models, cheapest_input, cheapest_output, free_tier_count, namespace_count, top.top_namespace
FROM days JOIN top ON top.date = days.date JOIN d ON d.cur = days.date
UNION ALL BY NAME
(SELECT 'change' AS section, date, change, model_id, count(*) OVER (PARTITION BY date, change) AS n FROM ch
 QUALIFY row_number() OVER (PARTITION BY date, change ORDER BY model_id) <= ?)
ORDER BY date, section, change, model_id`;

/** Aggregator figures and changes for the window [from, to], in one statement (one pass over the day files). */
export async function readAggregatorSeries(
  warehouse: WarehouseReader,
  from: string,
  to: string,
): Promise<{ days: AggregatorDay[]; changes: AggregatorChange[] }> {
  const lo = priorCapture(warehouse, "aggregator_models_daily", from) ?? from;
  const rows = await warehouse.query(AGGREGATOR_SQL, [lo, to, SAMPLE_SIZE]);
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

/** The rows of modelhub_daily in [lo, to] read once, each with its ranking figure (downloads, or likes for Spaces), compared per listing with its previous captured day. */
const HUB_SQL = `WITH m AS MATERIALIZED (
  SELECT date, kind, id, CASE WHEN kind = 'space' THEN likes ELSE downloads END AS value FROM modelhub_daily
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
k AS MATERIALIZED (SELECT kind, date AS cur, lag(date) OVER (PARTITION BY kind ORDER BY date) AS prev, count(*) AS count FROM m GROUP BY kind, date),
now_rows AS (SELECT k.kind, k.cur, m.id, m.value FROM k JOIN m ON m.kind = k.kind AND m.date = k.cur WHERE k.prev IS NOT NULL),
prev_rows AS (SELECT k.kind, k.cur, m.id, m.value FROM k JOIN m ON m.kind = k.kind AND m.date = k.prev),
j AS MATERIALIZED (
  SELECT coalesce(a.cur, b.cur) AS date, coalesce(a.kind, b.kind) AS kind, coalesce(a.id, b.id) AS id,
    CASE WHEN b.id IS NULL THEN 'entered' WHEN a.id IS NULL THEN 'exited' ELSE 'kept' END AS change,
    a.value AS value, a.value - b.value AS delta
  FROM now_rows a FULL JOIN prev_rows b ON a.kind = b.kind AND a.cur = b.cur AND a.id = b.id)
SELECT 'day' AS section, cur AS date, kind, prev, count FROM k
UNION ALL BY NAME
(SELECT 'move' AS section, date, kind, change, id, value, delta, count(*) OVER (PARTITION BY date, kind, change) AS n FROM j
 QUALIFY row_number() OVER (PARTITION BY date, kind, change ORDER BY delta DESC NULLS LAST, id) <= CASE WHEN change = 'kept' THEN ? ELSE 1 END)
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
  const rows = await warehouse.query(HUB_SQL, [lo, to, TOP_SIZE, TOP_SIZE]);
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
