/**
 * Reddit listings — `GET https://www.reddit.com/r/<community>/hot.json?limit=50&raw_json=1` (docs:
 * https://www.reddit.com/dev/api#GET_hot). Public JSON, no key; reddit asks for a descriptive User-Agent (the
 * shared client sends one) and allows about 10 anonymous requests per minute; we read 7 listings once a day.
 * `raw_json=1` returns titles without HTML escaping (we still sanitize them).
 *
 * The body is a `Listing` whose `data.children[]` are `t3` (link) things. `normalize` keeps every post and
 * flags the ones the feed's rules act on (stickied, over_18, crosspost parent); the only post it leaves out is
 * one whose `created_utc` (Unix seconds, as the API documents) is not a time in 1990 … fetch time + 1 day
 * (pipelines/lib/time.ts): a millisecond value or a far-future time costs that post alone, and the feed counts it.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import type { NormalizeContext, Source } from "../lib/types.ts";

/** Forum site root; permalinks are relative to it. */
export const FORUM_ORIGIN = "https://www.reddit.com";

/** Posts requested per listing. */
export const FORUM_LISTING_LIMIT = 50;

/** Longest title kept (UTF-16 units, ellipsis included). */
export const FORUM_TITLE_MAX = 300;

/** URL of a community's hot listing. */
export function forumHotUrl(community: string): string {
  return `${FORUM_ORIGIN}/r/${community}/hot.json?limit=${FORUM_LISTING_LIMIT}&raw_json=1`;
}

/** Error thrown when a body is not a listing. */
export class ForumParseError extends Error {
  override name = "ForumParseError";
}

const UpstreamPost = z.looseObject({
  id: z.string().regex(/^[a-z0-9]+$/),
  subreddit: z.string().min(1),
  title: z.string(),
  url: z.string().nullish(),
  permalink: z.string().startsWith("/"),
  score: z.number().int(),
  num_comments: z.number().int().nonnegative(),
  created_utc: z.number().positive(),
  author: z.string().nullish(),
  link_flair_text: z.string().nullish(),
  stickied: z.boolean().optional(),
  pinned: z.boolean().optional(),
  over_18: z.boolean().optional(),
  crosspost_parent: z.string().nullish(),
});

const Listing = z.looseObject({
  kind: z.literal("Listing"),
  data: z.looseObject({ children: z.array(z.looseObject({ kind: z.string(), data: z.unknown() })) }),
});

/** What `forumListing.parse` returns. */
export interface ForumParsed {
  posts: z.infer<typeof UpstreamPost>[];
  skipped: number;
}

/** One post, normalized, with the flags the selection rules read. */
export const ForumPostRowSchema = z.strictObject({
  id: z.string().min(1),
  community: z.string().min(1),
  title: z.string(),
  url: z.url(),
  permalink: z.url(),
  score: z.number().int(),
  num_comments: z.number().int().nonnegative(),
  created_utc: z.iso.datetime(),
  author: z.string().nullable(),
  flair: z.string().nullable(),
  stickied: z.boolean(),
  over_18: z.boolean(),
  /** Id (without `t3_`) of the post this one crossposts, else null. */
  crosspost_of: z.string().nullable(),
});
export type ForumPostRow = z.infer<typeof ForumPostRowSchema>;

function absolute(url: string | null | undefined, fallback: string): string {
  if (!url) return fallback;
  if (url.startsWith("/")) return `${FORUM_ORIGIN}${url}`;
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : fallback;
  } catch {
    return fallback;
  }
}

/** The reddit hot-listing source. */
export const forumListing = {
  id: "forum-listing",
  description: "Reddit GET /r/<sub>/hot.json (https://www.reddit.com/dev/api); public, ~10 req/min anonymous; daily",
  parse(body: string): ForumParsed {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (cause) {
      throw new ForumParseError(`forum-listing: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
    }
    const top = Listing.safeParse(json);
    if (!top.success) throw new ForumParseError(`forum-listing: body is not a Listing: ${top.error.message}`, { cause: top.error });
    const posts: z.infer<typeof UpstreamPost>[] = [];
    let skipped = 0;
    for (const child of top.data.data.children) {
      const p = child.kind === "t3" ? UpstreamPost.safeParse(child.data) : undefined;
      if (p?.success) posts.push(p.data);
      else skipped++;
    }
    return { posts, skipped };
  },
  normalize(parsed: ForumParsed, ctx: NormalizeContext & { meta: undefined }): ForumPostRow[] {
    return parsed.posts.flatMap((p) => {
      const created = pastTime(Math.round(p.created_utc), ctx.now);
      if (created === null) return [];
      const permalink = `${FORUM_ORIGIN}${p.permalink}`;
      const flair = p.link_flair_text ? sanitize(p.link_flair_text, { maxLength: 60, format: "plain" }) : "";
      return {
        id: p.id,
        community: p.subreddit,
        title: sanitize(p.title, { maxLength: FORUM_TITLE_MAX, format: "plain" }),
        url: absolute(p.url, permalink),
        permalink,
        score: p.score,
        num_comments: p.num_comments,
        created_utc: created,
        author: p.author && p.author !== "[deleted]" ? p.author : null,
        flair: flair === "" ? null : flair,
        stickied: p.stickied === true || p.pinned === true,
        over_18: p.over_18 === true,
        crosspost_of: p.crosspost_parent ? p.crosspost_parent.replace(/^t3_/, "") : null,
      } satisfies ForumPostRow;
    });
  },
  row: ForumPostRowSchema,
} satisfies Source<ForumParsed, ForumPostRow>;
