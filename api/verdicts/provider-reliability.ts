/**
 * The provider reliability verdict: providers ranked by availability and tail tightness over one window of
 * this service's own probes (and, for providers it does not probe, their status pages), with the most
 * dependable and the riskiest picked among the providers measured on both counts. Pure: rows in, answer out.
 */
import { round } from "./round.ts";

/** Weight of availability in the score. */
export const W_AVAILABILITY = 0.7;
/** Weight of tail tightness (p50 / p95 of total request time) in the score. */
export const W_TAIL = 0.3;
/** Hours of samples the verdict looks at, ending at the newest probe sample. */
export const WINDOW_HOURS = 24;

/** Probe figures of one provider over the window (percentiles over samples that answered as expected). */
export interface ProbeWindowRow {
  provider: string;
  count: number;
  ok_count: number;
  total_p50: number | null;
  total_p95: number | null;
  total_p99: number | null;
}

/** Status-page figures of one provider over the window and its newest status. */
export interface StatusWindowRow {
  provider: string;
  samples: number;
  /** Samples with a known status (operational, degraded or down). */
  known: number;
  /** Samples not down. */
  up: number;
  /** The newest sample's status. */
  current_status: string;
}

/** The window's rows, as the route reads them. */
export interface ReliabilityInput {
  /** The window [from, to) in ISO UTC, ending at the newest probe sample; null when the warehouse holds none. */
  window: { from: string; to: string } | null;
  probes: readonly ProbeWindowRow[];
  statuses: readonly StatusWindowRow[];
}

/** One ranked provider. */
export interface RankedProvider {
  rank: number;
  provider: string;
  ok_pct: number;
  total_p50_ms: number | null;
  total_p95_ms: number | null;
  total_p99_ms: number | null;
  spread_ratio: number | null;
  reliability_score: number;
  measured: boolean;
  note: string | null;
}

/** A pick of the verdict. */
export interface ReliabilityPick {
  provider: string;
  reliability_score: number;
}

/** The answer (the billing wrapper adds billing and receipt). */
export interface ReliabilityVerdict {
  ok: true;
  capturedAt: string | null;
  window_label: string;
  verdict: { most_dependable: ReliabilityPick | null; riskiest: ReliabilityPick | null };
  ranking: RankedProvider[];
  coverage: { providers_ranked: number; fully_measured: number; availability_only: number };
}


/** p50 / p95, at most 1 (1 when p95 is 0: every answer equally fast). */
export function tailTightness(p50: number, p95: number): number {
  return p95 <= 0 ? 1 : Math.min(1, p50 / p95);
}

/** 100 × (W_AVAILABILITY · ok share + W_TAIL · tightness), one decimal. */
export function measuredScore(okPct: number, p50: number, p95: number): number {
  return round(100 * (W_AVAILABILITY * (okPct / 100) + W_TAIL * tailTightness(p50, p95)), 1);
}

function rankOne(probe: ProbeWindowRow | undefined, status: StatusWindowRow | undefined): Omit<RankedProvider, "rank"> | null {
  if (probe && probe.count > 0) {
    const okPct = round((100 * probe.ok_count) / probe.count, 1);
    const { total_p50: p50, total_p95: p95, total_p99: p99 } = probe;
    if (p50 !== null && p95 !== null) {
      return {
        provider: probe.provider,
        ok_pct: okPct,
        total_p50_ms: round(p50, 1),
        total_p95_ms: round(p95, 1),
        total_p99_ms: p99 === null ? null : round(p99, 1),
        spread_ratio: p99 === null || p50 <= 0 ? null : round(p99 / p50, 2),
        reliability_score: measuredScore(okPct, p50, p95),
        measured: true,
        note: null,
      };
    }
    return {
      provider: probe.provider,
      ok_pct: okPct,
      total_p50_ms: null,
      total_p95_ms: null,
      total_p99_ms: null,
      spread_ratio: null,
      reliability_score: okPct,
      measured: false,
      note: `none of ${probe.count} probe samples answered as expected: availability only, no latency`,
    };
  }
  if (status && status.known > 0) {
    const okPct = round((100 * status.up) / status.known, 1);
    return {
      provider: status.provider,
      ok_pct: okPct,
      total_p50_ms: null,
      total_p95_ms: null,
      total_p99_ms: null,
      spread_ratio: null,
      reliability_score: okPct,
      measured: false,
      note: `not probed by this service: ok_pct is the share of ${status.known} status-page samples not down; no latency`,
    };
  }
  return null;
}

/** Measured first (their tail is known), then score desc, ok_pct desc, provider id asc. */
function compare(a: Omit<RankedProvider, "rank">, b: Omit<RankedProvider, "rank">): number {
  if (a.measured !== b.measured) return a.measured ? -1 : 1;
  return b.reliability_score - a.reliability_score || b.ok_pct - a.ok_pct || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0);
}

/** The human label of the window. */
export function windowLabel(window: ReliabilityInput["window"]): string {
  return window ? `last ${WINDOW_HOURS} h of probe samples, ${window.from} to ${window.to}` : `last ${WINDOW_HOURS} h of probe samples (none in the warehouse)`;
}

/** Rank the providers of one window and pick the most dependable and the riskiest. */
export function providerReliability(input: ReliabilityInput): ReliabilityVerdict {
  const probes = new Map(input.probes.map((p) => [p.provider, p]));
  const statuses = new Map(input.statuses.map((s) => [s.provider, s]));
  const ids = [...new Set([...probes.keys(), ...statuses.keys()])];
  const ranked = ids
    .map((id) => rankOne(probes.get(id), statuses.get(id)))
    .filter((r): r is Omit<RankedProvider, "rank"> => r !== null)
    .sort(compare)
    .map((r, i) => ({ rank: i + 1, ...r }));
  const measured = ranked.filter((r) => r.measured);
  const pool = measured.length > 0 ? measured : ranked;
  const best = pool[0];
  const worst = pool[pool.length - 1];
  const pick = (r: RankedProvider | undefined): ReliabilityPick | null => (r ? { provider: r.provider, reliability_score: r.reliability_score } : null);
  return {
    ok: true,
    capturedAt: input.window?.to ?? null,
    window_label: windowLabel(input.window),
    verdict: {
      most_dependable: pick(best),
      // One provider, or a pool that scores alike, has no riskiest: nothing to tell apart.
      riskiest: best && worst && pool.length > 1 && worst.reliability_score < best.reliability_score ? pick(worst) : null,
    },
    ranking: ranked,
    coverage: { providers_ranked: ranked.length, fully_measured: measured.length, availability_only: ranked.length - measured.length },
  };
}
