/**
 * GET /api/climate/weather-alerts: US National Weather Service active alerts, read at request time through
 * the live reader (api/weather/reader.ts: 60-second cache, fallback to the last good copy or the
 * `weather-alerts` snapshot). A `handle` route, so the static-first cache never holds it. Filters apply to
 * the one cached national collection; only alerts still in force at answer time are served.
 */
import { z } from "zod";
import {
  ALERT_SEVERITIES,
  ALERT_STATUSES,
  ALERT_URGENCIES,
  MARINE_AREAS,
  STATE_AREAS,
  areasOf,
  canonicalOf,
  isActiveAlert,
  weatherAlertsSnapshotType,
  type WeatherAlert,
  type WeatherAlertsSnapshot,
} from "../../pipelines/contract/snapshots/weather-alerts.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RouteDef } from "../registry/types.ts";
import { weatherAlertsReader } from "../weather/default.ts";
import { type AlertsCopy, type WeatherAlertsReader, WeatherAlertsUnavailableError } from "../weather/reader.ts";

/** Alerts returned when `limit` is not given. */
export const DEFAULT_LIMIT = 100;
/** Largest `limit`. */
export const MAX_LIMIT = 500;
/** Status values as the query takes them (lowercase, as the spec lists them). */
export const QUERY_STATUSES = ALERT_STATUSES.map((s) => s.toLowerCase());
/** Every accepted `area`: states and territories, then marine areas. */
export const ALLOWED_AREAS: readonly string[] = [...STATE_AREAS, ...MARINE_AREAS];

/** What `attribution` says. */
export const WEATHER_ATTRIBUTION = {
  source: "US National Weather Service (NOAA), api.weather.gov active alerts",
  license: "Public domain: a work of the US Government, not subject to copyright in the United States",
  redistribution:
    "Free to redistribute. Not an official NWS product or endorsement; check weather.gov or local NWS offices for life-safety decisions.",
} as const;

/** One of `allowed`, matched case-insensitively; a bad value fails with the allowed list in the message. */
function oneOf<T extends string>(name: string, allowed: readonly T[], description: string) {
  return z
    .string()
    .meta({ description, examples: [allowed[0]] })
    .transform((value, ctx) => {
      const canonical = canonicalOf(allowed, value);
      if (canonical === undefined) {
        ctx.addIssue({
          code: "custom",
          message: `${name} must be one of ${allowed.join(", ")} (case-insensitive), got ${JSON.stringify(value)}`,
          params: { allowed },
        });
        return z.NEVER;
      }
      return canonical;
    });
}

/** Query of GET /api/climate/weather-alerts; unknown parameters are refused. */
export const WeatherAlertsQuery = z.strictObject({
  area: oneOf(
    "area",
    ALLOWED_AREAS,
    `Two-letter state or territory code (${STATE_AREAS.join(", ")}) or NWS marine area (${MARINE_AREAS.join(", ")}); case-insensitive. Matches alerts with a UGC zone or county in that area.`,
  ).optional(),
  event: z
    .string()
    .trim()
    .min(1, "event must not be empty")
    .max(120, "event must be at most 120 characters")
    .optional()
    .meta({ description: "Exact NWS event name, e.g. Winter Storm Warning; compared case-insensitively, no partial matches.", examples: ["Flood Warning"] }),
  severity: oneOf("severity", ALERT_SEVERITIES, `One of ${ALERT_SEVERITIES.join(", ")} (case-insensitive).`).optional(),
  urgency: oneOf("urgency", ALERT_URGENCIES, `One of ${ALERT_URGENCIES.join(", ")} (case-insensitive).`).optional(),
  status: oneOf("status", QUERY_STATUSES, `Message status: ${QUERY_STATUSES.join(", ")} (case-insensitive). Unset: every status, Test and Exercise included.`).optional(),
  limit: z.coerce
    .number()
    .int("limit must be an integer")
    .min(1, "limit must be between 1 and 500")
    .max(MAX_LIMIT, "limit must be between 1 and 500")
    .optional()
    .meta({ description: `Alerts to return, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
});
export type WeatherAlertsQueryInput = z.infer<typeof WeatherAlertsQuery>;

/** One alert as served (the spec's alert fields, no zone codes). */
export const WeatherAlertResponse = z.strictObject({
  id: z.string(),
  event: z.string().meta({ description: "Canonical NWS event name" }),
  severity: z.enum(ALERT_SEVERITIES),
  urgency: z.enum(ALERT_URGENCIES),
  certainty: z.string(),
  headline: z.string(),
  area_desc: z.string(),
  sent: z.iso.datetime(),
  effective: z.iso.datetime(),
  expires: z.iso.datetime().nullable(),
  ends: z.iso.datetime().nullable(),
  sender_name: z.string(),
  status: z.enum(ALERT_STATUSES).meta({ description: "CAP message status, capitalised" }),
  web: z.url().meta({ description: "The alert's own document at api.weather.gov" }),
});
export type WeatherAlertOut = z.infer<typeof WeatherAlertResponse>;

/** Body of GET /api/climate/weather-alerts. */
export const WeatherAlertsResponse = z.strictObject({
  ok: z.literal(true),
  tier: z.literal("free"),
  source: z.enum(["live", "stale", "snapshot"]).meta({
    description: "live: read from NWS within the last 60 s; stale: NWS failed, last live copy in memory; snapshot: NWS failed, the scheduled pipeline's stored copy.",
  }),
  fetched_at: z.iso.datetime().meta({ description: "When the served copy was read from NWS" }),
  stale: z
    .strictObject({
      age_seconds: z.number().int().nonnegative(),
      reason: z.string().meta({ description: "Why the live read failed" }),
    })
    .nullable()
    .meta({ description: "null for a live answer; otherwise how old the copy is and why NWS was not read" }),
  query: z.strictObject({
    area: z.string().nullable(),
    event: z.string().nullable(),
    severity: z.enum(ALERT_SEVERITIES).nullable(),
    urgency: z.enum(ALERT_URGENCIES).nullable(),
    status: z.string().nullable(),
    limit: z.number().int().nullable(),
  }),
  feed_metadata: z.strictObject({
    title: z.string().nullable(),
    updated: z.iso.datetime().nullable().meta({ description: "The NWS collection's own update time" }),
    upstream_count: z.number().int().nonnegative().meta({ description: "Features in the NWS collection, before any filtering" }),
  }),
  count: z.number().int().nonnegative(),
  matched: z.number().int().nonnegative().meta({ description: "Active alerts matching the filters before limit" }),
  alerts: z.array(WeatherAlertResponse),
  attribution: z.strictObject({ source: z.string(), license: z.string(), redistribution: z.string() }),
  allowed: z.strictObject({
    severities: z.array(z.string()),
    urgencies: z.array(z.string()),
    statuses: z.array(z.string()),
  }),
});
export type WeatherAlertsBody = z.infer<typeof WeatherAlertsResponse>;

/** Active alerts of the collection matching the query, in collection order (newest sent first). */
export function selectAlerts(collection: WeatherAlertsSnapshot, query: WeatherAlertsQueryInput, now: Date): WeatherAlert[] {
  const event = query.event?.toLowerCase();
  const status = query.status === undefined ? undefined : canonicalOf(ALERT_STATUSES, query.status);
  return collection.alerts.filter(
    (a) =>
      isActiveAlert(a, now) &&
      (query.area === undefined || areasOf(a).includes(query.area)) &&
      (event === undefined || a.event.toLowerCase() === event) &&
      (query.severity === undefined || a.severity === query.severity) &&
      (query.urgency === undefined || a.urgency === query.urgency) &&
      (status === undefined || a.status === status),
  );
}

/** The response body for a copy of the collection and a validated query. */
export function renderWeatherAlerts(copy: AlertsCopy, query: WeatherAlertsQueryInput): WeatherAlertsBody {
  const matched = selectAlerts(copy.collection, query, copy.now);
  const alerts = matched.slice(0, query.limit ?? DEFAULT_LIMIT).map(({ ugc: _ugc, ...alert }) => alert);
  return {
    ok: true,
    tier: "free",
    source: copy.origin,
    fetched_at: copy.fetchedAt.toISOString(),
    stale: copy.origin === "live" ? null : { age_seconds: copy.ageSeconds, reason: copy.reason ?? "upstream read failed" },
    query: {
      area: query.area ?? null,
      event: query.event ?? null,
      severity: query.severity ?? null,
      urgency: query.urgency ?? null,
      status: query.status ?? null,
      limit: query.limit ?? null,
    },
    feed_metadata: {
      title: copy.collection.title,
      updated: copy.collection.updated,
      upstream_count: copy.collection.upstream_count,
    },
    count: alerts.length,
    matched: matched.length,
    alerts,
    attribution: { ...WEATHER_ATTRIBUTION },
    allowed: { severities: [...ALERT_SEVERITIES], urgencies: [...ALERT_URGENCIES], statuses: [...QUERY_STATUSES] },
  };
}

const DESCRIPTION = [
  "Active US National Weather Service alerts (watches, warnings, advisories, statements), read from api.weather.gov at request time.",
  "One national GET /alerts/active is cached for 60 seconds and every query filters that copy.",
  "Only alerts in force are served: an alert is dropped once its expires time has passed (ends does not extend it; CAP expires is when the message stops being valid and NWS issues a new one if the hazard continues); cancellation messages are never served.",
  "area matches the first two letters of each alert's UGC zone and county codes, so a state code covers its land zones and a marine area code (e.g. GM, PZ) its waters; event is an exact name compared case-insensitively; severity, urgency and status accept any letter case and are echoed in canonical form (status lowercase, as the query takes it).",
  "Unset filters are null in query; with no status filter every status is served, Test and Exercise included (each alert carries its status). limit defaults to 100; matched counts every matching active alert.",
  "Alerts are ordered newest sent first. When NWS cannot be read, the newest earlier copy answers (source stale: the last live copy in memory; source snapshot: the copy the weather-alerts pipeline stores every 10 minutes) with stale.age_seconds and stale.reason; with no copy at all the answer is 503 upstream_unavailable.",
  "headline, area_desc, event, certainty and sender_name pass the text sanitizer; web is the alert's own api.weather.gov URL.",
].join(" ");

/** The route family for a given reader (tests pass their own; the app uses the process-wide one). */
export function createWeatherAlertsRoutes(reader: WeatherAlertsReader): RouteDef<WeatherAlertsQueryInput, Record<string, never>, WeatherAlertsBody>[] {
  return [
    defineRoute({
      method: "GET",
      path: "/api/climate/weather-alerts",
      tier: "free",
      summary: "Active US National Weather Service alerts, live with a 60-second cache, filterable by area, event, severity, urgency and status.",
      description: DESCRIPTION,
      tags: ["climate"],
      query: WeatherAlertsQuery,
      response: WeatherAlertsResponse,
      // Not listed as a required snapshot: the route answers live without it; the reader uses
      // `weather-alerts` only as a fallback copy.
      snapshots: [],
      errors: { 503: "upstream_unavailable: the National Weather Service cannot be read and no earlier copy is held yet." },
      freshness: { cadence: "live, cached 60 seconds (fallback snapshot every 10 minutes)", slaSeconds: weatherAlertsSnapshotType.slaSeconds },
      handle: async (ctx, { query }) => {
        let copy: AlertsCopy;
        try {
          copy = await reader.read(ctx.snapshots);
        } catch (error) {
          if (error instanceof WeatherAlertsUnavailableError) {
            throw new ApiError(
              503,
              "upstream_unavailable",
              `the National Weather Service could not be read (${error.reason}) and no earlier copy is held yet; try again shortly`,
            );
          }
          throw error;
        }
        return renderWeatherAlerts(copy, query);
      },
    }),
  ];
}

/** /api/climate/weather-alerts on the process-wide reader (WEATHER_ALERTS_URL). */
export const weatherAlertsRoutes = createWeatherAlertsRoutes(weatherAlertsReader);
