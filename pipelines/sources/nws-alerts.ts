/**
 * US National Weather Service active alerts: `GET https://api.weather.gov/alerts/active`
 * (https://www.weather.gov/documentation/services-web-api — public, no key; a User-Agent naming the app and a
 * contact is required, which the shared client sends; requests are rate limited by NWS at an undisclosed
 * generous rate, so we fetch once per minute at most for the API and every 10 minutes for the snapshot).
 * The body is a GeoJSON FeatureCollection of CAP alerts (`application/geo+json`).
 *
 * Normalization, one alert per feature:
 * - `id` is the CAP identifier (`properties.id`), kept only in the forms NWS issues (see `NWS_ALERT_ID`); a
 *   feature with any other id is counted unreadable. `web` is the alert's own URL, the public api.weather.gov
 *   document of that alert: `properties["@id"]`, else the feature `id`, each only when it is an
 *   https://api.weather.gov/alerts/… URL, else built from the (validated) identifier.
 * - `event`, `headline`, `area_desc`, `sender_name`, `certainty` are outside text and go through the sanitizer;
 *   `event` keeps NWS's canonical name ("Winter Storm Warning"). A missing headline falls back to the
 *   NWSheadline parameter, then to "<event> by <sender>".
 * - `severity` and `urgency` map case-insensitively onto the CAP values; anything else is `Unknown`.
 * - `status` is capitalised (Actual, Exercise, System, Test, Draft); a feature with another status is skipped.
 * - Timestamps become ISO 8601 UTC through pipelines/lib/time.ts, each on its own: `sent` is when the message was
 *   issued, so one unreadable, before 1990 or more than a day after the fetch time skips that alert alone;
 *   `effective`, `expires` and `ends` may lie ahead, so only an unreadable or absurd value (beyond year 9999) is
 *   dropped — `effective` then falls back to `sent`, `expires` and `ends` to null (an alert without `expires` is
 *   judged by `ends`, see `isActiveAlert`).
 * - `ugc` keeps the UGC zone codes (from `geocode.UGC`, else the last segment of `affectedZones`), sorted,
 *   for area filtering; the API does not show it.
 * - `messageType: "Cancel"` features are skipped: they announce that an alert ended, they are not alerts.
 * - Duplicate ids keep the first; rows are sorted newest `sent` first, then by id.
 * Active-ness (see `isActiveAlert`) is NOT applied here: the stored collection is what NWS listed, and every
 * reader recomputes it against its own clock.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { expiryTime, pastTime } from "../lib/time.ts";
import type { NormalizeContext, Source } from "../lib/types.ts";
import { ALERT_SEVERITIES, ALERT_STATUSES, ALERT_URGENCIES, canonicalOf, TEXT_MAX, weatherAlert, type WeatherAlert } from "../contract/snapshots/weather-alerts.ts";

export { ALERT_SEVERITIES, ALERT_STATUSES, ALERT_URGENCIES, areasOf, canonicalOf, isActiveAlert, MARINE_AREAS, NWS_ALERTS_URL, STATE_AREAS, weatherAlert, type WeatherAlert } from "../contract/snapshots/weather-alerts.ts";

/** Request headers NWS expects for the GeoJSON form. */
export const NWS_ACCEPT = "application/geo+json";

/** Content types accepted from NWS (geo+json, ld+json or plain json). */
export const NWS_CONTENT_TYPES = ["json"];

/** The whole national collection can run to several MiB; this caps it well above that. */
export const NWS_MAX_BYTES = 40 * 1024 * 1024;

const text = z.string().nullish().catch(null);
const stringList = z.array(z.string()).nullish().catch(null);

/**
 * The alert identifiers NWS issues: the CAP OID form `urn:oid:2.49.0.1.840.0.<hex digest>.<n>.<n>` (every
 * segment digits or hex), and the older `NWS-IDP-PROD-<n>-<n>`. The id is stored, shown and put in the `web`
 * path, so anything else (markup, a multi-kilobyte string) is not an alert we can name; the length cap is far
 * above the real ~70 characters.
 */
export const NWS_ALERT_ID = /^(?:urn:oid:\d+(?:\.[0-9a-f]+)+|NWS-IDP-PROD-\d+-\d+)$/i;
const NWS_ALERT_ID_MAX = 200;

const properties = z.looseObject({
  "@id": text,
  id: z.string().trim().max(NWS_ALERT_ID_MAX).regex(NWS_ALERT_ID),
  areaDesc: text,
  geocode: z.looseObject({ UGC: stringList, SAME: stringList }).nullish().catch(null),
  affectedZones: stringList,
  sent: z.string(),
  effective: text,
  onset: text,
  expires: text,
  ends: text,
  status: z.string(),
  messageType: text,
  severity: text,
  certainty: text,
  urgency: text,
  event: z.string().min(1),
  senderName: text,
  headline: text,
  parameters: z.record(z.string(), z.unknown()).nullish().catch(null),
});

const feature = z.looseObject({
  id: z.string().nullish().catch(null),
  properties,
});

const collection = z.looseObject({
  type: z.literal("FeatureCollection"),
  features: z.array(z.unknown()),
  title: text,
  updated: text,
});

/** The parts of the collection we read; features that do not have an alert's shape are counted, not kept. */
export interface NwsAlertCollection {
  title: string | null;
  updated: string | null;
  /** Features in the upstream body. */
  featureCount: number;
  features: z.infer<typeof feature>[];
  /** Features skipped because they lacked a required field (id, event, sent, status) or had an id NWS does not issue. */
  unreadable: number;
}

/** The body could not be read as an NWS alert collection. */
export class NwsAlertsParseError extends Error {
  override name = "NwsAlertsParseError";
}

/**
 * An ISO time with an offset → ISO 8601 UTC; undefined when it does not parse or is absurd (before 1990, after
 * year 9999). For times that may lie ahead (expires, ends, effective); a time already past uses `pastTime`.
 */
export function toUtc(value: string | null | undefined): string | undefined {
  return expiryTime(value) ?? undefined;
}

function clean(value: string | null | undefined, maxLength: number): string {
  return value ? sanitize(value, { maxLength }) : "";
}

function firstParameter(parameters: Record<string, unknown> | null | undefined, name: string): string | undefined {
  const value = parameters?.[name];
  const first = Array.isArray(value) ? value[0] : undefined;
  return typeof first === "string" ? first : undefined;
}

const UGC = /^[A-Z]{2}[CZ]\d{3}$/;

function ugcOf(p: z.infer<typeof properties>): string[] {
  const listed = p.geocode?.UGC ?? [];
  const codes = listed.length > 0 ? listed : (p.affectedZones ?? []).map((url) => url.slice(url.lastIndexOf("/") + 1));
  return [...new Set(codes.map((c) => c.trim().toUpperCase()).filter((c) => UGC.test(c)))].sort();
}

const NWS_ALERTS_BASE = "https://api.weather.gov/alerts/";

/**
 * The alert's api.weather.gov document. `@id` and the feature `id` are outside URLs: one pointing anywhere else
 * (another host, `javascript:`, plain http) would be published as our link, so only an https URL on
 * api.weather.gov under /alerts/ is taken; else the URL is built from the identifier, which the schema has
 * already limited to URL-safe characters (NWS's own links carry it unescaped) — so every parsed feature has one.
 */
function webOf(f: z.infer<typeof feature>): string {
  for (const candidate of [f.properties["@id"], f.id]) {
    const url = candidate && URL.canParse(candidate.trim()) ? new URL(candidate.trim()) : null;
    if (url && url.origin === "https://api.weather.gov" && url.username === "" && url.password === "" && url.pathname.startsWith("/alerts/") && url.pathname.length > "/alerts/".length) return url.href;
  }
  return `${NWS_ALERTS_BASE}${f.properties.id}`;
}

/**
 * Normalize one feature fetched at `now`; undefined when it is not a servable alert (Cancel message, unknown
 * status, a `sent` time that is unreadable, before 1990 or more than a day after `now`).
 */
export function normalizeFeature(f: z.infer<typeof feature>, now: Date): WeatherAlert | undefined {
  const p = f.properties;
  if (p.messageType?.trim().toLowerCase() === "cancel") return undefined;
  const status = canonicalOf(ALERT_STATUSES, p.status);
  const sent = pastTime(p.sent, now);
  if (!status || !sent) return undefined;
  const event = clean(p.event, TEXT_MAX.event);
  if (event === "") return undefined;
  const senderName = clean(p.senderName, TEXT_MAX.sender_name);
  const headline =
    clean(p.headline, TEXT_MAX.headline) ||
    clean(firstParameter(p.parameters, "NWSheadline"), TEXT_MAX.headline) ||
    clean(senderName ? `${event} by ${senderName}` : event, TEXT_MAX.headline);
  return {
    id: p.id,
    event,
    severity: canonicalOf(ALERT_SEVERITIES, p.severity) ?? "Unknown",
    urgency: canonicalOf(ALERT_URGENCIES, p.urgency) ?? "Unknown",
    certainty: clean(p.certainty, TEXT_MAX.certainty) || "Unknown",
    headline,
    area_desc: clean(p.areaDesc, TEXT_MAX.area_desc),
    sent,
    effective: toUtc(p.effective) ?? sent,
    expires: toUtc(p.expires) ?? null,
    ends: toUtc(p.ends) ?? null,
    sender_name: senderName,
    status,
    web: webOf(f),
    ugc: ugcOf(p),
  };
}

/** Newest `sent` first, then id: a stable order for snapshots and answers. */
export function compareAlerts(a: WeatherAlert, b: WeatherAlert): number {
  if (a.sent !== b.sent) return a.sent < b.sent ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** api.weather.gov /alerts/active GeoJSON → normalized alerts. */
export const nwsAlertsSource = {
  id: "nws-alerts",
  description: "US National Weather Service active alerts, api.weather.gov/alerts/active (GeoJSON, public domain, User-Agent required)",
  parse(body: string): NwsAlertCollection {
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch (cause) {
      throw new NwsAlertsParseError(`nws-alerts: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
    }
    const parsed = collection.safeParse(json);
    if (!parsed.success) {
      const issues = parsed.error.issues.slice(0, 3).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
      throw new NwsAlertsParseError(`nws-alerts: not a GeoJSON FeatureCollection: ${issues.join("; ")}`, { cause: parsed.error });
    }
    const features: z.infer<typeof feature>[] = [];
    let unreadable = 0;
    for (const raw of parsed.data.features) {
      const f = feature.safeParse(raw);
      if (f.success) features.push(f.data);
      else unreadable += 1;
    }
    return {
      title: parsed.data.title ?? null,
      updated: parsed.data.updated ?? null,
      featureCount: parsed.data.features.length,
      features,
      unreadable,
    };
  },
  normalize(parsed: NwsAlertCollection, ctx: NormalizeContext & { meta: undefined }): WeatherAlert[] {
    const seen = new Set<string>();
    const alerts: WeatherAlert[] = [];
    for (const f of parsed.features) {
      const alert = normalizeFeature(f, ctx.now);
      if (!alert || seen.has(alert.id)) continue;
      seen.add(alert.id);
      alerts.push(alert);
    }
    return alerts.sort(compareAlerts);
  },
  row: weatherAlert,
} satisfies Source<NwsAlertCollection, WeatherAlert, undefined>;
