/**
 * The `weather-alerts` snapshot: the US National Weather Service's active alerts collection, fetched every
 * 10 minutes and normalized by the `nws-alerts` source. It stores every alert NWS listed (no query filter,
 * every status), so the API's live reader can answer from it when api.weather.gov cannot be reached; the
 * reader drops alerts that expired since. Fetch times live in the manifest, not in the body; `updated` is
 * the upstream's own generation time.
 */
import type { Feed, FeedContext, FeedOutput, HttpClient } from "../lib/types.ts";
import { NWS_ACCEPT, NWS_CONTENT_TYPES, NWS_MAX_BYTES, type NwsAlertCollection, nwsAlertsSource } from "../sources/nws-alerts.ts";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import { NWS_ALERTS_URL, weatherAlertsSnapshot, type WeatherAlertsSnapshot, weatherAlertsSnapshotType } from "../contract/snapshots/weather-alerts.ts";

export { weatherAlertsSnapshot, type WeatherAlertsSnapshot } from "../contract/snapshots/weather-alerts.ts";

/**
 * Collection facts from the parsed body plus the normalized alerts, fetched at `now`. `updated` is the upstream's
 * generation time: unreadable, before 1990 or more than a day after `now` gives null.
 */
export function collectionOf(parsed: NwsAlertCollection, url: string, now: Date): WeatherAlertsSnapshot {
  return weatherAlertsSnapshot.parse({
    title: parsed.title ? sanitize(parsed.title, { maxLength: 300 }) || null : null,
    updated: pastTime(parsed.updated, now),
    upstream_count: parsed.featureCount,
    alerts: nwsAlertsSource.normalize(parsed, { url, now, meta: undefined }),
  });
}

/** GET the collection through the shared client and normalize it (used by the feed and the live reader). */
export async function fetchWeatherAlerts(
  http: HttpClient,
  url: string,
  now: Date,
  options: { timeoutMs?: number } = {},
): Promise<{ collection: WeatherAlertsSnapshot; parsed: NwsAlertCollection }> {
  const res = await http.getText(url, {
    headers: { accept: NWS_ACCEPT },
    expectContentType: NWS_CONTENT_TYPES,
    maxBytes: NWS_MAX_BYTES,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });
  const parsed = nwsAlertsSource.parse(res.body);
  return { collection: collectionOf(parsed, url, now), parsed };
}

/** Build the snapshot from one fetch of `url` (the NWS endpoint by default). */
export async function runWeatherAlerts(ctx: FeedContext, url: string = NWS_ALERTS_URL): Promise<FeedOutput<WeatherAlertsSnapshot>> {
  const { collection, parsed } = await fetchWeatherAlerts(ctx.http, url, ctx.now);
  if (parsed.unreadable > 0) ctx.notice(`weather-alerts: skipped ${parsed.unreadable} features without an alert's required fields`);
  const skipped = parsed.features.length - collection.alerts.length;
  if (skipped > 0) ctx.notice(`weather-alerts: skipped ${skipped} cancellations, duplicates or features with an unknown status or an unusable sent time`);
  return {
    data: collection,
    rows: collection.alerts.length,
    sources: [{ id: nwsAlertsSource.id, ok: true, rows: collection.alerts.length }],
  };
}

/** The NWS active alerts feed (API: GET /api/climate/weather-alerts, as its fallback copy). */
export const weatherAlertsFeed: Feed<WeatherAlertsSnapshot> = {
  ...weatherAlertsSnapshotType,
  urls: () => [NWS_ALERTS_URL],
  run: (ctx) => runWeatherAlerts(ctx),
};
