/**
 * Which feeds are due: a feed is due when its cron (UTC) had a scheduled time after its last attempt in the
 * manifest, or when it was never attempted. The scheduled workflow runs often and lets this pick the feeds,
 * so the cadences live only in the feeds themselves, and a late or skipped run catches up on the next one.
 */
import { Cron } from "croner";
import type { Feed, SnapshotMeta } from "../lib/types.ts";

/** Names of the feeds due at `now`, in registry order. */
export function dueFeeds(feeds: Record<string, Feed>, manifest: Record<string, SnapshotMeta | undefined>, now: Date): string[] {
  return Object.keys(feeds).filter((name) => {
    const feed = feeds[name]!;
    const lastAttempt = manifest[feed.type]?.lastAttempt;
    if (!lastAttempt) return true;
    const [previous] = new Cron(feed.cron, { timezone: "UTC", paused: true }).previousRuns(1, now);
    return previous !== undefined && previous.getTime() > Date.parse(lastAttempt);
  });
}
