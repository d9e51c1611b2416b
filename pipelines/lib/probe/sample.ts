/**
 * One latency sample as stored in the `probe` snapshot and the `probe_samples` warehouse table, and the rule
 * that decides whether a provider was up: any HTTP answer below 500, read to its end, counts as up (a 401 or
 * 403 to an unauthenticated request is a real, timed answer from the provider's API front end); a 5xx, a
 * timeout or a network failure counts as down.
 */
import { z } from "zod";
import type { TimedResponse } from "../types.ts";

/** Why a sample is not up. `http_status` is a 5xx answer (its code is in `status`). */
export const probeError = z.enum(["timeout", "network", "too_large", "replay_missing", "http_status"]);
export type ProbeError = z.infer<typeof probeError>;

/** One sample. `ok` is the up rule above; timings in milliseconds, one decimal. */
export const probeSample = z.strictObject({
  /** When the request was sent (ISO, millisecond precision; unique per provider). */
  ts: z.iso.datetime(),
  /** HTTP status, null when no answer arrived. */
  status: z.number().int().min(100).max(599).nullable(),
  ok: z.boolean(),
  /** Time to the response headers, null when none arrived. */
  ttfb_ms: z.number().nonnegative().nullable(),
  /** Time to the end of the body, or to the failure. */
  total_ms: z.number().nonnegative(),
  error: probeError.optional(),
});
export type ProbeSample = z.infer<typeof probeSample>;

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
