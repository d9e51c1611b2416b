/**
 * GET /api/forum/trending: hot threads from seven AI forum communities, stickied and adult posts removed,
 * deduplicated by post id, top 30 by score — the `forum-trending` snapshot (daily 13:00 UTC).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { renderSnapshot } from "../serve/read-snapshot.ts";
import { ForumTrendingSnapshotSchema, forumTrendingSnapshotType } from "../../pipelines/contract/snapshots/forum-trending.ts";

/** Body of GET /api/forum/trending. */
export const ForumTrendingResponse = z.strictObject({
  ok: z.literal(true),
  snapshot: ForumTrendingSnapshotSchema,
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
});
export type ForumTrendingBody = z.infer<typeof ForumTrendingResponse>;

/** Pure render of GET /api/forum/trending. */
export function renderForumTrending(ctx: RenderContext): ForumTrendingBody {
  return renderSnapshot(ctx.snapshots, { type: "forum-trending", schema: ForumTrendingSnapshotSchema });
}

/** /api/forum/trending. */
export const forumRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/forum/trending",
    tier: "free",
    summary: "Hot threads from 7 AI forum communities: stickied and adult posts removed, deduplicated, top 30 by score.",
    description:
      "The hot listing (50 posts) of each community in snapshot.communities (r/MachineLearning, r/LocalLLaMA, r/artificial, r/OpenAI, r/singularity, r/ClaudeAI, r/StableDiffusion), merged. Stickied or pinned posts and posts marked over_18 are removed. A crosspost counts as its original post: one entry per post id, the copy with the highest score kept. Ranked by score, then comment count. Titles and flair are sanitized as the plain text reddit sends (control, bidi and invisible characters removed, prompt-injection phrases replaced by [filtered], clipped), so `<…>` written in a title stays as typed; url is the link the post points to (the thread itself for text posts), permalink the discussion; created_utc is ISO 8601. A community that could not be read is left out of that day's ranking.",
    tags: ["community"],
    response: ForumTrendingResponse,
    snapshots: ["forum-trending"],
    freshness: { cadence: forumTrendingSnapshotType.cadence, slaSeconds: forumTrendingSnapshotType.slaSeconds },
    render: (ctx) => renderForumTrending(ctx),
  }),
];
