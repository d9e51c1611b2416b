/**
 * The x402 settlement verdict: the ecosystem's indexed USDC settlements over one window against the window before
 * it — momentum, concentration among publishers by the Herfindahl–Hirschman index, the leading publisher and a
 * ranking. Pure: per-publisher totals in, answer out; amounts stay integers (base units) until they are printed.
 */
import { unitsToUsd } from "../payments/units.ts";
import { round } from "./round.ts";

/** The windows a caller may ask for, and their length in hours. */
export const SETTLEMENT_WINDOWS = { "24h": 24, "7d": 168, "30d": 720 } as const;
export type SettlementWindow = keyof typeof SETTLEMENT_WINDOWS;

/** Momentum moves only past ±20 % of volume against the prior window. */
export const MOMENTUM_THRESHOLD_PCT = 20;
/** Fewer settlements than this over both windows together is too little to call a trend: nascent. */
export const MIN_SETTLEMENTS_FOR_TREND = 10;
/**
 * HHI bands (shares in percent, 0–10,000) of the U.S. Department of Justice and FTC Horizontal Merger Guidelines
 * (2010, § 5.3): above 2,500 highly concentrated, 1,500 to 2,500 moderately, below 1,500 unconcentrated.
 */
export const HHI_CONCENTRATED = 2500;
export const HHI_MODERATE = 1500;
/** Publishers listed in the ranking at most. */
export const RANKING_LIMIT = 100;

/** One publisher's settlements in one window. */
export interface PublisherTotals {
  domain: string;
  /** Sum of the settled amounts, USDC base units (6 decimals). */
  volumeUnits: bigint;
  count: number;
}

export interface SettlementInput {
  window: SettlementWindow;
  /** Each publisher's settlements in the window and in the window just before it (a wallet counted for one publisher). */
  current: readonly PublisherTotals[];
  prior: readonly PublisherTotals[];
  /** Whether the index covered the whole prior window (it is forward-only: a young index has not). */
  priorWindowCovered: boolean;
}

export type Momentum = "expanding" | "steady" | "contracting" | "nascent";
export type Concentration = "concentrated" | "moderate" | "diversified";

export interface SettlementVerdict {
  verdict: { momentum: Momentum; concentration: Concentration | null; leading_publisher: string | null };
  ecosystem: {
    volume_usdc: string;
    count: number;
    unique_publishers: number;
    volume_change_pct: number | null;
    count_change_pct: number | null;
    prior_window_empty: boolean;
    top_publisher_share_pct: number | null;
    hhi: number | null;
  };
  ranking: { rank: number; domain: string; volume_usdc: string; count: number; share_pct: number }[];
}


/** Percent change from `before` to `after` (one decimal); null when `before` is zero. */
export function changePct(before: bigint, after: bigint): number | null {
  if (before === 0n) return null;
  return round((Number(after - before) * 100) / Number(before), 1);
}

/** Herfindahl–Hirschman index of volumes (shares in percent, so 0–10,000), rounded; null when the total is zero. */
export function herfindahl(volumes: readonly bigint[]): number | null {
  const total = volumes.reduce((a, b) => a + b, 0n);
  if (total === 0n) return null;
  const sum = volumes.reduce((acc, v) => acc + (Number(v) / Number(total)) ** 2, 0);
  return Math.round(sum * 10_000);
}

/** The concentration band of an HHI. */
export function concentrationOf(hhi: number): Concentration {
  if (hhi > HHI_CONCENTRATED) return "concentrated";
  if (hhi >= HHI_MODERATE) return "moderate";
  return "diversified";
}

/** Momentum from both windows' totals: nascent without enough history, else by the volume change. */
export function momentumOf(o: { priorWindowCovered: boolean; priorCount: number; currentCount: number; volumeChangePct: number | null }): Momentum {
  if (!o.priorWindowCovered || o.priorCount === 0 || o.priorCount + o.currentCount < MIN_SETTLEMENTS_FOR_TREND || o.volumeChangePct === null) return "nascent";
  if (o.volumeChangePct >= MOMENTUM_THRESHOLD_PCT) return "expanding";
  if (o.volumeChangePct <= -MOMENTUM_THRESHOLD_PCT) return "contracting";
  return "steady";
}

/** Publishers with a positive volume, largest first (then most settlements, then domain). */
function ranked(rows: readonly PublisherTotals[]): PublisherTotals[] {
  return rows
    .filter((r) => r.volumeUnits > 0n && r.count > 0)
    .sort((a, b) => (a.volumeUnits === b.volumeUnits ? b.count - a.count || a.domain.localeCompare(b.domain) : a.volumeUnits > b.volumeUnits ? -1 : 1));
}

/** Judge one window of settlements against the one before it. */
export function settlementVerdict(input: SettlementInput): SettlementVerdict {
  const current = ranked(input.current);
  const prior = ranked(input.prior);
  const volume = current.reduce((a, r) => a + r.volumeUnits, 0n);
  const count = current.reduce((a, r) => a + r.count, 0);
  const priorVolume = prior.reduce((a, r) => a + r.volumeUnits, 0n);
  const priorCount = prior.reduce((a, r) => a + r.count, 0);
  const volumeChangePct = changePct(priorVolume, volume);
  const countChangePct = changePct(BigInt(priorCount), BigInt(count));
  const hhi = herfindahl(current.map((r) => r.volumeUnits));
  const share = (units: bigint) => (volume === 0n ? 0 : round((Number(units) * 100) / Number(volume), 2));
  const leader = current[0];
  return {
    verdict: {
      momentum: momentumOf({ priorWindowCovered: input.priorWindowCovered, priorCount, currentCount: count, volumeChangePct }),
      concentration: hhi === null ? null : concentrationOf(hhi),
      leading_publisher: leader?.domain ?? null,
    },
    ecosystem: {
      volume_usdc: unitsToUsd(volume),
      count,
      unique_publishers: current.length,
      volume_change_pct: volumeChangePct,
      count_change_pct: countChangePct,
      prior_window_empty: priorCount === 0,
      top_publisher_share_pct: leader ? share(leader.volumeUnits) : null,
      hhi,
    },
    ranking: current.slice(0, RANKING_LIMIT).map((r, i) => ({ rank: i + 1, domain: r.domain, volume_usdc: unitsToUsd(r.volumeUnits), count: r.count, share_pct: share(r.volumeUnits) })),
  };
}
