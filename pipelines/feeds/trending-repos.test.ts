import { afterAll, describe, expect, it } from "vitest";
import { type ClosableHttpClient, createHttpClient } from "../lib/http/client.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";
import type { RepoHit } from "../sources/github-search.ts";
import {
  TRENDING_TOP,
  TrendingReposSnapshotSchema,
  daysBetween,
  rankRepos,
  recentSince,
  repoQueries,
  trendingReposFeed,
  type TrendingReposSnapshot,
} from "./trending-repos.ts";

const NOW = new Date("2026-11-22T15:00:00Z");
const clients: ClosableHttpClient[] = [];
afterAll(async () => Promise.all(clients.map((c) => c.close())));
const client = () => {
  const c = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0, sleep: async () => {} });
  clients.push(c);
  return c;
};

function hit(full_name: string, stars: number, created_at = "2024-11-22T15:00:00.000Z", over: Partial<RepoHit> = {}): RepoHit {
  return { full_name, url: `https://github.com/${full_name}`, description: "", language: null, stars, forks: 0, topics: [], created_at, archived: false, ...over };
}

describe("trending-repos velocity", () => {
  it("recentSince() is the first day of the previous month, across a year boundary too", () => {
    expect(recentSince(NOW)).toBe("2026-10-01");
    expect(recentSince(new Date("2027-01-05T00:00:00Z"))).toBe("2026-12-01");
    expect(repoQueries(NOW).at(-1)!.url).toContain("created%3A%3E%3D2026-10-01");
  });

  it("daysBetween() counts whole UTC days", () => {
    expect(daysBetween("2026-11-21", "2026-11-22")).toBe(1);
    expect(daysBetween("2026-10-31", "2026-11-22")).toBe(22);
  });

  it("rankRepos() measures velocity against the previous day's stars", () => {
    const baseline = { date: "2026-11-21", days: 1, stars: new Map([["a/fast", 1000], ["b/slow", 5000]]) };
    const out = rankRepos([hit("b/slow", 5010), hit("a/fast", 1300)], NOW, baseline);
    expect(out.map((r) => [r.full_name, r.stars_delta, r.days, r.stars_per_day, r.velocity_basis])).toEqual([
      ["a/fast", 300, 1, 300, "measured"],
      ["b/slow", 10, 1, 10, "measured"],
    ]);
  });

  it("rankRepos() divides by the days since an older snapshot", () => {
    const baseline = { date: "2026-11-19", days: 3, stars: new Map([["a/r", 100]]) };
    expect(rankRepos([hit("a/r", 110)], NOW, baseline)[0]).toMatchObject({ stars_delta: 10, days: 3, stars_per_day: 3.33, velocity_basis: "measured" });
  });

  it("rankRepos() estimates without a previous snapshot: stars over age in days", () => {
    const out = rankRepos([hit("old/big", 73_000, "2024-11-22T15:00:00Z"), hit("new/small", 900, "2026-11-19T15:00:00Z")], NOW, null);
    expect(out.map((r) => [r.full_name, r.stars_delta, r.days, r.stars_per_day, r.velocity_basis])).toEqual([
      ["new/small", 900, 3, 300, "estimated"],
      ["old/big", 73_000, 730, 100, "estimated"],
    ]);
  });

  it("rankRepos() ranks first-seen repositories after measured ones, skips archived and duplicates", () => {
    const baseline = { date: "2026-11-21", days: 1, stars: new Map([["m/tracked", 100]]) };
    const out = rankRepos(
      [hit("m/tracked", 101), hit("n/new", 50_000, "2026-11-21T15:00:00Z"), hit("n/new", 50_000, "2026-11-21T15:00:00Z"), hit("x/archived", 9, undefined, { archived: true })],
      NOW,
      baseline,
    );
    expect(out.map((r) => [r.full_name, r.velocity_basis])).toEqual([
      ["m/tracked", "measured"],
      ["n/new", "estimated"],
    ]);
    expect(out[1]!.days).toBe(1);
  });
});

describe("trendingReposFeed", () => {
  it("trendingReposFeed declares the 15:00 schedule and five searches", () => {
    expect(trendingReposFeed.type).toBe("trending-repos");
    expect(trendingReposFeed.cron).toBe("0 15 * * *");
    expect(trendingReposFeed.urls()).toHaveLength(5);
  });

  it("run() without an earlier snapshot estimates every velocity and tracks the candidates", async () => {
    const out = await trendingReposFeed.run(testFeedContext({ http: client(), now: NOW }));
    const data = TrendingReposSnapshotSchema.parse(out.data);
    expect(data.compared_with).toBeNull();
    expect(data.window_days).toBeNull();
    expect(data.repos).toHaveLength(TRENDING_TOP);
    expect(data.repos.every((r) => r.velocity_basis === "estimated")).toBe(true);
    expect(data.tracked.length).toBeGreaterThan(TRENDING_TOP);
    expect(data.tracked.map((t) => t.full_name)).not.toContain("example-legacy/llm-playground");
    expect(new Set(data.tracked.map((t) => t.full_name)).size).toBe(data.tracked.length);
    expect(out.sources?.every((s) => s.ok)).toBe(true);
  });

  it("run() with yesterday's snapshot measures deltas and ranks measured repositories first", async () => {
    const first = await trendingReposFeed.run(testFeedContext({ http: client(), now: NOW }));
    // Yesterday: every tracked repo had 20 fewer stars, except ollama which had 1,000 fewer.
    const yesterday: TrendingReposSnapshot = {
      ...first.data,
      tracked: first.data.tracked
        .filter((t) => t.full_name !== "karpathy/nanochat")
        .map((t) => ({ ...t, stars: t.full_name === "ollama/ollama" ? t.stars - 1000 : Math.max(0, t.stars - 20) })),
    };
    const older: TrendingReposSnapshot = { ...first.data, tracked: [{ full_name: "ollama/ollama", stars: 1 }] };
    const out = await trendingReposFeed.run(
      testFeedContext({ http: client(), now: NOW, dated: { "trending-repos": { "2026-11-18": older, "2026-11-21": yesterday, "2026-11-22": first.data } } }),
    );
    const data = TrendingReposSnapshotSchema.parse(out.data);
    expect(data.compared_with).toBe("2026-11-21");
    expect(data.window_days).toBe(1);
    const ollama = data.repos.find((r) => r.full_name === "ollama/ollama");
    expect(ollama).toMatchObject({ stars_delta: 1000, days: 1, stars_per_day: 1000, velocity_basis: "measured" });
    const basis = data.repos.map((r) => r.velocity_basis);
    expect(basis.indexOf("estimated") === -1 || basis.lastIndexOf("measured") < basis.indexOf("estimated")).toBe(true);
    const measured = data.repos.filter((r) => r.velocity_basis === "measured").map((r) => r.stars_per_day);
    expect(measured).toEqual([...measured].sort((a, b) => b - a));
    // nanochat was not tracked yesterday: its estimate (~98/day) beats many measured repos, yet it ranks after them.
    expect(data.repos.every((r) => r.velocity_basis === "measured")).toBe(true);
    expect(data.repos.at(-1)!.stars_per_day).toBeLessThan(98);
    expect(data.repos.map((r) => r.full_name)).not.toContain("karpathy/nanochat");
    expect(data.tracked.find((t) => t.full_name === "karpathy/nanochat")).toBeDefined();
  });
});
