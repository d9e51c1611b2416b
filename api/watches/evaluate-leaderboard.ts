/**
 * leaderboard_rank watches on the 7-day uptime leaderboard (1 = best): drops_below N fires when the rank goes
 * from N or better to worse than N (the provider falls out of the top N, or off the board), rises_above N
 * when it goes from worse than N (or unranked) to N or better, changes on any move between two ranks.
 */
import type { LeaderboardRankSpec } from "./spec.ts";
import type { Evaluation } from "./evaluation.ts";
import type { LeaderboardEntry } from "./leaderboard.ts";

/** What a leaderboard_rank watch remembers: the rank it last saw (null when not ranked). */
export interface RankSeen {
  rank: number | null;
}

/** Evaluate one leaderboard_rank watch; `entry` is undefined when the provider is not on the board. */
export function evaluateLeaderboardRank(
  spec: LeaderboardRankSpec,
  last: RankSeen | null,
  entry: LeaderboardEntry | undefined,
  window: { from: string; to: string },
): Evaluation<RankSeen> {
  const old = last?.rank ?? null;
  const now = entry?.rank ?? null;
  const seen = { rank: now };
  if (old === now) return { seen, match: null };
  const top = (r: number | null) => r !== null && r <= spec.threshold!;
  let fires: boolean;
  if (spec.op === "drops_below") fires = old !== null && top(old) && !top(now);
  else if (spec.op === "rises_above") fires = top(now) && !top(old);
  else fires = old !== null && now !== null;
  if (!fires) return { seen, match: null };
  return {
    seen,
    match: {
      type: "leaderboard_rank",
      provider: spec.provider,
      from_rank: old,
      to_rank: now,
      threshold: spec.threshold ?? null,
      uptime_pct: entry?.uptime_pct ?? null,
      providers_ranked: entry?.of ?? null,
      window,
    },
  };
}
