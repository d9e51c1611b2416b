/**
 * The process-wide weather alerts reader: one per app, pointed at WEATHER_ALERTS_URL (default the NWS
 * active-alerts endpoint) so a deployment or an end-to-end test can aim it at a mirror or a local server.
 */
import { NWS_ALERTS_URL } from "../../pipelines/sources/nws-alerts.ts";
import { createWeatherAlertsReader, type WeatherAlertsReader } from "./reader.ts";

/** WEATHER_ALERTS_URL, checked: an absolute http(s) URL, else the NWS endpoint when unset or empty. */
export function weatherAlertsUrlFrom(env: Record<string, string | undefined>): string {
  const raw = env.WEATHER_ALERTS_URL?.trim();
  if (!raw) return NWS_ALERTS_URL;
  if (!/^https?:\/\//i.test(raw) || !URL.canParse(raw)) {
    throw new Error(`WEATHER_ALERTS_URL must be an absolute http(s) URL, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** The reader the registered route uses. */
export const weatherAlertsReader: WeatherAlertsReader = createWeatherAlertsReader({
  url: weatherAlertsUrlFrom(process.env),
});
