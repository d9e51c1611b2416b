/**
 * A small warehouse for the provider verdict tests, for the real writer (pipelines/lib/warehouse/write.ts, which
 * the tests call): two days of probe samples (one of them older than the 24 h window) and status samples, and
 * benchmark scores on two days.
 */
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";

type Row = Record<string, string | number | boolean | null>;
const batch = (table: keyof typeof WAREHOUSE_TABLES, rows: Row[]) => ({ table, key: [...WAREHOUSE_TABLES[table].key], rows });

/** The newest probe sample of the fixture: the reliability window ends here. */
export const WINDOW_END = "2026-03-02T06:00:00.000Z";

const probe = (ts: string, provider: string, ok: boolean, total: number | null): Row => ({
  ts, date: ts.slice(0, 10), provider, url: `https://api.${provider}.test/`, status: ok ? 200 : total === null ? null : 503, ok, ttfb_ms: total === null ? null : total / 2, total_ms: total,
});
const status = (ts: string, provider: string, s: string): Row => ({ ts, date: ts.slice(0, 10), provider, status: s, components_total: 2, components_degraded: s === "degraded" ? 1 : 0, components_down: s === "down" ? 1 : 0 });

/**
 * Providers: alpha (fast, tight, always up), beta (up, loose tail), gamma (half its probes fail), delta (every probe
 * fails), openai (status page only, down now); a sample of alpha 30 h before the window's end lies outside it.
 */
export function providerWarehouseDays(options: { probes?: boolean } = {}): { date: string; batches: ReturnType<typeof batch>[] }[] {
  const day1: Row[] = [probe("2026-03-01T00:00:00.000Z", "alpha", false, null)]; // outside the window: would lower alpha's ok_pct
  const day2: Row[] = [];
  for (let h = 0; h < 6; h++) {
    const ts = `2026-03-02T0${h + 1}:00:00.000Z`;
    day2.push(probe(ts, "alpha", true, 100 + h), probe(ts, "beta", true, h < 5 ? 100 : 1000), probe(ts, "gamma", h % 2 === 0, 200), probe(ts, "delta", false, null));
  }
  for (let h = 10; h < 24; h++) day1.push(probe(`2026-03-01T${h}:00:00.000Z`, "gamma", true, 200));
  const statuses1 = ["alpha", "beta", "gamma", "openai"].map((p) => status("2026-03-01T12:00:00.000Z", p, p === "gamma" ? "degraded" : "operational"));
  const statuses2 = [
    status("2026-03-02T05:00:00.000Z", "alpha", "operational"),
    status("2026-03-02T05:00:00.000Z", "beta", "operational"),
    status("2026-03-02T05:00:00.000Z", "gamma", "degraded"),
    status("2026-03-02T04:00:00.000Z", "openai", "operational"),
    status("2026-03-02T05:00:00.000Z", "openai", "down"),
  ];
  const scores = (date: string, score: number): Row[] => [{ date, benchmark: "gpqa", model_id: "claude-3.5-sonnet", score, source: "s", reported_date: "2026-01-01" }];
  return [
    { date: "2026-03-01", batches: [...(options.probes === false ? [] : [batch("probe_samples", day1)]), batch("status_samples", statuses1), batch("benchmark_scores", scores("2026-03-01", 50))] },
    { date: "2026-03-02", batches: [...(options.probes === false ? [] : [batch("probe_samples", day2)]), batch("status_samples", statuses2), batch("benchmark_scores", scores("2026-03-02", 61.5))] },
  ];
}
