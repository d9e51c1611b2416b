/**
 * When a snapshot is too old for a route: the one rule the premium wrapper charges by (stale_data), /api/meta
 * reports (`freshness.stale`) and /.well-known/agent-fair-trade.json publishes. A route's freshness SLA holds the
 * snapshot types it names in `freshness.appliesTo` (every type it reads when it names none); any other type it
 * reads is held to its own feed's SLA (the type's `slaSeconds` in the snapshot contract and manifest), so a route
 * keyed to a feed that runs every two minutes does not hold the daily one beside it to minutes. A route that
 * declares no SLA holds each snapshot to its feed's; one that declares `chargedWhenStale` (its answer does not age
 * with its data) is never stale.
 */
import { ageSeconds } from "../../pipelines/contract/freshness.ts";
import { snapshotTypes } from "../../pipelines/contract/snapshots/index.ts";
import type { RouteDef, SnapshotReader } from "./types.ts";

type FreshnessOf = Pick<RouteDef<any, any, any>, "freshness" | "chargedWhenStale">;

/** The age in seconds beyond which snapshot `type`, whose feed promises `feedSlaSeconds`, is stale for `route`. */
export function slaFor(route: FreshnessOf, type: string, feedSlaSeconds: number): number {
  if (route.chargedWhenStale) return Number.POSITIVE_INFINITY;
  const own = route.freshness;
  if (own && (own.appliesTo === undefined || own.appliesTo.includes(type))) return own.slaSeconds;
  return feedSlaSeconds;
}

/** The SLA of each snapshot type the route reads (a type the contract does not name: the route's own); none for `chargedWhenStale`. */
export function contractSlas(route: FreshnessOf & Pick<RouteDef<any, any, any>, "snapshots">): { type: string; slaSeconds: number }[] {
  if (route.chargedWhenStale) return [];
  return (route.snapshots ?? []).map((type) => {
    const feed = (snapshotTypes as Record<string, { slaSeconds: number } | undefined>)[type]?.slaSeconds;
    return { type, slaSeconds: slaFor(route, type, feed ?? route.freshness?.slaSeconds ?? 0) };
  });
}

/** A snapshot that is stale for a route. */
export interface StaleSnapshot {
  type: string;
  last_success: string | null;
  age_seconds: number | null;
  sla_seconds: number;
}

/** Snapshots the route reads that are older than their SLA for it ({@link slaFor}), judged by each type's manifest lastSuccess. */
export function staleSnapshots(
  route: FreshnessOf & Pick<RouteDef<any, any, any>, "snapshots">,
  snapshots: SnapshotReader,
  now: Date,
): StaleSnapshot[] {
  const out: StaleSnapshot[] = [];
  for (const type of route.snapshots ?? []) {
    const meta = snapshots.get(type)?.meta;
    if (!meta) continue; // a missing snapshot is answered 503 before the handler runs
    const sla = slaFor(route, type, meta.slaSeconds);
    const age = ageSeconds(meta, now);
    if (age === null || age > sla) {
      out.push({ type, last_success: meta.lastSuccess, age_seconds: age === null ? null : Math.round(age), sla_seconds: sla });
    }
  }
  return out;
}
