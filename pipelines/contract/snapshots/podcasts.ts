/** The `podcasts` snapshot: the newest episodes of the catalog's AI podcasts, with the show list. */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** Longest title and description kept, in UTF-16 units (ellipsis included). */
export const EPISODE_TITLE_MAX = 300;

export const EPISODE_DESCRIPTION_MAX = 300;

/** One podcast episode as served by GET /api/podcasts. */
export const episodeSchema = z.strictObject({
  /** First 16 hex digits of SHA-256 over `<show>\n<guid or audio URL or page URL>`. */
  id: z.string().regex(/^[0-9a-f]{16}$/),
  /** Show id from the catalog. */
  show: z.string().min(1),
  title: z.string().min(1).max(EPISODE_TITLE_MAX),
  /** The episode's web page; null when the feed gives none. */
  url: httpUrl.nullable(),
  /** The audio (or video) enclosure; null when the item has none. */
  audio_url: httpUrl.nullable(),
  published: z.iso.datetime(),
  duration_seconds: z.int().nonnegative().nullable(),
  /** itunes:episode number, when the feed numbers its episodes. */
  episode: z.int().positive().nullable(),
  /** Episode artwork (itunes:image href), else null. */
  image: httpUrl.nullable(),
  description: z.string().max(EPISODE_DESCRIPTION_MAX),
});

export type Episode = z.infer<typeof episodeSchema>;

/** One show as listed in the snapshot. */
export const podcastShowEntrySchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  homepage: httpUrl,
  feed: httpUrl,
});

/** The `podcasts` snapshot body. */
export const podcastsSnapshotSchema = z.strictObject({
  episodes: z.array(episodeSchema),
  shows: z.array(podcastShowEntrySchema),
});

export type PodcastsSnapshot = z.infer<typeof podcastsSnapshotSchema>;

/** The `podcasts` snapshot type. */
export const podcastsSnapshotType = {
  type: "podcasts",
  title: "AI podcast episodes",
  cron: "17 */6 * * *",
  cadence: "every 6 hours",
  slaSeconds: 24 * 60 * 60,
  schema: podcastsSnapshotSchema,
} satisfies SnapshotType<PodcastsSnapshot>;
