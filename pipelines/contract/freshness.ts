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
  return (ageMs(meta, now) ?? 0) < -CLOCK_SKEW_TOLERANCE_SECONDS * 1000;
}

/** Milliseconds from lastSuccess to `now` (negative when it lies ahead), or null when there is none readable. */
function ageMs(meta: Pick<SnapshotMeta, "lastSuccess">, now: Date): number | null {
  const at = meta.lastSuccess ? Date.parse(meta.lastSuccess) : Number.NaN;
  return Number.isNaN(at) ? null : now.getTime() - at;
}

/** Seconds since the last successful run; null when the type never succeeded or its lastSuccess is {@link aheadOfClock}. */
export function ageSeconds(meta: Pick<SnapshotMeta, "lastSuccess">, now: Date): number | null {
  const ms = ageMs(meta, now);
  if (ms === null || ms < -CLOCK_SKEW_TOLERANCE_SECONDS * 1000) return null;
  return Math.max(0, ms / 1000);
}

/** True when the type never succeeded, its last success is older than its SLA, or it lies ahead of the clock. */
export function isStale(meta: Pick<SnapshotMeta, "lastSuccess" | "slaSeconds">, now: Date): boolean {
  const age = ageSeconds(meta, now);
  return age === null || age > meta.slaSeconds;
}
