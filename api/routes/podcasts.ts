/**
 * GET /api/podcasts: the latest episodes of curated AI podcasts (snapshot type `podcasts`, every 6 hours).
 * A pure render over the snapshot; `updated` is the manifest's lastSuccess for the type.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { episodeSchema, podcastShowEntrySchema, podcastsSnapshotSchema, podcastsSnapshotType } from "../../pipelines/contract/snapshots/podcasts.ts";

/** Body of GET /api/podcasts. */
export const PodcastsResponse = z.strictObject({
  ok: z.literal(true),
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
  count: z.int().nonnegative(),
  episodes: z.array(episodeSchema),
  shows: z.array(podcastShowEntrySchema),
});
export type PodcastsBody = z.infer<typeof PodcastsResponse>;

/** Render GET /api/podcasts from the snapshot. */
export function renderPodcasts(ctx: RenderContext): PodcastsBody {
  const { data, meta } = readSnapshot(ctx.snapshots, "podcasts", podcastsSnapshotSchema);
  const updated = meta.lastSuccess;
  return { ok: true, updated, count: data.episodes.length, episodes: data.episodes, shows: data.shows };
}

/** The podcasts route. */
export const podcastsRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/podcasts",
    tier: "free",
    summary: "Latest episodes of curated AI podcasts: show, title, published date, audio URL, duration.",
    description:
      "Up to 10 newest episodes per show from each show's public RSS feed, merged newest first (ties: show id, then episode id). published is ISO 8601 UTC; duration_seconds comes from itunes:duration (seconds, MM:SS or HH:MM:SS), null when absent or unreadable; url is the episode page (null when the feed gives none, as on Megaphone); audio_url is the audio or video enclosure (null without one); episode is itunes:episode; description is sanitized and clipped to 300 characters. Items without a title or a date are skipped. A show whose feed failed keeps the episodes of the previous run. shows lists every curated show with its feed.",
    tags: ["podcasts"],
    response: PodcastsResponse,
    snapshots: ["podcasts"],
    freshness: { cadence: podcastsSnapshotType.cadence, slaSeconds: podcastsSnapshotType.slaSeconds },
    render: (ctx): PodcastsBody => renderPodcasts(ctx),
  }),
];
