/**
 * What the provider verdicts read from the warehouse: the reliability window (the 24 hours of probe_samples
 * ending at the newest sample, and the status_samples of the same hours), the last 7 days of status_daily
 * incident figures, and the newest day's benchmark_scores. The answers depend on the day files only, so each
 * is computed once per warehouse version (api/warehouse/per-version.ts) and shared by every request until the
 * files change. Every statement is a constant text with `?` parameters; nothing of the request reaches SQL.
 */
import { addDays } from "../verdicts/history-range.ts";
import { WINDOW_HOURS, type ProbeWindowRow, type ReliabilityInput, type StatusWindowRow } from "../verdicts/provider-reliability.ts";
import { perVersion } from "../warehouse/per-version.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { relationFrom } from "../warehouse/recent.ts";

/** Days of status history the concentration verdict weighs. */
export const INCIDENT_DAYS = 7;

const lastDate = (warehouse: WarehouseReader, table: string): string | null => warehouse.dates(table).at(-1) ?? null;

/**
 * The window's rows in one statement (the sample tables are views over their day files, so each scan opens
 * the files' metadata once): the two UTC days ending on the newest probe day (the newest status day when
 * nothing was probed) are read once, the window ends at their newest probe sample (else status sample), and
 * both tables are aggregated over the 24 h before it. Rows carry a `section`: window, probe or status.
 */
const windowSql = (probes: string, statuses: string) => `WITH p AS MATERIALIZED (
  SELECT ts, provider, ok, total_ms FROM ${probes} WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
s AS MATERIALIZED (
  SELECT ts, provider, status FROM ${statuses} WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)),
w AS MATERIALIZED (SELECT hi, hi - INTERVAL ${WINDOW_HOURS} HOUR AS lo FROM (SELECT coalesce((SELECT max(ts) FROM p), (SELECT max(ts) FROM s)) AS hi))
SELECT 'window' AS section, hi, lo FROM w WHERE hi IS NOT NULL
UNION ALL BY NAME
(SELECT 'probe' AS section, provider, count(*) AS count, count(*) FILTER (WHERE ok) AS ok_count,
  quantile_cont(total_ms, 0.5) FILTER (WHERE ok) AS total_p50,
  quantile_cont(total_ms, 0.95) FILTER (WHERE ok) AS total_p95,
  quantile_cont(total_ms, 0.99) FILTER (WHERE ok) AS total_p99
  FROM p, w WHERE p.ts > w.lo AND p.ts <= w.hi GROUP BY provider)
UNION ALL BY NAME
(SELECT 'status' AS section, provider, count(*) AS samples,
  count(*) FILTER (WHERE status IN ('operational', 'degraded', 'down')) AS known,
  count(*) FILTER (WHERE status IN ('operational', 'degraded')) AS up,
  arg_max(status, ts) AS current_status
  FROM s, w WHERE s.ts > w.lo AND s.ts <= w.hi GROUP BY provider)
ORDER BY section, provider`;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The reliability window's probe and status rows (once per warehouse version). */
export function readReliabilityWindow(warehouse: WarehouseReader): Promise<ReliabilityInput> {
  return perVersion(warehouse, "provider-reliability.window", async () => {
    const anchor = lastDate(warehouse, "probe_samples") ?? lastDate(warehouse, "status_samples");
    if (anchor === null) return { window: null, probes: [], statuses: [] };
    const days = [addDays(anchor, -1), anchor];
    // Both relations are the tables' recent copies when those hold the two days (the usual case).
    const sql = windowSql(relationFrom(warehouse, "probe_samples", days[0]!), relationFrom(warehouse, "status_samples", days[0]!));
    const rows = await warehouse.query(sql, [...days, ...days]);
    const bounds = rows.find((r) => r["section"] === "window");
    if (!bounds) return { window: null, probes: [], statuses: [] };
    const probes: ProbeWindowRow[] = rows
      .filter((r) => r["section"] === "probe")
      .map((r) => ({
        provider: String(r["provider"]),
        count: Number(r["count"]),
        ok_count: Number(r["ok_count"]),
        total_p50: num(r["total_p50"]),
        total_p95: num(r["total_p95"]),
        total_p99: num(r["total_p99"]),
      }));
    const statuses: StatusWindowRow[] = rows
      .filter((r) => r["section"] === "status")
      .map((r) => ({ provider: String(r["provider"]), samples: Number(r["samples"]), known: Number(r["known"]), up: Number(r["up"]), current_status: String(r["current_status"]) }));
    const iso = (v: unknown) => new Date(String(v)).toISOString();
    return { window: { from: iso(bounds["lo"]), to: iso(bounds["hi"]) }, probes, statuses };
  });
}

/** Status-page incident figures of one provider over the last {@link INCIDENT_DAYS} days. */
export interface IncidentHistoryRow {
  provider: string;
  incident_hours: number;
  days_with_incidents: number;
}

const INCIDENTS = `SELECT provider, sum(incident_seconds) / 3600.0 AS incident_hours, count(*) FILTER (WHERE incident_seconds > 0) AS days_with_incidents
  FROM status_daily WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE) GROUP BY provider ORDER BY provider`;

/** The last {@link INCIDENT_DAYS} days of status_daily up to its newest day (once per warehouse version). */
export function readIncidentHistory(warehouse: WarehouseReader): Promise<IncidentHistoryRow[]> {
  return perVersion(warehouse, "provider-reliability.incidents", async () => {
    const to = lastDate(warehouse, "status_samples");
    if (to === null) return [];
    const rows = await warehouse.query(INCIDENTS, [addDays(to, -(INCIDENT_DAYS - 1)), to]);
    return rows.map((r) => ({ provider: String(r["provider"]), incident_hours: Number(r["incident_hours"]), days_with_incidents: Number(r["days_with_incidents"]) }));
  });
}

const scoresSql = (relation: string) => `SELECT model_id, benchmark, score FROM ${relation} WHERE date = CAST(? AS DATE) ORDER BY model_id, benchmark`;

/** model id → benchmark → score, as the newest day of benchmark_scores states them (once per warehouse version). */
export function readLatestScores(warehouse: WarehouseReader): Promise<Map<string, Record<string, number>>> {
  return perVersion(warehouse, "provider-profile.scores", async () => {
    const out = new Map<string, Record<string, number>>();
    const day = lastDate(warehouse, "benchmark_scores");
    if (day === null) return out;
    for (const r of await warehouse.query(scoresSql(relationFrom(warehouse, "benchmark_scores", day)), [day])) {
      const id = String(r["model_id"]);
      const scores = out.get(id) ?? {};
      scores[String(r["benchmark"])] = Number(r["score"]);
      out.set(id, scores);
    }
    return out;
  });
}
