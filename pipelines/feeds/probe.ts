/**
 * The `probe` snapshot: latency of each provider's API edge (pipelines/catalog/probe-targets.ts), measured
 * by this service every 15 minutes through the shared client's `timed()` — time to first byte (response
 * headers) and total (end of body), 3 samples per target in a row, targets side by side.
 *
 * - The snapshot is a rolling window: the previous snapshot's samples plus this run's, minus those older than
 *   24 hours (per the run's clock), with a per-provider summary (up share, TTFB p50/p95, total p50/p95/p99)
 *   over what is left. It legitimately changes on every run (new samples), unlike most snapshots.
 * - Up = any HTTP answer below 500 read to its end (401/403 to a keyless request included); see
 *   pipelines/lib/probe/sample.ts. Percentiles cover up samples only.
 * - A provider whose URL or method changed in the catalog starts a fresh window. Providers dropped from the
 *   catalog leave the snapshot.
 * - The run fails only when no request of the run got any HTTP answer (our network, not every provider, is
 *   then the likely cause). In replay the requests go to the local replay server: the timings are the local
 *   machine's, and the runner labels the snapshot `replay`.
 * - Warehouse: one `probe_samples` row per sample of this run.
 */
import { type ProbeTargetEntry, probeTargets } from "../catalog/probe-targets.ts";
import { runProbes } from "../lib/probe/prober.ts";
import { summarizeSamples, trimWindow } from "../lib/probe/window.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { type ProbeProvider, type ProbeSample, probeSnapshot, type ProbeSnapshot, probeSnapshotType, WINDOW_HOURS } from "../contract/snapshots/probe.ts";

export { probeProvider, type ProbeProvider, probeSnapshot, type ProbeSnapshot } from "../contract/snapshots/probe.ts";

/** Requests per target per run. */
export const SAMPLES_PER_RUN = 3;
/** Per-request timeout of a probe, in ms. */
export const PROBE_TIMEOUT_MS = 10_000;

/** No probe got an HTTP answer: nothing trustworthy to add. */
export class ProbeFeedError extends Error {
  override name = "ProbeFeedError";
}

export interface RunProbeOptions {
  targets?: readonly ProbeTargetEntry[];
  samplesPerTarget?: number;
  timeoutMs?: number;
  /** Milliseconds elapsed since the run began (default performance.now deltas); sample times are ctx.now plus this. */
  elapsed?: () => number;
}

/** The previous snapshot's samples per provider, when its target is unchanged. */
async function previousSamples(ctx: FeedContext, targets: readonly ProbeTargetEntry[]): Promise<Map<string, ProbeSample[]>> {
  const out = new Map<string, ProbeSample[]>();
  const raw = await ctx.previous<unknown>("probe");
  if (raw === undefined) return out;
  const parsed = probeSnapshot.safeParse(raw);
  if (!parsed.success) {
    ctx.notice("probe: the previous snapshot does not match the schema; starting a fresh window");
    return out;
  }
  for (const p of parsed.data.providers) {
    const target = targets.find((t) => t.provider === p.provider);
    if (!target) {
      ctx.notice(`probe: ${p.provider} is no longer in the catalog; its samples are dropped`);
    } else if (target.url !== p.url || target.method !== p.method) {
      ctx.notice(`probe: ${p.provider} target changed from ${p.method} ${p.url} to ${target.method} ${target.url}; starting a fresh window`);
    } else {
      out.set(p.provider, p.samples);
    }
  }
  return out;
}

/** `probe_samples` rows of one target's samples. */
export function probeSampleRows(target: { provider: string; url: string }, samples: ProbeProvider["samples"]): WarehouseBatch["rows"] {
  return samples.map((s) => ({ ts: s.ts, date: s.ts.slice(0, 10), provider: target.provider, url: target.url, status: s.status, ok: s.ok, ttfb_ms: s.ttfb_ms, total_ms: s.total_ms }));
}

/** The `probe_samples` batch of one UTC day from a snapshot body: the window's samples taken that day. */
export function probeHistoryRows(snapshot: ProbeSnapshot, date: string): WarehouseBatch {
  const rows = snapshot.providers.flatMap((p) => probeSampleRows(p, p.samples.filter((s) => s.ts.slice(0, 10) === date)));
  return { table: "probe_samples", key: ["ts", "provider", "url"], rows };
}

/** Probe the targets and build the windowed snapshot and this run's warehouse rows. */
export async function runProbe(ctx: FeedContext, options: RunProbeOptions = {}): Promise<FeedOutput<ProbeSnapshot>> {
  const targets = options.targets ?? probeTargets;
  const samplesPerTarget = options.samplesPerTarget ?? SAMPLES_PER_RUN;
  const previous = await previousSamples(ctx, targets);
  const t0 = performance.now();
  const elapsed = options.elapsed ?? (() => performance.now() - t0);
  const base = ctx.now.getTime();

  const results = await runProbes(ctx.http, targets, {
    samplesPerTarget,
    timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS,
    clock: () => base + elapsed(),
  });

  const answered = results.some((r) => r.samples.some((s) => s.status !== null));
  if (results.length > 0 && !answered) {
    const first = results[0]?.samples[0]?.error ?? "none";
    throw new ProbeFeedError(`probe: none of ${results.length} targets answered any request (first error: ${first})`);
  }

  const sources: SourceHealth[] = [];
  const rows: WarehouseBatch["rows"] = [];
  const providers: ProbeProvider[] = [];
  for (const { target, samples } of results) {
    const failed = samples.filter((s) => !s.ok);
    sources.push({
      id: target.provider,
      ok: failed.length < samples.length,
      rows: samples.length,
      ...(failed.length > 0 ? { error: `${failed.length}/${samples.length} samples down (${[...new Set(failed.map((s) => (s.status === null ? s.error : `${s.error} ${s.status}`)))].join(", ")})` } : {}),
    });
    if (failed.length === samples.length) ctx.notice(`probe: ${target.provider} was down in every sample of this run`);
    rows.push(...probeSampleRows(target, samples));
    const window = trimWindow([...(previous.get(target.provider) ?? []), ...samples], ctx.now);
    providers.push({ provider: target.provider, name: target.name, url: target.url, method: target.method, summary: summarizeSamples(window), samples: window });
  }
  providers.sort((a, b) => (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));

  const data = probeSnapshot.parse({ window_hours: WINDOW_HOURS, samples_per_run: samplesPerTarget, providers });
  return {
    data,
    rows: providers.reduce((n, p) => n + p.samples.length, 0),
    sources,
    warehouse: [{ table: "probe_samples", key: ["ts", "provider", "url"], rows }],
  };
}

/** The latency probe feed (API: GET /api/probe/latest). */
export const probeFeed: Feed<ProbeSnapshot> = {
  ...probeSnapshotType,
  urls: () => probeTargets.map((t) => t.url),
  historyRows: (data, at) => [probeHistoryRows(data, at.date)],
  run: (ctx) => runProbe(ctx),
};
