/**
 * The `forum-trending` snapshot (GET /api/forum/trending, daily 13:00 UTC): the hot listings of seven AI
 * communities (pipelines/catalog/forum-communities.ts), merged.
 *
 * Rules, in order:
 * - stickied (or pinned) posts are removed: they are moderator notices, not what is hot;
 * - adult posts (`over_18`) are removed;
 * - deduplication by post id: the same post seen twice (two listings, a crosspost and its original) counts
 *   once. A crosspost's id is its parent's; the copy with the highest score is kept (ties: the original,
 *   then catalog order), so the entry links where the discussion is largest;
 * - ranking: score desc, then num_comments desc, then id; the first 30 are kept.
 * A community that fails is skipped with a notice; the run fails only when every community fails. A post whose
 * `created_utc` is unusable is skipped alone, with a notice counting it (sources/forum.ts).
 */
import { FORUM_COMMUNITIES, type ForumCommunity } from "../catalog/forum-communities.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";
import { type ForumPostRow, FORUM_ORIGIN, forumHotUrl, forumListing } from "../sources/forum.ts";
import { FORUM_TOP, type ForumTrendingSnapshot, ForumTrendingSnapshotSchema, forumTrendingSnapshotType, type TrendingPost } from "../contract/snapshots/forum-trending.ts";

export { FORUM_TOP, type ForumTrendingSnapshot, ForumTrendingSnapshotSchema, type TrendingPost, TrendingPostSchema } from "../contract/snapshots/forum-trending.ts";

/** Every community failed. */
export class ForumTrendingFeedError extends Error {
  override name = "ForumTrendingFeedError";
}

/** Apply the rules to listings given in catalog order. */
export function selectTrendingPosts(listings: readonly ForumPostRow[][], top = FORUM_TOP): TrendingPost[] {
  const best = new Map<string, { row: ForumPostRow; order: number }>();
  let order = 0;
  for (const listing of listings) {
    for (const row of listing) {
      order++;
      if (row.stickied || row.over_18) continue;
      const key = row.crosspost_of ?? row.id;
      const current = best.get(key);
      const better =
        !current ||
        row.score > current.row.score ||
        (row.score === current.row.score && row.crosspost_of === null && current.row.crosspost_of !== null);
      if (better) best.set(key, { row, order });
    }
  }
  return [...best.values()]
    .sort((a, b) => b.row.score - a.row.score || b.row.num_comments - a.row.num_comments || a.order - b.order)
    .slice(0, top)
    .map(({ row }) => ({
      id: row.id,
      community: row.community,
      title: row.title,
      url: row.url,
      permalink: row.permalink,
      score: row.score,
      num_comments: row.num_comments,
      created_utc: row.created_utc,
      author: row.author,
      flair: row.flair,
    }));
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Build the snapshot from `communities` (the catalog by default). */
export async function runForumTrending(
  ctx: FeedContext,
  communities: readonly ForumCommunity[] = FORUM_COMMUNITIES,
): Promise<FeedOutput<ForumTrendingSnapshot>> {
  const settled = await Promise.allSettled(
    communities.map(async (c) => {
      const url = forumHotUrl(c.id);
      const res = await ctx.http.getText(url, { headers: { Accept: "application/json" }, expectContentType: ["json"] });
      const parsed = forumListing.parse(res.body);
      if (parsed.skipped > 0) ctx.notice(`forum-trending: r/${c.id} had ${parsed.skipped} unreadable children (skipped)`);
      const rows = forumListing.normalize(parsed, { url, now: ctx.now, meta: undefined });
      const undated = parsed.posts.length - rows.length;
      if (undated > 0) ctx.notice(`forum-trending: r/${c.id} had ${undated} posts without a usable created_utc (skipped)`);
      return rows;
    }),
  );
  const listings: ForumPostRow[][] = [];
  const sources: SourceHealth[] = [];
  settled.forEach((s, i) => {
    const c = communities[i]!;
    if (s.status === "fulfilled") {
      listings.push(s.value);
      sources.push({ id: `r/${c.id}`, ok: true, rows: s.value.length });
    } else {
      const error = describe(s.reason);
      sources.push({ id: `r/${c.id}`, ok: false, error });
      ctx.notice(`forum-trending: r/${c.id} failed (${error}); skipped`);
    }
  });
  if (communities.length > 0 && listings.length === 0) {
    throw withSourceHealth(new ForumTrendingFeedError(`forum-trending: every community failed (${sources.map((s) => `${s.id}: ${s.error}`).join("; ")})`), sources);
  }
  const posts = selectTrendingPosts(listings);
  const data = ForumTrendingSnapshotSchema.parse({
    communities: communities.map((c) => ({ id: c.id, topic: c.topic, url: `${FORUM_ORIGIN}/r/${c.id}/` })),
    posts,
  });
  return { data, rows: posts.length, sources };
}

/** The forum trending feed (API: GET /api/forum/trending). */
export const forumTrendingFeed: Feed<ForumTrendingSnapshot> = {
  ...forumTrendingSnapshotType,
  urls: () => FORUM_COMMUNITIES.map((c) => forumHotUrl(c.id)),
  run: (ctx) => runForumTrending(ctx),
};
