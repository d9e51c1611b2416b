/**
 * GET /api/probe/latest: the last 24 hours of this service's own latency probes of provider API endpoints
 * (the `probe` pipeline, every 15 minutes), per provider with a summary and the raw samples. A pure render
 * over the snapshot; `updated` is the manifest's lastSuccess.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { probeProvider, probeSnapshot, probeSnapshotType, WINDOW_HOURS } from "../../pipelines/contract/snapshots/probe.ts";

/** Body of GET /api/probe/latest. */
export const ProbeLatestResponse = z.strictObject({
  ok: z.literal(true),
  window_hours: z.literal(WINDOW_HOURS),
  samples_per_run: z.number().int().positive(),
  provenance: z.enum(["live", "replay"]).meta({ description: "replay: timings measured against the local replay server, not the providers" }),
  updated: z.iso.datetime().nullable().meta({ description: "Last successful probe run (manifest lastSuccess)" }),
  providers: z.array(probeProvider),
});
export type ProbeLatestBody = z.infer<typeof ProbeLatestResponse>;

/** Render GET /api/probe/latest. */
export function renderProbeLatest(ctx: RenderContext): ProbeLatestBody {
  const snapshot = readSnapshot(ctx.snapshots, "probe", probeSnapshot);
  return {
    ok: true,
    window_hours: snapshot.data.window_hours,
    samples_per_run: snapshot.data.samples_per_run,
    provenance: snapshot.meta.provenance,
    updated: snapshot.meta.lastSuccess,
    providers: snapshot.data.providers,
  };
}

/** /api/probe/latest. */
export const probeRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/probe/latest",
    tier: "free",
    summary: "Last 24 hours of latency probes (time to first byte, total) of AI provider API endpoints.",
    description:
      "Every 15 minutes this service sends 3 sequential unauthenticated GET requests to one cheap endpoint per provider (mostly the list-models path; no key is sent) and times each: ttfb_ms to the response headers, total_ms to the end of the body, including DNS, TCP and TLS on a cold connection (later samples of a run may reuse it). A sample is up (ok true) when any HTTP answer below 500 was read — a 401/403 to a keyless request is a real answer from the provider's API edge; a 5xx, a timeout (10 s) or a network failure is down, with error naming which. Per provider: summary { samples, up, ok_pct (percent up, one decimal), ttfb_p50/p95, total_p50/p95/p99 (nearest-rank percentiles over up samples, null when none), last_sample_at } and the raw samples of the window, oldest first ({ ts, status, ok, ttfb_ms, total_ms, error? }). This measures reachability and latency of the API edge from where the pipelines run, not inference speed; provenance replay means the timings are of the local replay server.",
    tags: ["probe"],
    response: ProbeLatestResponse,
    snapshots: ["probe"],
    freshness: { cadence: probeSnapshotType.cadence, slaSeconds: probeSnapshotType.slaSeconds },
    render: (ctx) => renderProbeLatest(ctx),
  }),
];
