/**
 * The cross-provider 7-day uptime leaderboard: from the warehouse's status_daily rollup (status-page samples
 * per UTC day and provider), over the 7 UTC days ending with the newest day the warehouse holds. uptime_pct =
 * samples not down / samples with a known status × 100 (2 decimals); providers without a known sample in the
 * window are not ranked. Order: uptime_pct desc, incident_seconds asc, provider asc; ranks 1..n, no shared ranks.
 */
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { round } from "../verdicts/round.ts";

/** Days the leaderboard covers. */
export const LEADERBOARD_DAYS = 7;

/** One ranked provider. */
export interface LeaderboardEntry {
  rank: number;
  provider: string;
  uptime_pct: number;
  /** Samples with a known status in the window. */
  samples: number;
  /** Seconds the page showed degraded or down in the window. */
  incident_seconds: number;
  /** Days of the window with samples of this provider. */
  days: number;
  /** Providers ranked. */
  of: number;
}

/** The leaderboard: its window (null without data) and the ranked providers. */
export interface Leaderboard {
  window: { from: string; to: string; days: number } | null;
  entries: LeaderboardEntry[];
}

/** The SQL: one aggregate over at most 7 days × providers rollup rows. */
const LEADERBOARD_SQL = `SELECT provider, CAST(sum(up) AS BIGINT) AS up, CAST(sum(known) AS BIGINT) AS known,
  CAST(sum(incident_seconds) AS DOUBLE) AS incident_seconds, CAST(count(*) AS BIGINT) AS days
  FROM status_daily WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE) GROUP BY provider HAVING sum(known) > 0`;

/** Rank aggregated rows (pure). */
export function rankProviders(rows: readonly { provider: string; up: number; known: number; incident_seconds: number; days: number }[]): LeaderboardEntry[] {
  const scored = rows
    .filter((r) => r.known > 0)
    .map((r) => ({ provider: r.provider, uptime_pct: round((r.up / r.known) * 100, 2), samples: r.known, incident_seconds: Math.round(r.incident_seconds), days: r.days }));
  scored.sort((a, b) => b.uptime_pct - a.uptime_pct || a.incident_seconds - b.incident_seconds || (a.provider < b.provider ? -1 : a.provider > b.provider ? 1 : 0));
  return scored.map((s, i) => ({ rank: i + 1, ...s, of: scored.length }));
}

/** The first day of a window of `days` days ending `to` (YYYY-MM-DD). */
function windowStart(to: string, days: number): string {
  return new Date(Date.parse(`${to}T00:00:00Z`) - (days - 1) * 86_400_000).toISOString().slice(0, 10);
}

/** Compute the leaderboard from the warehouse reader. */
export async function uptimeLeaderboard(reader: WarehouseReader): Promise<Leaderboard> {
  const to = reader.dates("status_samples").at(-1);
  if (!to) return { window: null, entries: [] };
  const from = windowStart(to, LEADERBOARD_DAYS);
  const rows = await reader.query<{ provider: string; up: number; known: number; incident_seconds: number; days: number }>(LEADERBOARD_SQL, [from, to]);
  return { window: { from, to, days: LEADERBOARD_DAYS }, entries: rankProviders(rows) };
}
