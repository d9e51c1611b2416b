/**
 * The daily latency and uptime series of one provider (GET /api/premium/history/providers/series), decided from
 * per-day aggregates of the warehouse's probe_samples and status_samples (api/routes/premium-history.ts reads
 * them; the figures are defined here):
 * - count: probe samples that day; ok_pct: share of them that answered as expected; ttfb_* and total_*: the
 *   continuous 50th/95th/99th percentiles of the samples that got an answer, ms.
 * - uptime_pct: share of the day's status samples (status unknown left out) whose status was not down.
 * - incident_hours: time the status page showed degraded or down; each status sample stands for the time until
 *   the provider's next sample, at most 1 hour, within its UTC day.
 * - A day with neither kind of sample has has_data false and every figure null; a day with only one kind has
 *   the other kind's figures null. Never an invented zero.
 */
import { daysOf, type DayRange } from "./history-range.ts";
import { round } from "./round.ts";

/** One day of probe samples, aggregated. */
export interface ProbeDay {
  date: string;
  count: number;
  ok_count: number;
  ttfb_p50: number | null;
  ttfb_p95: number | null;
  ttfb_p99: number | null;
  total_p50: number | null;
  total_p95: number | null;
  total_p99: number | null;
}

/** One day of status samples, aggregated. */
export interface StatusDay {
  date: string;
  samples: number;
  /** Samples whose status is operational, degraded or down. */
  known: number;
  /** Known samples whose status is not down. */
  up: number;
  /** Seconds attributed to degraded or down samples. */
  incident_seconds: number;
}

export interface ProviderPoint {
  date: string;
  has_data: boolean;
  count: number | null;
  ok_pct: number | null;
  uptime_pct: number | null;
  ttfb_p50: number | null;
  ttfb_p95: number | null;
  ttfb_p99: number | null;
  total_p50: number | null;
  total_p95: number | null;
  total_p99: number | null;
  incident_hours: number | null;
  status_samples: number | null;
}

export interface ProviderHistory {
  ok: true;
  provider: string;
  range: DayRange;
  points: ProviderPoint[];
  summary: {
    overall_uptime_pct: number | null;
    overall_ok_pct: number | null;
    days_with_data: number;
    days_with_incidents: number;
    days_missing: number;
  };
  notes: string[];
}

const pct = (part: number, whole: number): number | null => (whole > 0 ? round((part / whole) * 100, 2) : null);
const ms = (x: number | null): number | null => (x === null ? null : round(x, 1));

/** Build the series of `provider` over `range` from its daily probe and status aggregates. */
export function providerHistory(input: { provider: string; range: DayRange; probes: readonly ProbeDay[]; statuses: readonly StatusDay[] }): ProviderHistory {
  const probes = new Map(input.probes.filter((p) => p.count > 0).map((p) => [p.date, p]));
  const statuses = new Map(input.statuses.filter((s) => s.samples > 0).map((s) => [s.date, s]));
  const points = daysOf(input.range).map((date): ProviderPoint => {
    const p = probes.get(date);
    const s = statuses.get(date);
    return {
      date,
      has_data: p !== undefined || s !== undefined,
      count: p ? p.count : null,
      ok_pct: p ? pct(p.ok_count, p.count) : null,
      uptime_pct: s ? pct(s.up, s.known) : null,
      ttfb_p50: ms(p?.ttfb_p50 ?? null),
      ttfb_p95: ms(p?.ttfb_p95 ?? null),
      ttfb_p99: ms(p?.ttfb_p99 ?? null),
      total_p50: ms(p?.total_p50 ?? null),
      total_p95: ms(p?.total_p95 ?? null),
      total_p99: ms(p?.total_p99 ?? null),
      incident_hours: s ? round(s.incident_seconds / 3600, 2) : null,
      status_samples: s ? s.samples : null,
    };
  });
  const inRange = (date: string) => date >= input.range.from && date <= input.range.to;
  const statusDays = [...statuses.values()].filter((s) => inRange(s.date));
  const probeDays = [...probes.values()].filter((p) => inRange(p.date));
  const known = statusDays.reduce((n, s) => n + s.known, 0);
  const up = statusDays.reduce((n, s) => n + s.up, 0);
  const count = probeDays.reduce((n, p) => n + p.count, 0);
  const okCount = probeDays.reduce((n, p) => n + p.ok_count, 0);
  const withData = points.filter((p) => p.has_data).length;
  const notes: string[] = [];
  if (withData === 0) notes.push(`no probe or status sample of ${input.provider} was captured between ${input.range.from} and ${input.range.to}`);
  else if (withData < points.length) notes.push(`${points.length - withData} day(s) without any sample: has_data false and null figures on those days`);
  const probeOnly = points.filter((p) => p.count !== null && p.status_samples === null).length;
  const statusOnly = points.filter((p) => p.count === null && p.status_samples !== null).length;
  if (probeOnly > 0) notes.push(`${probeOnly} day(s) with probe samples but no status sample: uptime_pct and incident_hours null on those days`);
  if (statusOnly > 0) notes.push(`${statusOnly} day(s) with status samples but no probe sample: count, ok_pct and latency figures null on those days`);
  notes.push(
    "latency percentiles are over probe samples that got an answer (ms, time to first byte and total); uptime_pct counts status samples not down among those with a known status; incident_hours sums the time the status page showed degraded or down, each sample standing for at most 1 hour until the next",
  );
  return {
    ok: true,
    provider: input.provider,
    range: input.range,
    points,
    summary: {
      overall_uptime_pct: pct(up, known),
      overall_ok_pct: pct(okCount, count),
      days_with_data: withData,
      days_with_incidents: points.filter((p) => (p.incident_hours ?? 0) > 0).length,
      days_missing: points.length - withData,
    },
    notes,
  };
}
