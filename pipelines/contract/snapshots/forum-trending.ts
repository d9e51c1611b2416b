/** The `forum-trending` snapshot: the top threads of AI forum communities (reddit). */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Posts kept in the snapshot. */
export const FORUM_TOP = 30;

/** One post as the snapshot carries it. */
export const TrendingPostSchema = z.strictObject({
  id: z.string(),
  community: z.string(),
  title: z.string(),
  url: httpUrl,
  permalink: httpUrl,
  score: z.number().int(),
  num_comments: z.number().int().nonnegative(),
  created_utc: z.iso.datetime(),
  author: z.string().nullable(),
  flair: z.string().nullable(),
});

export type TrendingPost = z.infer<typeof TrendingPostSchema>;

/** The `forum-trending` snapshot body. */
export const ForumTrendingSnapshotSchema = z.strictObject({
  communities: z.array(z.strictObject({ id: z.string(), topic: z.string(), url: httpUrl })),
  posts: z.array(TrendingPostSchema).max(FORUM_TOP),
});

export type ForumTrendingSnapshot = z.infer<typeof ForumTrendingSnapshotSchema>;

/** The `forum-trending` snapshot type. */
export const forumTrendingSnapshotType = {
  type: "forum-trending",
  title: "Trending threads in AI forum communities",
  cron: "0 13 * * *",
  cadence: "daily at 13:00 UTC",
  slaSeconds: 172_800,
  schema: ForumTrendingSnapshotSchema,
} satisfies SnapshotType<ForumTrendingSnapshot>;
