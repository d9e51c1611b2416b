/**
 * The `weather-alerts` snapshot: the US National Weather Service's active alerts collection, every alert NWS
 * listed, normalized; the API's live reader answers from it when api.weather.gov cannot be reached. Also the
 * vocabulary (CAP severities, urgencies, statuses, area codes), the in-force rule the API filters by, and the
 * shape of a live source the API's reader is handed.
 */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** The NWS active-alerts endpoint (all areas, all statuses). */
export const NWS_ALERTS_URL = "https://api.weather.gov/alerts/active";

/** CAP severities, most severe first. */
export const ALERT_SEVERITIES = ["Extreme", "Severe", "Moderate", "Minor", "Unknown"] as const;

/** CAP urgencies, most urgent first. */
export const ALERT_URGENCIES = ["Immediate", "Expected", "Future", "Past", "Unknown"] as const;

/** CAP message statuses, capitalised as served. */
export const ALERT_STATUSES = ["Actual", "Exercise", "System", "Test", "Draft"] as const;

/** UGC prefixes of NWS marine areas (coastal, offshore and Great Lakes waters). */
export const MARINE_AREAS = ["AM", "AN", "GM", "LC", "LE", "LH", "LM", "LO", "LS", "PH", "PK", "PM", "PS", "PZ", "SL"] as const;

/** NWS state and territory codes (50 states, DC, and AS, GU, MP, PR, VI, PW, FM, MH). */
export const STATE_AREAS = [
  "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA",
  "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR",
  "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY",
  "AS", "GU", "MP", "PR", "VI", "PW", "FM", "MH",
] as const;

/** Longest kept text per alert field (UTF-16 units). */
export const TEXT_MAX = { event: 120, headline: 400, area_desc: 2000, sender_name: 200, certainty: 40 } as const;

/** One normalized alert: the API's alert shape plus its UGC codes. */
export const weatherAlert = z.strictObject({
  id: z.string().min(1),
  event: z.string().min(1).max(TEXT_MAX.event),
  severity: z.enum(ALERT_SEVERITIES),
  urgency: z.enum(ALERT_URGENCIES),
  certainty: z.string().min(1).max(TEXT_MAX.certainty),
  headline: z.string().min(1).max(TEXT_MAX.headline),
  area_desc: z.string().max(TEXT_MAX.area_desc),
  sent: z.iso.datetime(),
  effective: z.iso.datetime(),
  expires: z.iso.datetime().nullable(),
  ends: z.iso.datetime().nullable(),
  sender_name: z.string().max(TEXT_MAX.sender_name),
  status: z.enum(ALERT_STATUSES),
  web: httpUrl,
  ugc: z.array(z.string().regex(/^[A-Z]{2}[CZ]\d{3}$/)),
});

export type WeatherAlert = z.infer<typeof weatherAlert>;

/** Canonical value of `value` among `allowed`, compared case-insensitively; undefined when none matches. */
export function canonicalOf<T extends string>(allowed: readonly T[], value: string | null | undefined): T | undefined {
  if (value === null || value === undefined) return undefined;
  const wanted = value.trim().toLowerCase();
  return allowed.find((a) => a.toLowerCase() === wanted);
}

/**
 * Whether an alert is in force at `now`: its `expires` is later than now. CAP's `expires` is when the message
 * stops being valid; a hazard that continues gets a new message, so a later `ends` does not extend it. An
 * alert without `expires` is judged by `ends`, and one with neither is kept (NWS listed it as active).
 */
export function isActiveAlert(alert: Pick<WeatherAlert, "expires" | "ends">, now: Date): boolean {
  const until = alert.expires ?? alert.ends;
  return until === null || Date.parse(until) > now.getTime();
}

/** The two-letter areas (state, territory or marine area) an alert's UGC codes fall in. */
export function areasOf(alert: Pick<WeatherAlert, "ugc">): string[] {
  return [...new Set(alert.ugc.map((code) => code.slice(0, 2)))];
}

/** Strict schema of the snapshot body (and of the live reader's in-memory copy). */
export const weatherAlertsSnapshot = z.strictObject({
  title: z.string().nullable(),
  updated: z.iso.datetime().nullable(),
  upstream_count: z.number().int().nonnegative(),
  alerts: z.array(weatherAlert),
});

export type WeatherAlertsSnapshot = z.infer<typeof weatherAlertsSnapshot>;

/** The `weather-alerts` snapshot type. */
export const weatherAlertsSnapshotType = {
  type: "weather-alerts",
  title: "US National Weather Service active alerts",
  // Odd minutes (3, 13, 23 …) keep it off the news feed's 0, 10, 20 ….
  cron: "3-59/10 * * * *",
  cadence: "every 10 minutes",
  slaSeconds: 3600,
  schema: weatherAlertsSnapshot,
} satisfies SnapshotType<WeatherAlertsSnapshot>;

/**
 * A live source of the collection, as the API's reader takes it (the composition root, api/server.ts, hands
 * it one built on the pipelines' HTTP client and NWS parser).
 */
export interface WeatherAlertsSource {
  /** The upstream URL it reads. */
  readonly url: string;
  /** One read of the whole collection, normalized to the snapshot's shape; throws on any failure. */
  fetch(now: Date): Promise<WeatherAlertsSnapshot>;
  /** A short, public reason for a failed read (no URLs, no stack). */
  describeFailure(error: unknown): string;
}
