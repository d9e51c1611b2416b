/**
 * What the aggregator and model hub series read from the warehouse: per-day figures aggregated in SQL (so a
 * 90-day window of a 500-model catalog comes back as a few hundred rows, not tens of thousands), over the days
 * from the previous captured day before `from` to `to`. Every statement is a constant text with `?` parameters;
 * nothing of the request reaches the SQL but the validated dates and the sample sizes.
 */
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { SAMPLE_SIZE, type AggregatorChange, type AggregatorDay } from "../verdicts/aggregator-series.ts";
import { TOP_SIZE, type HubGainer, type HubKindDay, type HubMove } from "../verdicts/modelhub-velocity.ts";

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

/** The rows of aggregator_models_daily in [lo, to]. */
const AGGREGATOR_ROWS = `m AS (
  SELECT date, model_id, namespace, input_per_1m, output_per_1m FROM aggregator_models_daily
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE))`;

const AGGREGATOR_DAYS_SQL = `WITH ${AGGREGATOR_ROWS},
ns AS (SELECT date, namespace, count(*) AS n FROM m GROUP BY date, namespace),
top AS (SELECT date, first(namespace ORDER BY n DESC, namespace) AS top_namespace FROM ns GROUP BY date),
days AS (
  SELECT date, count(*) AS total_models,
    min(input_per_1m) FILTER (WHERE input_per_1m > 0) AS cheapest_input,
    min(output_per_1m) FILTER (WHERE output_per_1m > 0) AS cheapest_output,
    count(*) FILTER (WHERE input_per_1m = 0 AND output_per_1m = 0) AS free_tier_count,
    count(DISTINCT namespace) AS namespace_count
  FROM m GROUP BY date)
SELECT days.date, lag(days.date) OVER (ORDER BY days.date) AS prev, total_models, cheapest_input, cheapest_output,
  free_tier_count, namespace_count, top.top_namespace
FROM days JOIN top ON top.date = days.date
ORDER BY days.date`;

const AGGREGATOR_CHANGES_SQL = `WITH ${AGGREGATOR_ROWS},
d AS (SELECT date AS cur, lag(date) OVER (ORDER BY date) AS prev FROM (SELECT DISTINCT date FROM m)),
now_rows AS (SELECT d.cur, m.model_id, m.input_per_1m, m.output_per_1m FROM d JOIN m ON m.date = d.cur WHERE d.prev IS NOT NULL),
prev_rows AS (SELECT d.cur, m.model_id, m.input_per_1m, m.output_per_1m FROM d JOIN m ON m.date = d.prev),
ch AS (
  SELECT coalesce(a.cur, b.cur) AS date, coalesce(a.model_id, b.model_id) AS model_id,
    CASE WHEN b.model_id IS NULL THEN 'added' WHEN a.model_id IS NULL THEN 'removed' ELSE 'price' END AS change
  FROM now_rows a FULL JOIN prev_rows b ON a.cur = b.cur AND a.model_id = b.model_id
  WHERE a.model_id IS NULL OR b.model_id IS NULL
     OR a.input_per_1m IS DISTINCT FROM b.input_per_1m OR a.output_per_1m IS DISTINCT FROM b.output_per_1m)
SELECT date, change, model_id, count(*) OVER (PARTITION BY date, change) AS n FROM ch
QUALIFY row_number() OVER (PARTITION BY date, change ORDER BY model_id) <= ?
ORDER BY date, change, model_id`;

/** Aggregator figures and changes for the window [from, to]. */
export async function readAggregatorSeries(
  warehouse: WarehouseReader,
  from: string,
  to: string,
): Promise<{ days: AggregatorDay[]; changes: AggregatorChange[] }> {
  const lo = priorCapture(warehouse, "aggregator_models_daily", from) ?? from;
  const [days, changes] = await Promise.all([
    warehouse.query<AggregatorDay & Record<string, string | number | null>>(AGGREGATOR_DAYS_SQL, [lo, to]),
    warehouse.query<AggregatorChange & Record<string, string | number>>(AGGREGATOR_CHANGES_SQL, [lo, to, SAMPLE_SIZE]),
  ]);
  return { days, changes };
}

/** The rows of modelhub_daily in [lo, to], each with its ranking figure (downloads, or likes for Spaces). */
const HUB_ROWS = `m AS (
  SELECT date, kind, id, CASE WHEN kind = 'space' THEN likes ELSE downloads END AS value FROM modelhub_daily
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
d AS (SELECT kind, date AS cur, lag(date) OVER (PARTITION BY kind ORDER BY date) AS prev FROM (SELECT DISTINCT kind, date FROM m)),
now_rows AS (SELECT d.kind, d.cur, m.id, m.value FROM d JOIN m ON m.kind = d.kind AND m.date = d.cur WHERE d.prev IS NOT NULL),
prev_rows AS (SELECT d.kind, d.cur, m.id, m.value FROM d JOIN m ON m.kind = d.kind AND m.date = d.prev),
j AS (
  SELECT coalesce(a.cur, b.cur) AS date, coalesce(a.kind, b.kind) AS kind, coalesce(a.id, b.id) AS id,
    CASE WHEN b.id IS NULL THEN 'entered' WHEN a.id IS NULL THEN 'exited' ELSE 'kept' END AS change,
    a.value AS value, a.value - b.value AS delta
  FROM now_rows a FULL JOIN prev_rows b ON a.kind = b.kind AND a.cur = b.cur AND a.id = b.id)`;

const HUB_DAYS_SQL = `WITH m AS (
  SELECT date, kind FROM modelhub_daily WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
k AS (SELECT date, kind, count(*) AS count FROM m GROUP BY date, kind)
SELECT date, kind, lag(date) OVER (PARTITION BY kind ORDER BY date) AS prev, count FROM k ORDER BY date, kind`;

/** Per day and listing: one row each for entered and exited (carrying the count), and the top kept ids by delta. */
const HUB_MOVES_SQL = `WITH ${HUB_ROWS}
SELECT date, kind, change, id, value, delta, count(*) OVER (PARTITION BY date, kind, change) AS n FROM j
QUALIFY row_number() OVER (PARTITION BY date, kind, change ORDER BY delta DESC NULLS LAST, id) <= CASE WHEN change = 'kept' THEN ? ELSE 1 END
ORDER BY date, kind, change, id`;

const HUB_GAINERS_SQL = `WITH ${HUB_ROWS}
SELECT kind, id, arg_max(value, date) AS downloads, CAST(sum(delta) AS BIGINT) AS download_delta, count(*) AS days FROM j
WHERE change = 'kept' AND kind IN ('model', 'dataset') AND delta IS NOT NULL
GROUP BY kind, id
QUALIFY row_number() OVER (PARTITION BY kind ORDER BY sum(delta) DESC, id) <= ?
ORDER BY kind, download_delta DESC, id`;

/** Model hub listings, moves and window gainers for the window [from, to]. */
export async function readModelhubVelocity(
  warehouse: WarehouseReader,
  from: string,
  to: string,
): Promise<{ days: HubKindDay[]; moves: HubMove[]; gainers: HubGainer[] }> {
  const lo = priorCapture(warehouse, "modelhub_daily", from) ?? from;
  type Row = Record<string, string | number | null>;
  const [days, moves, gainers] = await Promise.all([
    warehouse.query<HubKindDay & Row>(HUB_DAYS_SQL, [lo, to]),
    warehouse.query<HubMove & Row>(HUB_MOVES_SQL, [lo, to, TOP_SIZE]),
    warehouse.query<HubGainer & Row>(HUB_GAINERS_SQL, [lo, to, TOP_SIZE]),
  ]);
  return { days, moves, gainers };
}
