/**
 * Per-day rollups the reader keeps in memory beside the tables: computed from each day file when it appears or
 * changes, so a series over 90 days reads 90 × subjects small rows instead of every raw sample (a year of
 * status samples is ~5 million rows). Each rollup is one SELECT over one or more whole days of its source
 * table, grouped by date and subject; the reader replaces a day's rollup rows whenever that day's file changes.
 * Pair rollups compare each captured day of a held table with its previous captured day (the aggregator's
 * added / removed / repriced models, the model hub's entries, exits and deltas), so a 90-day series reads the
 * day's changes instead of joining 90 days of full listings on every call.
 */
import type { WarehouseColumnType } from "../../pipelines/contract/warehouse-tables.ts";

/** One rollup: a table the reader fills from whole days of `table`. */
export interface Rollup {
  name: string;
  /** The declared warehouse table it is computed from. */
  table: string;
  description: string;
  columns: readonly [name: string, type: WarehouseColumnType][];
  /** The SELECT over `source` (a relation with the table's declared columns, whole days only). */
  select(source: string): string;
}

/**
 * A rollup over pairs of captured days of a held table. When days of the table change or go, the reader asks
 * `affected` which days' rows must be recomputed (the dirty days and the captured days that compared with
 * them), deletes those days' rows and inserts `select` over them, inside the same transaction as the table's
 * own update.
 */
export interface PairRollup {
  name: string;
  /** The held table (a declared warehouse table with a date column) it compares. */
  table: string;
  description: string;
  columns: readonly [name: string, type: WarehouseColumnType][];
  /** SELECT of the days (column `date`) to recompute, given `table` (already updated) and `dirty` (a relation of dates that changed or went). */
  affected(table: string, dirty: string): string;
  /** SELECT of the rollup rows of the captured days in `days` (a relation with a `date` column), each compared with its previous captured day. */
  select(table: string, days: string): string;
}

/** Every rollup, by name. */
export const ROLLUPS: readonly Rollup[] = [
  {
    name: "aggregator_day",
    table: "aggregator_models_daily",
    description: "The aggregator's catalog per captured day: models listed, lowest non-zero prices, free models, namespaces and the namespace listing the most models (ties: alphabetical first).",
    columns: [
      ["date", "DATE"],
      ["total_models", "BIGINT"],
      ["cheapest_input", "DOUBLE"],
      ["cheapest_output", "DOUBLE"],
      ["free_tier_count", "BIGINT"],
      ["namespace_count", "BIGINT"],
      ["top_namespace", "VARCHAR"],
    ],
    select: (source) => `WITH m AS (SELECT date, namespace, input_per_1m, output_per_1m FROM ${source}),
      ns AS (SELECT date, namespace, count(*) AS n FROM m GROUP BY date, namespace),
      top AS (SELECT date, first(namespace ORDER BY n DESC, namespace) AS top_namespace FROM ns GROUP BY date)
      SELECT m.date, count(*) AS total_models,
        min(input_per_1m) FILTER (WHERE input_per_1m > 0) AS cheapest_input,
        min(output_per_1m) FILTER (WHERE output_per_1m > 0) AS cheapest_output,
        count(*) FILTER (WHERE input_per_1m = 0 AND output_per_1m = 0) AS free_tier_count,
        count(DISTINCT namespace) AS namespace_count, any_value(top.top_namespace) AS top_namespace
      FROM m JOIN top ON top.date = m.date GROUP BY m.date`,
  },
  {
    name: "hub_day",
    table: "modelhub_daily",
    description: "The model hub's listings per captured day: entries in each listing (model, dataset, space) that day.",
    columns: [
      ["date", "DATE"],
      ["kind", "VARCHAR"],
      ["count", "BIGINT"],
    ],
    select: (source) => `SELECT date, kind, count(*) AS count FROM ${source} GROUP BY date, kind`,
  },
  {
    name: "probe_daily",
    table: "probe_samples",
    description: "Probe samples per UTC day and provider: count, answered-as-expected count, and continuous percentiles of the samples that got an answer (ms).",
    columns: [
      ["date", "DATE"],
      ["provider", "VARCHAR"],
      ["count", "BIGINT"],
      ["ok_count", "BIGINT"],
      ["ttfb_p50", "DOUBLE"],
      ["ttfb_p95", "DOUBLE"],
      ["ttfb_p99", "DOUBLE"],
      ["total_p50", "DOUBLE"],
      ["total_p95", "DOUBLE"],
      ["total_p99", "DOUBLE"],
    ],
    select: (source) => `SELECT date, provider, count(*) AS count, count(*) FILTER (WHERE ok) AS ok_count,
      quantile_cont(ttfb_ms, 0.5) AS ttfb_p50, quantile_cont(ttfb_ms, 0.95) AS ttfb_p95, quantile_cont(ttfb_ms, 0.99) AS ttfb_p99,
      quantile_cont(total_ms, 0.5) AS total_p50, quantile_cont(total_ms, 0.95) AS total_p95, quantile_cont(total_ms, 0.99) AS total_p99
      FROM ${source} GROUP BY date, provider`,
  },
  {
    name: "status_daily",
    table: "status_samples",
    description:
      "Status-page samples per UTC day and provider: samples, samples with a known status, samples not down, and seconds shown degraded or down (each sample stands for the time until the provider's next sample that day, at most 1 hour, never past midnight; a provider's last sample of the day, until the day's last capture of any provider plus the provider's median interval that day, or all providers' when it has one sample, or an hour when the day has one capture, so the newest sample does not count time that has not come yet).",
    columns: [
      ["date", "DATE"],
      ["provider", "VARCHAR"],
      ["samples", "BIGINT"],
      ["known", "BIGINT"],
      ["up", "BIGINT"],
      ["incident_seconds", "DOUBLE"],
    ],
    // The day's end comes from the DATE itself (days since the epoch), so no session time zone is involved.
    // A provider's last sample of a day has no next one: it stands until the day's last capture of any provider
    // (what the data has seen) plus the provider's median interval that day (the time one sample stands for; all
    // providers' median for a provider with one sample; an hour when the day has one capture), so on the day being
    // captured the newest sample counts about one interval, not an hour of time to come.
    select: (source) => `SELECT date, provider, count(*) AS samples,
      count(*) FILTER (WHERE status IN ('operational', 'degraded', 'down')) AS known,
      count(*) FILTER (WHERE status IN ('operational', 'degraded')) AS up,
      coalesce(sum(span) FILTER (WHERE status IN ('degraded', 'down')), 0) AS incident_seconds
      FROM (
        SELECT date, provider, status, greatest(0, least(
          coalesce(gap, day_last - t + coalesce(median(gap) OVER (PARTITION BY provider, date), median(gap) OVER (PARTITION BY date), 3600), 3600), 3600,
          (CAST(date - DATE '1970-01-01' AS BIGINT) + 1) * 86400 - t)) AS span
        FROM (
          SELECT date, provider, status, epoch(ts) AS t,
            epoch(lead(ts) OVER (PARTITION BY provider, date ORDER BY ts)) - epoch(ts) AS gap,
            epoch(max(ts) OVER (PARTITION BY date)) AS day_last
          FROM ${source}
        )
      ) GROUP BY date, provider`,
  },
];

/** Every pair rollup, by name. */
export const PAIR_ROLLUPS: readonly PairRollup[] = [
  {
    name: "aggregator_changes",
    table: "aggregator_models_daily",
    description:
      "Each captured day of the aggregator's catalog against the previous captured day: models added, removed, and repriced (input or output price differs), each with its rank among that day's changes of its kind (by id) and their count.",
    columns: [
      ["date", "DATE"],
      ["change", "VARCHAR"],
      ["model_id", "VARCHAR"],
      ["rank", "BIGINT"],
      ["n", "BIGINT"],
    ],
    // A day's rows change when the day itself does, or when the captured day before it did (or went).
    affected: (t, dirty) => `SELECT date FROM ${dirty}
      UNION SELECT (SELECT min(t.date) FROM ${t} t WHERE t.date > dirty.date) AS date FROM ${dirty} dirty`,
    select: (t, days) => `WITH d AS MATERIALIZED (
        SELECT cur, (SELECT max(p.date) FROM ${t} p WHERE p.date < cur) AS prev
        FROM (SELECT DISTINCT date AS cur FROM ${t} WHERE date IN (SELECT date FROM ${days}))),
      now_rows AS (SELECT d.cur, m.model_id, m.input_per_1m, m.output_per_1m FROM d JOIN ${t} m ON m.date = d.cur WHERE d.prev IS NOT NULL),
      prev_rows AS (SELECT d.cur, m.model_id, m.input_per_1m, m.output_per_1m FROM d JOIN ${t} m ON m.date = d.prev)
      SELECT *, row_number() OVER (PARTITION BY date, change ORDER BY model_id) AS rank, count(*) OVER (PARTITION BY date, change) AS n FROM (
        SELECT coalesce(a.cur, b.cur) AS date, coalesce(a.model_id, b.model_id) AS model_id,
          CASE WHEN b.model_id IS NULL THEN 'added' WHEN a.model_id IS NULL THEN 'removed' ELSE 'price' END AS change
        FROM now_rows a FULL JOIN prev_rows b ON a.cur = b.cur AND a.model_id = b.model_id
        WHERE a.model_id IS NULL OR b.model_id IS NULL
          OR a.input_per_1m IS DISTINCT FROM b.input_per_1m OR a.output_per_1m IS DISTINCT FROM b.output_per_1m)`,
  },
  {
    name: "hub_moves",
    table: "modelhub_daily",
    description:
      "Each captured day of each model hub listing against that listing's previous captured day: ids that entered, exited or stayed, with the ranking figure (downloads; likes for Spaces), its change for ids on both days, the id's rank among that day's ids of its listing and change (largest rise first, then by id) and their count.",
    columns: [
      ["date", "DATE"],
      ["kind", "VARCHAR"],
      ["change", "VARCHAR"],
      ["id", "VARCHAR"],
      ["value", "BIGINT"],
      ["delta", "BIGINT"],
      ["rank", "BIGINT"],
      ["n", "BIGINT"],
    ],
    // A listing that failed one day has no rows that day, so "the previous captured day" is per listing.
    affected: (t, dirty) => `SELECT date FROM ${dirty}
      UNION SELECT (SELECT min(t.date) FROM ${t} t WHERE t.date > dirty.date AND t.kind = k.kind) AS date
      FROM ${dirty} dirty, (SELECT DISTINCT kind FROM ${t}) k`,
    select: (t, days) => `WITH m AS MATERIALIZED (SELECT date, kind, id, CASE WHEN kind = 'space' THEN likes ELSE downloads END AS value FROM ${t}),
      k AS MATERIALIZED (
        SELECT kind, cur, (SELECT max(p.date) FROM ${t} p WHERE p.kind = c.kind AND p.date < c.cur) AS prev
        FROM (SELECT DISTINCT kind, date AS cur FROM ${t} WHERE date IN (SELECT date FROM ${days})) c),
      now_rows AS (SELECT k.kind, k.cur, m.id, m.value FROM k JOIN m ON m.kind = k.kind AND m.date = k.cur WHERE k.prev IS NOT NULL),
      prev_rows AS (SELECT k.kind, k.cur, m.id, m.value FROM k JOIN m ON m.kind = k.kind AND m.date = k.prev)
      SELECT *, row_number() OVER (PARTITION BY date, kind, change ORDER BY delta DESC NULLS LAST, id) AS rank,
        count(*) OVER (PARTITION BY date, kind, change) AS n FROM (
        SELECT coalesce(a.cur, b.cur) AS date, coalesce(a.kind, b.kind) AS kind, coalesce(a.id, b.id) AS id,
          CASE WHEN b.id IS NULL THEN 'entered' WHEN a.id IS NULL THEN 'exited' ELSE 'kept' END AS change,
          a.value AS value, a.value - b.value AS delta
        FROM now_rows a FULL JOIN prev_rows b ON a.kind = b.kind AND a.cur = b.cur AND a.id = b.id)`,
  },
];

/**
 * A copy of the newest `days` captured days of a table, held in memory ordered by date: the verdicts that read
 * "today" (the newest prices, scores, status and probe samples) scan a few thousand rows instead of a year
 * held in subject order or a view over 365 day files. Named `<table>_recent`, with the table's columns.
 */
export interface RecentCopy {
  name: string;
  table: string;
  days: number;
}

/** Every recent copy (two days: the windows that read them span at most the newest two captured days). */
export const RECENT_COPIES: readonly RecentCopy[] = ["model_prices", "benchmark_scores", "status_samples", "probe_samples", "inference_providers_daily"].map((table) => ({
  name: `${table}_recent`,
  table,
  days: 2,
}));
