/** Freshness is computed from the manifest, never stored: stale once `slaSeconds` have passed since lastSuccess. */
import type { SnapshotMeta } from "./snapshot-meta.ts";

/**
 * How far ahead of the reader's clock a lastSuccess may lie and still be read as "just now": the clocks of the
 * host that ran the pipeline and of the host that reads its snapshots differ a little. Beyond it a clock is wrong
 * and the data's age is unknown, so it is never fresh.
 */
export const CLOCK_SKEW_TOLERANCE_SECONDS = 120;

/** True when lastSuccess lies further ahead of `now` than {@link CLOCK_SKEW_TOLERANCE_SECONDS}. */
export function aheadOfClock(meta: Pick<SnapshotMeta, "lastSuccess">, now: Date): boolean {
  const at = meta.lastSuccess ? Date.parse(meta.lastSuccess) : Number.NaN;
  return !Number.isNaN(at) && at - now.getTime() > CLOCK_SKEW_TOLERANCE_SECONDS * 1000;
}

/** Seconds since the last successful run; null when the type never succeeded or its lastSuccess is {@link aheadOfClock}. */
export function ageSeconds(meta: Pick<SnapshotMeta, "lastSuccess">, now: Date): number | null {
  if (!meta.lastSuccess) return null;
  const at = Date.parse(meta.lastSuccess);
  if (Number.isNaN(at) || aheadOfClock(meta, now)) return null;
  return Math.max(0, (now.getTime() - at) / 1000);
}

/** True when the type never succeeded, its last success is older than its SLA, or it lies ahead of the clock. */
export function isStale(meta: Pick<SnapshotMeta, "lastSuccess" | "slaSeconds">, now: Date): boolean {
  const age = ageSeconds(meta, now);
  return age === null || age > meta.slaSeconds;
}
