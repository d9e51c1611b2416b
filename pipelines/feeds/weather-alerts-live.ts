/**
 * The live source of NWS active alerts the API's reader is handed (api/server.ts wires it in): one GET of the
 * collection through the shared HTTP client (short timeout, one retry, no disk cache), normalized exactly as
 * the `weather-alerts` feed does, and a short public reason for a failed read.
 */
import { NWS_ALERTS_URL, type WeatherAlertsSource } from "../contract/snapshots/weather-alerts.ts";
import { HttpError, createHttpClient } from "../lib/http/client.ts";
import type { HttpClient } from "../lib/types.ts";
import { NwsAlertsParseError } from "../sources/nws-alerts.ts";
import { fetchWeatherAlerts } from "./weather-alerts.ts";

/** Options of {@link createLiveWeatherSource}. */
export interface LiveWeatherSourceOptions {
  /** Upstream URL (default the NWS active-alerts endpoint). */
  url?: string;
  /** HTTP client (default: the shared client with a short timeout, one retry and no disk cache). */
  http?: HttpClient;
  /** Per-attempt upstream timeout in ms for the default client (default 8000). */
  timeoutMs?: number;
}

/** A short, public reason for a failed upstream read (no URLs, no stack). */
export function describeFailure(error: unknown): string {
  if (error instanceof HttpError) {
    switch (error.code) {
      case "http_status":
        return `upstream answered HTTP ${error.status ?? "error"}`;
      case "timeout":
        return "upstream timed out";
      case "network":
        return "upstream unreachable";
      case "circuit_open":
        return "upstream paused after repeated failures";
      case "too_large":
        return "upstream body too large";
      case "wrong_content_type":
      case "malformed_body":
        return "upstream body unreadable";
      case "replay_missing":
        return "no recorded upstream response";
    }
  }
  if (error instanceof NwsAlertsParseError) return "upstream body unreadable";
  return "upstream read failed";
}

/** The live NWS source over `url`. */
export function createLiveWeatherSource(options: LiveWeatherSourceOptions = {}): WeatherAlertsSource {
  const url = options.url ?? NWS_ALERTS_URL;
  const http =
    options.http ??
    createHttpClient({ timeoutMs: options.timeoutMs ?? 8_000, retries: 1, backoffInitialMs: 250, backoffMaxMs: 1_000, cacheDir: false, breakerCooldownMs: 30_000 });
  return {
    url,
    fetch: async (now) => (await fetchWeatherAlerts(http, url, now)).collection,
    describeFailure,
  };
}
