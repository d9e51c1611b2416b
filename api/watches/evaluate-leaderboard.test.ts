import { describe, expect, it } from "vitest";
import { evaluateLeaderboardRank } from "./evaluate-leaderboard.ts";
import type { LeaderboardEntry } from "./leaderboard.ts";
import type { LeaderboardRankSpec } from "./spec.ts";

const window = { from: "2026-11-16", to: "2026-11-22" };
const at = (rank: number): LeaderboardEntry => ({ rank, provider: "openai", uptime_pct: 99.5, samples: 100, incident_seconds: 60, days: 7, of: 10 });
const drops: LeaderboardRankSpec = { type: "leaderboard_rank", provider: "openai", op: "drops_below", threshold: 3 };
const rises: LeaderboardRankSpec = { ...drops, op: "rises_above" };
const changes: LeaderboardRankSpec = { type: "leaderboard_rank", provider: "openai", op: "changes" };

describe("evaluateLeaderboardRank", () => {
  it("drops_below 3 fires when the rank leaves the top 3, with the match object", () => {
    expect(evaluateLeaderboardRank(drops, { rank: 3 }, at(4), window)).toEqual({
      seen: { rank: 4 },
      match: { type: "leaderboard_rank", provider: "openai", from_rank: 3, to_rank: 4, threshold: 3, uptime_pct: 99.5, providers_ranked: 10, window },
    });
  });

  it("drops_below does not fire while staying out, nor on moves inside the top", () => {
    expect(evaluateLeaderboardRank(drops, { rank: 4 }, at(6), window).match).toBeNull();
    expect(evaluateLeaderboardRank(drops, { rank: 1 }, at(3), window).match).toBeNull();
  });

  it("drops_below fires when the provider falls off the board from the top", () => {
    expect(evaluateLeaderboardRank(drops, { rank: 2 }, undefined, window).match).toMatchObject({ from_rank: 2, to_rank: null, uptime_pct: null });
  });

  it("rises_above 3 fires when the rank enters the top 3 (also from unranked), not while staying in", () => {
    expect(evaluateLeaderboardRank(rises, { rank: 5 }, at(3), window).match).toMatchObject({ from_rank: 5, to_rank: 3 });
    expect(evaluateLeaderboardRank(rises, { rank: null }, at(1), window).match).toMatchObject({ from_rank: null, to_rank: 1 });
    expect(evaluateLeaderboardRank(rises, { rank: 2 }, at(1), window).match).toBeNull();
  });

  it("changes fires on a move between two ranks only", () => {
    expect(evaluateLeaderboardRank(changes, { rank: 2 }, at(5), window).match).toMatchObject({ from_rank: 2, to_rank: 5, threshold: null });
    expect(evaluateLeaderboardRank(changes, { rank: 2 }, at(2), window).match).toBeNull();
    expect(evaluateLeaderboardRank(changes, null, at(2), window).match).toBeNull();
    expect(evaluateLeaderboardRank(changes, { rank: 2 }, undefined, window).match).toBeNull();
  });
});
