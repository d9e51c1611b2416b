/**
 * Podcast RSS feeds (any show in pipelines/catalog/podcasts.ts): RSS 2.0 with `<enclosure>` and Apple's itunes:
 * namespace (https://podcasters.apple.com/support/823-podcast-requirements): itunes:duration (seconds, MM:SS or
 * HH:MM:SS), itunes:episode, itunes:image href, itunes:summary. Parsed with the shared feed parser of rss.ts.
 * Rate limit: none published by the hosts (Megaphone, Substack, Anchor, Libsyn …); polled every 6 hours, one
 * request per show per run.
 */
import { createHash } from "node:crypto";
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import type { Source } from "../lib/types.ts";
import { FeedParseError, attr, canonicalUrl, parseDate, parseXml, rssItem, rssRawItem, textOf } from "./rss.ts";
import { type Episode, EPISODE_DESCRIPTION_MAX, EPISODE_TITLE_MAX, episodeSchema } from "../contract/snapshots/podcasts.ts";

export { type Episode, EPISODE_DESCRIPTION_MAX, EPISODE_TITLE_MAX, episodeSchema } from "../contract/snapshots/podcasts.ts";

/** What normalize needs to know about the show being read. */
export interface PodcastMeta {
  /** Catalog id of the show. */
  show: string;
}

/** A podcast item reduced to the fields we use, still raw (not sanitized). */
export interface RawEpisode {
  title?: string;
  link?: string;
  guid?: string;
  summary?: string;
  date?: string;
  enclosure?: { url?: string; type?: string; length?: string };
  duration?: string;
  episode?: string;
  image?: string;
}

export interface ParsedPodcast {
  title?: string;
  link?: string;
  image?: string;
  items: RawEpisode[];
}

const node = z.unknown();
const podcastItem = rssItem.extend({
  enclosure: node.optional(),
  "itunes:duration": node.optional(),
  "itunes:episode": node.optional(),
  "itunes:image": node.optional(),
  "itunes:summary": node.optional(),
});
const podcastDoc = z.looseObject({
  rss: z.looseObject({
    channel: z.looseObject({
      title: node.optional(),
      link: z.array(node).optional(),
      "itunes:image": node.optional(),
      image: node.optional(),
      item: z.array(podcastItem).default([]),
    }),
  }),
});

/** Parse a podcast RSS 2.0 body; throws FeedParseError when it is not one. */
export function parsePodcast(body: string): ParsedPodcast {
  const root = parseXml(body);
  if (!("rss" in root)) {
    const roots = Object.keys(root).filter((k) => !k.startsWith("?"));
    throw new FeedParseError(`podcast-rss: body is not an RSS 2.0 feed (root elements: ${roots.join(", ") || "none"})`);
  }
  const result = podcastDoc.safeParse(root);
  if (!result.success) {
    throw new FeedParseError(`podcast-rss: feed structure not understood: ${z.prettifyError(result.error)}`, { cause: result.error });
  }
  const { channel } = result.data.rss;
  return {
    title: textOf(channel.title) || undefined,
    link: rssRawItem({ link: channel.link }).link,
    image: attr(channel["itunes:image"], "href") ?? (textOf(objectField(channel.image, "url")) || undefined),
    items: channel.item.map((item) => {
      const base = rssRawItem(item);
      const enclosure = Array.isArray(item.enclosure) ? item.enclosure[0] : item.enclosure;
      return {
        ...(base.title !== undefined ? { title: base.title } : {}),
        ...(base.link !== undefined ? { link: base.link } : {}),
        ...(item.guid !== undefined ? { guid: textOf(item.guid).trim() } : {}),
        ...(textOf(item["itunes:summary"]) || base.summary ? { summary: base.summary ?? textOf(item["itunes:summary"]) } : {}),
        ...(base.date !== undefined ? { date: base.date } : {}),
        ...(enclosure !== undefined
          ? { enclosure: { url: attr(enclosure, "url"), type: attr(enclosure, "type"), length: attr(enclosure, "length") } }
          : {}),
        ...(item["itunes:duration"] !== undefined ? { duration: textOf(item["itunes:duration"]).trim() } : {}),
        ...(item["itunes:episode"] !== undefined ? { episode: textOf(item["itunes:episode"]).trim() } : {}),
        ...(attr(item["itunes:image"], "href") !== undefined ? { image: attr(item["itunes:image"], "href") } : {}),
      };
    }),
  };
}

function objectField(value: unknown, key: string): unknown {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>)[key] : undefined;
}

/**
 * itunes:duration in seconds: plain seconds (`2712`, `2712.4`), `MM:SS` or `HH:MM:SS`; null when it is empty or
 * not one of those forms (minutes and seconds after the first field must be below 60).
 */
export function parseDuration(value: string | undefined): number | null {
  const v = value?.trim();
  if (!v) return null;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v));
  const m = /^(\d+):(\d{1,2})(?::(\d{1,2}))?(\.\d+)?$/.exec(v);
  if (!m) return null;
  const parts = [m[1], m[2], m[3]].filter((p): p is string => p !== undefined).map(Number);
  if (parts.slice(1).some((p) => p >= 60)) return null;
  const seconds = parts.reduce((total, p) => total * 60 + p, 0);
  return seconds + Math.round(Number(m[4] ?? 0));
}

/** itunes:episode as a positive integer, else null. */
export function parseEpisodeNumber(value: string | undefined): number | null {
  const v = value?.trim();
  if (!v || !/^\d+$/.test(v)) return null;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/** Stable episode id: the show plus the item's guid (else its audio URL, else its page URL). */
export function episodeId(show: string, key: string): string {
  return createHash("sha256").update(`${show}\n${key}`).digest("hex").slice(0, 16);
}

function mediaUrl(enclosure: RawEpisode["enclosure"], base: string): string | null {
  if (!enclosure?.url) return null;
  const type = enclosure.type?.toLowerCase();
  if (type && !type.startsWith("audio/") && !type.startsWith("video/")) return null;
  // Enclosures keep their query string: hosts sign or route downloads with it.
  try {
    const u = new URL(enclosure.url.trim(), base);
    return u.protocol === "https:" || u.protocol === "http:" ? u.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Normalize raw items to Episodes. Dropped: items without a title, without a usable date (unreadable, before
 * 1990 or more than a day after the fetch time `ctx.now`: they cannot be ordered), or with neither a page nor an
 * audio URL; a second item with the same id.
 */
export function normalizePodcast(parsed: ParsedPodcast, ctx: { url: string; now: Date; meta: PodcastMeta }): Episode[] {
  const base = parsed.link ? (canonicalUrl(parsed.link, ctx.url) ?? ctx.url) : ctx.url;
  const out: Episode[] = [];
  const seen = new Set<string>();
  for (const item of parsed.items) {
    const title = sanitize(item.title ?? "", { maxLength: EPISODE_TITLE_MAX });
    const published = parseDate(item.date, ctx.now);
    const url = item.link ? (canonicalUrl(item.link, base) ?? null) : null;
    const audio = mediaUrl(item.enclosure, base);
    if (title === "" || !published || (url === null && audio === null)) continue;
    const id = episodeId(ctx.meta.show, item.guid || audio || url || title);
    if (seen.has(id)) continue;
    seen.add(id);
    const image = item.image ? (canonicalUrl(item.image, base) ?? null) : null;
    out.push({
      id,
      show: ctx.meta.show,
      title,
      url,
      audio_url: audio,
      published,
      duration_seconds: parseDuration(item.duration),
      episode: parseEpisodeNumber(item.episode),
      image,
      description: sanitize(item.summary ?? "", { maxLength: EPISODE_DESCRIPTION_MAX }),
    });
  }
  return out;
}

/** The podcast RSS source: one show's feed body in, Episodes out. */
export const podcastRss = {
  id: "podcast-rss",
  description: "Podcast RSS 2.0 feeds with the itunes: namespace (Megaphone, Substack, Anchor, Libsyn, Transistor, Captivate); no published rate limit, polled every 6 hours.",
  parse: parsePodcast,
  normalize: normalizePodcast,
  row: episodeSchema,
} satisfies Source<ParsedPodcast, Episode, PodcastMeta>;
