/**
 * The `podcasts` snapshot: the latest episodes of every curated AI show (pipelines/catalog/podcasts.ts), read
 * through the podcast RSS source, newest first.
 *
 * - Shows are fetched concurrently; each keeps its EPISODES_PER_SHOW newest episodes.
 * - A show whose feed fails keeps its episodes from the previous snapshot and is reported unhealthy; the run
 *   fails only when every show fails. A kept episode dated more than a day after the run (held from before the
 *   date rule of sources/podcast-rss.ts) is dropped, as the source would drop it.
 * - Items the source drops (no title, no usable date, no URL, a repeated id) are counted in a notice.
 * - Order: published descending, then show id, then episode id (stable across runs).
 */
import { PODCAST_SHOWS, type PodcastShow } from "../catalog/podcasts.ts";
import { pastTime } from "../lib/time.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";
import { podcastRss } from "../sources/podcast-rss.ts";
import { type Episode, type PodcastsSnapshot, podcastsSnapshotSchema, podcastsSnapshotType } from "../contract/snapshots/podcasts.ts";

export { podcastShowEntrySchema, type PodcastsSnapshot, podcastsSnapshotSchema } from "../contract/snapshots/podcasts.ts";

/** Newest episodes kept per show. */
export const EPISODES_PER_SHOW = 10;

/** Podcast feeds carry every episode ever published (Lex Fridman's is many MB): a larger cap than the default. */
const MAX_FEED_BYTES = 32 * 1024 * 1024;
const ACCEPT = "application/rss+xml, application/xml;q=0.9, text/xml;q=0.8, */*;q=0.5";

/** Thrown when no show's feed could be read. */
export class PodcastsFeedError extends Error {
  override name = "PodcastsFeedError";
}

/** Episodes newest first; ties broken by show id, then episode id. */
export function compareEpisodes(a: Episode, b: Episode): number {
  return b.published.localeCompare(a.published) || a.show.localeCompare(b.show) || a.id.localeCompare(b.id);
}

/** Keep the `perShow` newest episodes of each show, then merge all shows newest first. */
export function mergeEpisodes(lists: Episode[][], perShow = EPISODES_PER_SHOW): Episode[] {
  const seen = new Set<string>();
  const merged: Episode[] = [];
  for (const list of lists) {
    for (const e of [...list].sort(compareEpisodes).slice(0, perShow)) {
      if (seen.has(e.id)) continue;
      seen.add(e.id);
      merged.push(e);
    }
  }
  return merged.sort(compareEpisodes);
}

async function readPrevious(ctx: FeedContext): Promise<PodcastsSnapshot | undefined> {
  const raw = await ctx.previous("podcasts");
  if (raw === undefined) return undefined;
  const parsed = podcastsSnapshotSchema.safeParse(raw);
  if (!parsed.success) {
    ctx.notice("podcasts: previous snapshot does not match the schema; starting fresh");
    return undefined;
  }
  return parsed.data;
}

async function fetchShow(ctx: FeedContext, show: PodcastShow): Promise<Episode[]> {
  const response = await ctx.http.getText(show.feed, { headers: { Accept: ACCEPT }, maxBytes: MAX_FEED_BYTES });
  const parsed = podcastRss.parse(response.body);
  const episodes = podcastRss.normalize(parsed, { url: show.feed, now: ctx.now, meta: { show: show.id } });
  const dropped = parsed.items.length - episodes.length;
  if (dropped > 0) ctx.notice(`podcasts: ${show.id} skipped ${dropped} items without a title, a usable date or a URL, or repeated`);
  return episodes;
}

/** Build the podcasts snapshot from `shows` (the catalog by default). */
export async function runPodcasts(ctx: FeedContext, shows: readonly PodcastShow[] = PODCAST_SHOWS): Promise<FeedOutput<PodcastsSnapshot>> {
  const previous = await readPrevious(ctx);
  const settled = await Promise.allSettled(shows.map((s) => fetchShow(ctx, s)));
  const lists: Episode[][] = [];
  const health: SourceHealth[] = [];
  settled.forEach((result, i) => {
    const show = shows[i]!;
    if (result.status === "fulfilled") {
      lists.push(result.value);
      health.push({ id: show.id, ok: true, rows: Math.min(result.value.length, EPISODES_PER_SHOW) });
    } else {
      const error = result.reason instanceof Error ? result.reason.message : String(result.reason);
      const kept = (previous?.episodes ?? []).filter((e) => e.show === show.id && pastTime(e.published, ctx.now) !== null);
      lists.push(kept);
      health.push({ id: show.id, ok: false, error, rows: kept.length });
      ctx.notice(`podcasts: ${show.id} failed (${error}); kept ${kept.length} previous episodes`);
    }
  });
  if (shows.length > 0 && health.every((h) => !h.ok)) {
    throw withSourceHealth(new PodcastsFeedError(`podcasts: every show failed (${health.map((h) => `${h.id}: ${h.error}`).join("; ")})`), health);
  }
  const episodes = mergeEpisodes(lists);
  const data = podcastsSnapshotSchema.parse({
    episodes,
    shows: shows.map((s) => ({ id: s.id, name: s.name, homepage: s.homepage, feed: s.feed })),
  });
  return { data, rows: episodes.length, sources: health };
}

/** The `podcasts` snapshot type (API: GET /api/podcasts). */
export const podcastsFeed: Feed<PodcastsSnapshot> = {
  ...podcastsSnapshotType,
  urls: () => PODCAST_SHOWS.map((s) => s.feed),
  run: (ctx) => runPodcasts(ctx),
};
