import { describe, expect, it } from "vitest";
import { rankProviders } from "./leaderboard.ts";

describe("rankProviders", () => {
  it("ranks by uptime desc, then incident seconds asc, then provider id; unknown-only providers are left out", () => {
    const ranked = rankProviders([
      { provider: "b", up: 99, known: 100, incident_seconds: 10, days: 7 },
      { provider: "a", up: 99, known: 100, incident_seconds: 10, days: 7 },
      { provider: "c", up: 100, known: 100, incident_seconds: 0, days: 7 },
      { provider: "d", up: 99, known: 100, incident_seconds: 5, days: 7 },
      { provider: "e", up: 0, known: 0, incident_seconds: 0, days: 1 },
    ]);
    expect(ranked.map((r) => [r.rank, r.provider, r.uptime_pct])).toEqual([
      [1, "c", 100],
      [2, "d", 99],
      [3, "a", 99],
      [4, "b", 99],
    ]);
    expect(ranked.every((r) => r.of === 4)).toBe(true);
  });

  it("an empty warehouse ranks nobody", () => {
    expect(rankProviders([])).toEqual([]);
  });
});
