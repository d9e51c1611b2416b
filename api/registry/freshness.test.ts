import { describe, expect, it } from "vitest";
import { freshnessOf } from "../docs/endpoints.ts";
import { endpointOutcomes } from "../routes/fair-trade.ts";
import type { AnyRoute, SnapshotMeta, SnapshotReader } from "./types.ts";
import { contractSlas, slaFor, staleSnapshots } from "./freshness.ts";

const now = new Date("2026-11-20T12:00:00Z");
const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000).toISOString();
const meta = (type: string, slaSeconds: number, lastSuccess: string | null): SnapshotMeta =>
  ({ type, date: "2026-11-20", generatedAt: lastSuccess ?? "", lastSuccess, lastAttempt: lastSuccess, lastError: null, rows: 1, provenance: "live", slaSeconds, cadence: "c", sources: [] }) as unknown as SnapshotMeta;

/** A reader holding only the manifest entries given. */
const routeSnapshots = (metas: Record<string, SnapshotMeta>): SnapshotReader => ({
  get: (type: string) => (metas[type] ? ({ meta: metas[type], body: {} } as never) : undefined),
  types: () => Object.keys(metas),
  dates: () => [],
  dated: async () => undefined,
});

describe("route freshness", () => {
  // status every 2 minutes (SLA 600 s), prices hourly (7200 s), benchmarks daily (2 days).
  const metas = { status: meta("status", 600, hoursAgo(0.05)), pricing: meta("pricing", 7200, hoursAgo(1)), benchmarks: meta("benchmarks", 172_800, hoursAgo(20)) };
  const reader = routeSnapshots(metas);
  const routing = { snapshots: ["pricing", "benchmarks", "status"], freshness: { cadence: "c", slaSeconds: 600, appliesTo: ["status"] } } as unknown as AnyRoute;

  it("holds the types the route's SLA applies to by it, and the others by their own feed's", () => {
    expect(slaFor(routing, "status", 600)).toBe(600);
    expect(slaFor(routing, "benchmarks", 172_800)).toBe(172_800);
    // A daily feed refreshed 20 h ago is fresh for a route keyed to a 10-minute feed.
    expect(staleSnapshots(routing, reader, now)).toEqual([]);
    expect(freshnessOf(routing, reader, now)?.stale).toBe(false);
    const later = new Date(now.getTime() + 900_000);
    expect(staleSnapshots(routing, reader, later).map((s) => [s.type, s.sla_seconds])).toEqual([["status", 600]]);
    expect(freshnessOf(routing, reader, later)?.stale).toBe(true);
  });

  it("holds a snapshot whose last success lies ahead of the clock (a fast pipeline host) stale, of unknown age", () => {
    const ahead = routeSnapshots({ status: meta("status", 600, hoursAgo(-3)), pricing: metas.pricing, benchmarks: metas.benchmarks });
    expect(staleSnapshots(routing, ahead, now)).toEqual([{ type: "status", last_success: hoursAgo(-3), age_seconds: null, sla_seconds: 600 }]);
    expect(freshnessOf(routing, ahead, now)?.stale).toBe(true);
    const slightly = routeSnapshots({ status: meta("status", 600, hoursAgo(-1 / 60)), pricing: metas.pricing, benchmarks: metas.benchmarks });
    expect(staleSnapshots(routing, slightly, now)).toEqual([]);
  });

  it("holds every type it reads by the route's SLA when it names none, also one tighter than a feed's own", () => {
    // Probes run every 15 minutes (feed SLA 45 minutes); a reliability verdict holds them to 30.
    const verdict = { snapshots: ["probe"], freshness: { cadence: "c", slaSeconds: 1800 } } as unknown as AnyRoute;
    const probes = (h: number) => routeSnapshots({ probe: meta("probe", 2700, hoursAgo(h)) });
    expect(staleSnapshots(verdict, probes(0.4), now)).toEqual([]);
    expect(staleSnapshots(verdict, probes(0.6), now).map((s) => s.sla_seconds)).toEqual([1800]);
    expect(contractSlas(verdict)).toEqual([{ type: "probe", slaSeconds: 1800 }]);
  });

  it("holds a route that declares no SLA to each feed's own: stale prices are stale data", () => {
    const series = { snapshots: ["pricing"] } as unknown as AnyRoute;
    expect(staleSnapshots(series, routeSnapshots({ pricing: meta("pricing", 7200, hoursAgo(1)) }), now)).toEqual([]);
    const stale = staleSnapshots(series, routeSnapshots({ pricing: meta("pricing", 7200, hoursAgo(3)) }), now);
    expect(stale).toEqual([{ type: "pricing", last_success: hoursAgo(3), age_seconds: 10_800, sla_seconds: 7200 }]);
    expect(contractSlas(series)).toEqual([{ type: "pricing", slaSeconds: 7200 }]);
    expect(endpointOutcomes(series as never).find((o) => o.reason === "stale_data")?.when).toContain("pricing 7200 s");
  });

  it("never holds a route whose answer does not age with its data (chargedWhenStale)", () => {
    const registration = { snapshots: ["pricing"], chargedWhenStale: true } as unknown as AnyRoute;
    expect(staleSnapshots(registration, routeSnapshots({ pricing: meta("pricing", 7200, hoursAgo(30)) }), now)).toEqual([]);
    expect(contractSlas(registration)).toEqual([]);
    expect(endpointOutcomes(registration as never).map((o) => o.reason)).not.toContain("stale_data");
    expect(freshnessOf(registration, routeSnapshots({ pricing: meta("pricing", 7200, hoursAgo(30)) }), now)).toBeNull();
  });
});
