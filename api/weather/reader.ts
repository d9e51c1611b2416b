/**
 * The live reader behind /api/climate/weather-alerts, the one free route that reads its upstream at request
 * time. One unfiltered GET of the NWS active-alerts collection is kept in memory for 60 seconds and every
 * query filters that copy, so all queries share one cache entry and one upstream request per minute.
 *
 * The live reads go through the source the reader is given (api/server.ts wires in the pipelines' NWS source:
 * the shared HTTP client, one retry). When the upstream fails, the answer comes from the newest good copy
 * there is: the last live copy in memory (`stale`) or the `weather-alerts` snapshot the scheduled pipeline
 * stored (`snapshot`), with its age and the reason. After a failure the upstream is not asked again for
 * `retryAfterFailureMs`, so a dead upstream does not slow every request down. With no copy at all the reader
 * throws WeatherAlertsUnavailableError. Concurrent misses share one upstream request.
 */
import {
  weatherAlertsSnapshot,
  weatherAlertsSnapshotType,
  type WeatherAlertsSnapshot,
  type WeatherAlertsSource,
} from "../../pipelines/contract/snapshots/weather-alerts.ts";
import type { SnapshotReader } from "../registry/types.ts";

/** Where an answer's copy came from. */
export type AlertsOrigin = "live" | "stale" | "snapshot";

/** A copy of the collection as the route serves it. */
export interface AlertsCopy {
  origin: AlertsOrigin;
  /** Every alert NWS listed (not yet filtered for active-ness). */
  collection: WeatherAlertsSnapshot;
  /** When this copy was read from NWS (for a snapshot: the pipeline's last success). */
  fetchedAt: Date;
  /** The reader's clock at answer time; active-ness is judged against it. */
  now: Date;
  /** Whole seconds between fetchedAt and now (never negative). */
  ageSeconds: number;
  /** Why the live read failed; null for a live copy. */
  reason: string | null;
}

/** Options of {@link createWeatherAlertsReader}. */
export interface WeatherAlertsReaderOptions {
  /** Where live copies come from (the composition root passes the pipelines' NWS source). */
  source: WeatherAlertsSource;
  /** Clock in ms since the epoch (default Date.now); tests inject fake time. */
  now?: () => number;
  /** How long a live copy answers without asking upstream (default 60000 ms, the spec's 60-second cache). */
  ttlMs?: number;
  /** After a failed upstream read, how long to answer from a fallback copy before trying again (default 15000 ms). */
  retryAfterFailureMs?: number;
}

/** The reader one app holds. */
export interface WeatherAlertsReader {
  readonly url: string;
  /** The current copy: cached live, fresh live, or a fallback; `snapshots` supplies the pipeline's copy. */
  read(snapshots?: SnapshotReader): Promise<AlertsCopy>;
  /** Forget the in-memory copy and the failure pause (tests, or an operator reload). */
  reset(): void;
}

/** Neither the upstream nor any stored copy can answer. */
export class WeatherAlertsUnavailableError extends Error {
  override name = "WeatherAlertsUnavailableError";
  constructor(
    message: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

interface Held {
  collection: WeatherAlertsSnapshot;
  at: number;
}

/** Build a reader; create one per app (it owns the cache). */
export function createWeatherAlertsReader(options: WeatherAlertsReaderOptions): WeatherAlertsReader {
  const { source } = options;
  const now = options.now ?? Date.now;
  const ttlMs = options.ttlMs ?? 60_000;
  const retryAfterFailureMs = options.retryAfterFailureMs ?? 15_000;

  let good: Held | undefined;
  let failure: { at: number; reason: string } | undefined;
  let inflight: Promise<Held> | undefined;

  const copy = (held: Held, origin: AlertsOrigin, reason: string | null, t: number): AlertsCopy => ({
    origin,
    collection: held.collection,
    fetchedAt: new Date(held.at),
    now: new Date(t),
    ageSeconds: Math.max(0, Math.floor((t - held.at) / 1000)),
    reason,
  });

  function refresh(): Promise<Held> {
    inflight ??= (async () => {
      const collection = await source.fetch(new Date(now()));
      const held = { collection, at: now() };
      good = held;
      failure = undefined;
      return held;
    })().finally(() => {
      inflight = undefined;
    });
    return inflight;
  }

  function fromSnapshot(snapshots: SnapshotReader | undefined): Held | undefined {
    const loaded = snapshots?.get(weatherAlertsSnapshotType.type);
    const success = loaded?.meta.lastSuccess;
    if (!loaded || !success) return undefined;
    const at = Date.parse(success);
    const parsed = weatherAlertsSnapshot.safeParse(loaded.data);
    return parsed.success && !Number.isNaN(at) ? { collection: parsed.data, at } : undefined;
  }

  return {
    get url() {
      return source.url;
    },
    reset() {
      good = undefined;
      failure = undefined;
    },
    async read(snapshots) {
      const start = now();
      if (good && start - good.at < ttlMs) return copy(good, "live", null, start);

      let reason = failure && start - failure.at < retryAfterFailureMs ? failure.reason : undefined;
      let cause: unknown;
      if (reason === undefined) {
        try {
          const held = await refresh();
          return copy(held, "live", null, now());
        } catch (error) {
          cause = error;
          reason = source.describeFailure(error);
          failure = { at: now(), reason };
        }
      }

      const t = now();
      const stored = fromSnapshot(snapshots);
      const candidates: [Held, AlertsOrigin][] = [];
      if (good) candidates.push([good, "stale"]);
      if (stored) candidates.push([stored, "snapshot"]);
      candidates.sort((a, b) => b[0].at - a[0].at);
      const best = candidates[0];
      if (best) return copy(best[0], best[1], reason, t);
      throw new WeatherAlertsUnavailableError(
        `weather alerts: ${source.url} failed (${reason}) and there is no earlier copy, live or snapshot`,
        reason,
        cause === undefined ? undefined : { cause },
      );
    },
  };
}
