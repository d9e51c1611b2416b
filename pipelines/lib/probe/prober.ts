/**
 * The latency prober: each target is requested `samplesPerTarget` times in a row (so the later samples show
 * a warm connection, as a client keeping its connection open would see), targets run concurrently. Every
 * request goes through the shared client's `timed()` (its User-Agent, per-host queue, replay and timeout).
 */
import type { HttpClient } from "../types.ts";
import { type ProbeSample, toSample } from "./sample.ts";

/** What to probe. */
export interface ProbeTarget {
  provider: string;
  url: string;
  method: "GET" | "HEAD";
}

export interface ProbeOptions {
  /** Requests per target (default 3). */
  samplesPerTarget?: number;
  /** Wall clock in ms since the epoch, read when each request starts (sample timestamps). */
  clock: () => number;
  /** Per-request timeout in ms (default: the client's). */
  timeoutMs?: number;
}

/** The samples of one target, in the order they were taken. */
export interface TargetSamples<T extends ProbeTarget = ProbeTarget> {
  target: T;
  samples: ProbeSample[];
}

/** The client cannot time requests (it has no `timed()`). */
export class ProbeClientError extends Error {
  override name = "ProbeClientError";
}

/** Probe every target; never rejects because a target failed (failures are samples). */
export async function runProbes<T extends ProbeTarget>(http: HttpClient, targets: readonly T[], options: ProbeOptions): Promise<TargetSamples<T>[]> {
  const timed = http.timed?.bind(http);
  if (!timed) throw new ProbeClientError("probe: the HTTP client given has no timed() method");
  const count = options.samplesPerTarget ?? 3;
  if (!Number.isInteger(count) || count < 1) throw new RangeError(`probe: samplesPerTarget must be a positive integer, got ${count}`);

  return Promise.all(
    targets.map(async (target) => {
      const samples: ProbeSample[] = [];
      let lastTs = Number.NEGATIVE_INFINITY;
      for (let i = 0; i < count; i++) {
        // Timestamps are unique per target (the warehouse key is ts + provider + url).
        const ts = Math.max(Math.floor(options.clock()), lastTs + 1);
        lastTs = ts;
        const result = await timed(target.url, {
          method: target.method,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
        });
        samples.push(toSample(result, new Date(ts).toISOString()));
      }
      return { target, samples };
    }),
  );
}
