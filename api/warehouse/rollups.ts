/**
 * Per-day rollups the reader keeps in memory beside the tables: computed from each day file when it appears or
 * changes, so a series over 90 days reads 90 × subjects small rows instead of every raw sample (a year of
 * status samples is ~5 million rows). Each rollup is one SELECT over one or more whole days of its source
 * table, grouped by date and subject; the reader replaces a day's rollup rows whenever that day's file changes.
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

/** Every rollup, by name. */
export const ROLLUPS: readonly Rollup[] = [
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
      "Status-page samples per UTC day and provider: samples, samples with a known status, samples not down, and seconds shown degraded or down (each sample stands for the time until the provider's next sample that day, at most 1 hour, never past midnight).",
    columns: [
      ["date", "DATE"],
      ["provider", "VARCHAR"],
      ["samples", "BIGINT"],
      ["known", "BIGINT"],
      ["up", "BIGINT"],
      ["incident_seconds", "DOUBLE"],
    ],
    // The day's end comes from the DATE itself (days since the epoch), so no session time zone is involved.
    select: (source) => `SELECT date, provider, count(*) AS samples,
      count(*) FILTER (WHERE status IN ('operational', 'degraded', 'down')) AS known,
      count(*) FILTER (WHERE status IN ('operational', 'degraded')) AS up,
      coalesce(sum(span) FILTER (WHERE status IN ('degraded', 'down')), 0) AS incident_seconds
      FROM (
        SELECT date, provider, status, greatest(0, least(
          coalesce(epoch(lead(ts) OVER (PARTITION BY provider, date ORDER BY ts)) - epoch(ts), 3600), 3600,
          (CAST(date - DATE '1970-01-01' AS BIGINT) + 1) * 86400 - epoch(ts))) AS span
        FROM ${source}
      ) GROUP BY date, provider`,
  },
];
