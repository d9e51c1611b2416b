import { describe, expect, it } from "vitest";
import type { LoadedSnapshot, RenderContext, SnapshotMeta, SnapshotReader } from "../registry/types.ts";
import { TrendingReposResponse, renderTrendingRepos, trendingReposRoutes } from "./trending-repos.ts";
import type { TrendingReposSnapshot } from "../../pipelines/contract/snapshots/trending-repos.ts";

const data: TrendingReposSnapshot = {
  compared_with: "2026-11-21",
  window_days: 1,
  repos: [
    { full_name: "o/fast", url: "https://github.com/o/fast", description: "Fast", language: "Rust", stars: 1300, stars_delta: 300, days: 1, stars_per_day: 300, velocity_basis: "measured" },
    { full_name: "n/new", url: "https://github.com/n/new", description: "", language: null, stars: 900, stars_delta: 900, days: 3, stars_per_day: 300, velocity_basis: "estimated" },
  ],
  tracked: [{ full_name: "n/new", stars: 900 }, { full_name: "o/fast", stars: 1300 }],
};
const meta = (over: Partial<SnapshotMeta> = {}): SnapshotMeta => ({
  type: "trending-repos", date: "2026-11-22", lastSuccess: "2026-11-22T15:00:05.000Z", lastAttempt: "2026-11-22T15:00:05.000Z", lastChanged: "2026-11-22T15:00:05.000Z",
  lastError: null, rows: 2, provenance: "replay", slaSeconds: 172800, cadence: "daily at 15:00 UTC", sources: [], ...over,
});
function ctx(snapshot: LoadedSnapshot<unknown> | undefined): RenderContext {
  const reader: SnapshotReader = {
    get: <T,>(type: string) => (type === "trending-repos" ? (snapshot as LoadedSnapshot<T> | undefined) : undefined),
    types: () => [],
    dates: () => [],
    dated: async () => undefined,
  };
  return { snapshots: reader, baseUrl: "http://localhost:3000", now: new Date("2026-11-22T16:00:00Z") };
}

describe("trending-repos route", () => {
  it("renderTrendingRepos() serves ranked repos, window and last run, without the tracked set", () => {
    const body = TrendingReposResponse.parse(renderTrendingRepos(ctx({ type: "trending-repos", data, meta: meta() })));
    expect(body).toEqual({ ok: true, updated: "2026-11-22T15:00:05.000Z", window_days: 1, repos: data.repos });
    expect(JSON.stringify(body)).not.toContain("tracked");
  });

  it("renderTrendingRepos() answers 503 snapshot_unavailable when missing or malformed", () => {
    expect(() => renderTrendingRepos(ctx(undefined))).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
    expect(() => renderTrendingRepos(ctx({ type: "trending-repos", data: { repos: [] }, meta: meta() }))).toThrow(expect.objectContaining({ status: 503 }));
  });

  it("trendingReposRoutes declare a free route over the trending-repos snapshot", () => {
    expect(trendingReposRoutes[0]).toMatchObject({ path: "/api/trending-repos", tier: "free", snapshots: ["trending-repos"], freshness: { cadence: "daily at 15:00 UTC" } });
  });
});
