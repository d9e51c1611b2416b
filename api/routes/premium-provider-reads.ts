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

/** Days of status history the concentration verdict weighs. */
export const INCIDENT_DAYS = 7;

const lastDate = (warehouse: WarehouseReader, table: string): string | null => warehouse.dates(table).at(-1) ?? null;

const NEWEST_TS = {
  probe_samples: "SELECT max(ts) AS hi FROM probe_samples WHERE date = CAST(? AS DATE)",
  status_samples: "SELECT max(ts) AS hi FROM status_samples WHERE date = CAST(? AS DATE)",
} as const;

const PROBE_WINDOW = `SELECT provider, count(*) AS count, count(*) FILTER (WHERE ok) AS ok_count,
  quantile_cont(total_ms, 0.5) FILTER (WHERE ok) AS total_p50,
  quantile_cont(total_ms, 0.95) FILTER (WHERE ok) AS total_p95,
  quantile_cont(total_ms, 0.99) FILTER (WHERE ok) AS total_p99
  FROM probe_samples
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE) AND ts > CAST(? AS TIMESTAMPTZ) AND ts <= CAST(? AS TIMESTAMPTZ)
  GROUP BY provider ORDER BY provider`;

const STATUS_WINDOW = `SELECT provider, count(*) AS samples,
  count(*) FILTER (WHERE status IN ('operational', 'degraded', 'down')) AS known,
  count(*) FILTER (WHERE status IN ('operational', 'degraded')) AS up,
  arg_max(status, ts) AS current_status
  FROM status_samples
  WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE) AND ts > CAST(? AS TIMESTAMPTZ) AND ts <= CAST(? AS TIMESTAMPTZ)
  GROUP BY provider ORDER BY provider`;

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The window's end: the newest probe sample, else the newest status sample; null when the warehouse holds neither. */
async function windowEnd(warehouse: WarehouseReader): Promise<string | null> {
  for (const table of ["probe_samples", "status_samples"] as const) {
    const day = lastDate(warehouse, table);
    if (day === null) continue;
    const [row] = await warehouse.query(NEWEST_TS[table], [day]);
    if (row?.["hi"] != null) return new Date(String(row["hi"])).toISOString();
  }
  return null;
}

/** The reliability window's probe and status rows (once per warehouse version). */
export function readReliabilityWindow(warehouse: WarehouseReader): Promise<ReliabilityInput> {
  return perVersion(warehouse, "provider-reliability.window", async () => {
    const to = await windowEnd(warehouse);
    if (to === null) return { window: null, probes: [], statuses: [] };
    const from = new Date(Date.parse(to) - WINDOW_HOURS * 3_600_000).toISOString();
    const params = [from.slice(0, 10), to.slice(0, 10), from, to];
    const [probeRows, statusRows] = await Promise.all([warehouse.query(PROBE_WINDOW, params), warehouse.query(STATUS_WINDOW, params)]);
    const probes: ProbeWindowRow[] = probeRows.map((r) => ({
      provider: String(r["provider"]),
      count: Number(r["count"]),
      ok_count: Number(r["ok_count"]),
      total_p50: num(r["total_p50"]),
      total_p95: num(r["total_p95"]),
      total_p99: num(r["total_p99"]),
    }));
    const statuses: StatusWindowRow[] = statusRows.map((r) => ({
      provider: String(r["provider"]),
      samples: Number(r["samples"]),
      known: Number(r["known"]),
      up: Number(r["up"]),
      current_status: String(r["current_status"]),
    }));
    return { window: { from, to }, probes, statuses };
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

const SCORES = "SELECT model_id, benchmark, score FROM benchmark_scores WHERE date = CAST(? AS DATE) ORDER BY model_id, benchmark";

/** model id → benchmark → score, as the newest day of benchmark_scores states them (once per warehouse version). */
export function readLatestScores(warehouse: WarehouseReader): Promise<Map<string, Record<string, number>>> {
  return perVersion(warehouse, "provider-profile.scores", async () => {
    const out = new Map<string, Record<string, number>>();
    const day = lastDate(warehouse, "benchmark_scores");
    if (day === null) return out;
    for (const r of await warehouse.query(SCORES, [day])) {
      const id = String(r["model_id"]);
      const scores = out.get(id) ?? {};
      scores[String(r["benchmark"])] = Number(r["score"]);
      out.set(id, scores);
    }
    return out;
  });
}
