/**
 * The rolling window of the `probe` snapshot: samples older than the window are dropped, the rest are kept
 * in time order (one per timestamp), and each provider is summarized over what is left.
 */
import { percentile } from "./percentile.ts";
import { type ProbeSample, type ProbeSummary, WINDOW_HOURS } from "../../contract/snapshots/probe.ts";

export { probeSummary, type ProbeSummary, WINDOW_HOURS } from "../../contract/snapshots/probe.ts";

/**
 * Keep the samples taken at or after `now - windowHours`, sorted by time; of two samples with one timestamp
 * the later in the input wins (a re-run replaces what it re-measured).
 */
export function trimWindow(samples: readonly ProbeSample[], now: Date, windowHours = WINDOW_HOURS): ProbeSample[] {
  const cutoff = now.getTime() - windowHours * 3_600_000;
  const byTs = new Map<string, ProbeSample>();
  for (const s of samples) {
    const t = Date.parse(s.ts);
    if (Number.isNaN(t) || t < cutoff) continue;
    byTs.set(new Date(t).toISOString(), s);
  }
  return [...byTs.values()].sort((a, b) => Date.parse(a.ts) - Date.parse(b.ts));
}

/** Summarize a provider's samples (any order). */
export function summarizeSamples(samples: readonly ProbeSample[]): ProbeSummary {
  const up = samples.filter((s) => s.ok);
  const ttfb = up.map((s) => s.ttfb_ms).filter((v): v is number => v !== null);
  const total = up.map((s) => s.total_ms);
  let last: number | null = null;
  for (const s of samples) {
    const t = Date.parse(s.ts);
    if (!Number.isNaN(t) && (last === null || t > last)) last = t;
  }
  return {
    samples: samples.length,
    up: up.length,
    ok_pct: samples.length === 0 ? null : Math.round((up.length / samples.length) * 1000) / 10,
    ttfb_p50: percentile(ttfb, 50),
    ttfb_p95: percentile(ttfb, 95),
    total_p50: percentile(total, 50),
    total_p95: percentile(total, 95),
    total_p99: percentile(total, 99),
    last_sample_at: last === null ? null : new Date(last).toISOString(),
  };
}
