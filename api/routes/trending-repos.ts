/**
 * GET /api/trending-repos: AI code repositories ranked by star velocity, from the `trending-repos` snapshot
 * (daily 15:00 UTC). The snapshot's bounded `tracked` set (kept for the next run's deltas) is not served.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { TrendingRepoSchema, TrendingReposSnapshotSchema, trendingReposSnapshotType } from "../../pipelines/contract/snapshots/trending-repos.ts";

/** Body of GET /api/trending-repos. */
export const TrendingReposResponse = z.strictObject({
  ok: z.literal(true),
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
  window_days: z
    .number()
    .int()
    .positive()
    .nullable()
    .meta({ description: "days between this snapshot and the earlier one deltas were measured against; null when every velocity is estimated" }),
  repos: z.array(TrendingRepoSchema),
});
export type TrendingReposBody = z.infer<typeof TrendingReposResponse>;

/** Pure render of GET /api/trending-repos. */
export function renderTrendingRepos(ctx: RenderContext): TrendingReposBody {
  const snapshot = readSnapshot(ctx.snapshots, "trending-repos", TrendingReposSnapshotSchema);
  return { ok: true, updated: snapshot.meta.lastSuccess, window_days: snapshot.data.window_days, repos: snapshot.data.repos };
}

/** /api/trending-repos. */
export const trendingReposRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/trending-repos",
    tier: "free",
    summary: "AI code repositories ranked by recent star velocity (top 30).",
    description:
      "Candidates: GitHub repository searches for topic:llm, topic:ai-agents, topic:machine-learning and topic:rag sorted by stars, plus topic:llm repositories created since the first day of the previous month; archived repositories skipped. velocity_basis measured: stars_delta is stars now minus stars in the most recent earlier daily snapshot, days the days between them, stars_per_day their ratio. velocity_basis estimated (a repository not in that snapshot, or no earlier snapshot): stars_delta is all stars since creation, days the repository's age in whole days (at least 1). Measured repositories rank first by stars_per_day, estimated ones after them; ties by stars. Descriptions are sanitized. The service remembers 200 repositories per day to measure the next day's deltas.",
    tags: ["community"],
    response: TrendingReposResponse,
    snapshots: ["trending-repos"],
    freshness: { cadence: trendingReposSnapshotType.cadence, slaSeconds: trendingReposSnapshotType.slaSeconds },
    render: (ctx) => renderTrendingRepos(ctx),
  }),
];
