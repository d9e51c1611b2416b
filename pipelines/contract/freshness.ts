/** Freshness is computed from the manifest, never stored: stale once `slaSeconds` have passed since lastSuccess. */
import type { SnapshotMeta } from "./snapshot-meta.ts";

/** Seconds since the last successful run, or null when the type never succeeded. */
export function ageSeconds(meta: Pick<SnapshotMeta, "lastSuccess">, now: Date): number | null {
  if (!meta.lastSuccess) return null;
  const at = Date.parse(meta.lastSuccess);
  if (Number.isNaN(at)) return null;
  return Math.max(0, (now.getTime() - at) / 1000);
}

/** True when the type never succeeded or its last success is older than its SLA. */
export function isStale(meta: Pick<SnapshotMeta, "lastSuccess" | "slaSeconds">, now: Date): boolean {
  const age = ageSeconds(meta, now);
  return age === null || age > meta.slaSeconds;
}
