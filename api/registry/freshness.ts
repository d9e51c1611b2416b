/**
 * When a snapshot is too old for a route: the one rule the premium wrapper charges by (stale_data), /api/meta
 * reports (`freshness.stale`) and /.well-known/agent-fair-trade.json publishes. Each snapshot a route reads is
 * judged against the route's freshness SLA, but never a shorter one than its own feed's (the type's `slaSeconds`
 * in the snapshot contract and manifest): a route reading a feed that runs daily beside one that runs every two
 * minutes cannot hold the daily one to minutes. A route that declares no SLA holds each snapshot to its feed's.
 */
import { snapshotTypes } from "../../pipelines/contract/snapshots/index.ts";
import type { RouteDef } from "./types.ts";

/** The age in seconds beyond which a snapshot whose feed promises `feedSlaSeconds` is stale for `route`. */
export function slaFor(route: Pick<RouteDef<any, any, any>, "freshness" | "chargedWhenStale">, feedSlaSeconds: number): number {
  if (route.chargedWhenStale) return Number.POSITIVE_INFINITY;
  return Math.max(route.freshness?.slaSeconds ?? 0, feedSlaSeconds);
}

/** The SLA of each snapshot type the route reads, from the snapshot contract (a type it does not name: the route's own); none for `chargedWhenStale`. */
export function contractSlas(route: Pick<RouteDef<any, any, any>, "freshness" | "snapshots" | "chargedWhenStale">): { type: string; slaSeconds: number }[] {
  if (route.chargedWhenStale) return [];
  return (route.snapshots ?? []).map((type) => {
    const feed = (snapshotTypes as Record<string, { slaSeconds: number } | undefined>)[type]?.slaSeconds;
    return { type, slaSeconds: slaFor(route, feed ?? 0) };
  });
}
