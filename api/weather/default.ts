/**
 * The process-wide weather alerts reader the registered route uses. Its live source is wired in by the
 * composition root (api/server.ts: the pipelines' NWS source pointed at WEATHER_ALERTS_URL, default the NWS
 * active-alerts endpoint, so a deployment or an end-to-end test can aim it at a mirror or a local server).
 * An app built without one (documents, benchmarks, in-process tests) answers from the stored snapshot.
 */
import { NWS_ALERTS_URL, type WeatherAlertsSource } from "../../pipelines/contract/snapshots/weather-alerts.ts";
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

/** Thrown by the placeholder source: no live source was wired into this process. */
export class NoLiveWeatherSourceError extends Error {
  override name = "NoLiveWeatherSourceError";
}

let wired: WeatherAlertsSource | undefined;

/** The source the process-wide reader delegates to: the wired one, else one that always fails. */
const delegate: WeatherAlertsSource = {
  get url() {
    return wired?.url ?? weatherAlertsUrlFrom(process.env);
  },
  fetch(now) {
    if (!wired) return Promise.reject(new NoLiveWeatherSourceError("no live weather source is wired into this process"));
    return wired.fetch(now);
  },
  describeFailure(error) {
    if (error instanceof NoLiveWeatherSourceError) return "no live upstream on this instance";
    return wired ? wired.describeFailure(error) : "upstream read failed";
  },
};

/**
 * Wire the live source (the reader's cached copy is dropped); returns the function that unwires it again,
 * unless another source was wired since.
 */
export function wireWeatherAlertsSource(source: WeatherAlertsSource): () => void {
  wired = source;
  weatherAlertsReader.reset();
  return () => {
    if (wired !== source) return;
    wired = undefined;
    weatherAlertsReader.reset();
  };
}

/** The reader the registered route uses. */
export const weatherAlertsReader: WeatherAlertsReader = createWeatherAlertsReader({ source: delegate });
