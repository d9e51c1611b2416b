/**
 * GET /api/status and GET /api/status/summary: AI providers' operational status as copied from their own
 * status pages by the `status` pipeline (every 2 minutes). Pure renders over the `status` snapshot; the
 * check time (`checked`, each entry's `lastChecked`) is the manifest's `lastSuccess` for the type, i.e. the
 * last pipeline run that succeeded, injected here because snapshot bodies carry no run timestamps.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { LoadedSnapshot, RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { serviceStatus, statusComponent, type StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";

/** What `source` says in GET /api/status. */
export const STATUS_SOURCE = "Each provider's official status page (Statuspage / incident.io summary.json, Better Stack index.json, Google Cloud incidents.json, RSS/Atom incident feeds), normalized to operational | degraded | down | unknown; no independent probes.";

/** One service entry as served: the snapshot entry plus lastChecked. */
export const StatusEntryResponse = z.strictObject({
  name: z.string(),
  provider: z.string().meta({ description: "lowercase provider id" }),
  status: serviceStatus,
  statusPageUrl: z.string(),
  components: z.array(statusComponent),
  lastChecked: z.string().meta({ description: "ISO time of the last successful status pipeline run (manifest lastSuccess)" }),
});

/** Body of GET /api/status. */
export const StatusResponse = z.strictObject({
  ok: z.literal(true),
  source: z.string(),
  checked: z.string().meta({ description: "ISO time of the last successful status pipeline run (manifest lastSuccess)" }),
  services: z.array(StatusEntryResponse),
});

/** Body of GET /api/status/summary. */
export const StatusSummaryResponse = z.strictObject({
  ok: z.literal(true),
  summary: z.strictObject({
    total: z.number().int().nonnegative(),
    operational: z.number().int().nonnegative(),
    degraded: z.number().int().nonnegative(),
    down: z.number().int().nonnegative(),
    unknown: z.number().int().nonnegative().meta({ description: "providers whose page could not be read or gave a value we cannot map; total = operational + degraded + down + unknown" }),
  }),
});

const FRESHNESS = { cadence: "every 2 minutes", slaSeconds: 600 };

function loadStatus(ctx: RenderContext): { snapshot: LoadedSnapshot<StatusSnapshot>; checked: string } {
  const snapshot = readSnapshot<StatusSnapshot>(ctx.snapshots, "status");
  return { snapshot, checked: lastSuccessOf(snapshot) };
}

/** Count services per status. */
export function summarize(services: StatusSnapshot["services"]): z.infer<typeof StatusSummaryResponse>["summary"] {
  const summary = { total: services.length, operational: 0, degraded: 0, down: 0, unknown: 0 };
  for (const s of services) summary[s.status] += 1;
  return summary;
}

/** /api/status and /api/status/summary. */
export const statusRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/status",
    tier: "free",
    summary: "Operational status of AI providers, copied from their official status pages.",
    description:
      "One entry per provider, sorted by provider id, with the page's components (group containers skipped, upstream order kept). checked and lastChecked are the time of the last successful pipeline run (manifest lastSuccess). A provider whose page could not be read in that run is listed with status unknown and no components. Mapping: degraded_performance, partial_outage and under_maintenance → degraded; major_outage → down; an unmapped value → unknown.",
    tags: ["status"],
    response: StatusResponse,
    snapshots: ["status"],
    freshness: FRESHNESS,
    render: (ctx) => {
      const { snapshot, checked } = loadStatus(ctx);
      return {
        ok: true as const,
        source: STATUS_SOURCE,
        checked,
        services: snapshot.data.services.map((s) => ({ ...s, lastChecked: checked })),
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/status/summary",
    tier: "free",
    summary: "Counts of AI providers by status: total, operational, degraded, down (and unknown).",
    description:
      "Computed from the same snapshot as /api/status. unknown is added to the spec's four integers so the counts add up: total = operational + degraded + down + unknown.",
    tags: ["status"],
    response: StatusSummaryResponse,
    snapshots: ["status"],
    freshness: FRESHNESS,
    render: (ctx) => {
      const { snapshot } = loadStatus(ctx);
      return { ok: true as const, summary: summarize(snapshot.data.services) };
    },
  }),
];
