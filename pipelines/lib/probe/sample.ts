/**
 * One latency sample as stored in the `probe` snapshot and the `probe_samples` warehouse table, and the rule
 * that decides whether a provider was up: any HTTP answer below 500, read to its end, counts as up (a 401 or
 * 403 to an unauthenticated request is a real, timed answer from the provider's API front end); a 5xx, a
 * timeout or a network failure counts as down.
 */
import type { TimedResponse } from "../types.ts";
import type { ProbeError, ProbeSample } from "../../contract/snapshots/probe.ts";

export { probeError, type ProbeError, probeSample, type ProbeSample } from "../../contract/snapshots/probe.ts";

/** The up rule: an answer read to its end with a status below 500. */
export function isUp(result: Pick<TimedResponse, "ok" | "status">): boolean {
  return result.ok && result.status !== null && result.status < 500;
}

/** A timed response → a sample stamped `ts`. */
export function toSample(result: TimedResponse, ts: string): ProbeSample {
  const ok = isUp(result);
  const error: ProbeError | undefined = ok ? undefined : (result.error ?? "http_status");
  return {
    ts,
    status: result.status,
    ok,
    ttfb_ms: result.ttfbMs,
    total_ms: result.totalMs,
    ...(error === undefined ? {} : { error }),
  };
}
