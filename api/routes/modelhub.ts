/**
 * GET /api/modelhub/trending: the model hub's 30 most downloaded models and datasets and its 30 most liked
 * Spaces, as written daily by the `modelhub-trending` pipeline. A pure render; `updated` is the manifest's
 * lastSuccess for the type.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { renderSnapshot } from "../serve/read-snapshot.ts";
import { modelhubTrendingSnapshotSchema, modelhubTrendingSnapshotType } from "../../pipelines/contract/snapshots/modelhub-trending.ts";

/** Body of GET /api/modelhub/trending. */
export const ModelhubTrendingResponse = z.strictObject({
  ok: z.literal(true),
  snapshot: modelhubTrendingSnapshotSchema,
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
});

/** /api/modelhub/trending. */
export const modelhubRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/modelhub/trending",
    tier: "free",
    summary: "Top 30 models and datasets by downloads and top 30 Spaces by likes on the model hub.",
    description:
      "Source: the Hugging Face Hub listings (models and datasets sorted by downloads, Spaces by likes). Each list is re-sorted by its count (then id) because the hub's cached counters can arrive slightly out of order. Models carry pipelineTag and libraryName, Spaces their sdk; createdAt and lastModified are null when the listing omits them (older entries carry only lastModified). Private or disabled repos are left out. A listing that fails on a given day is empty in that day's snapshot (see source health in /api/meta). Refreshed daily at 12:00 UTC.",
    tags: ["modelhub", "models"],
    response: ModelhubTrendingResponse,
    snapshots: [modelhubTrendingSnapshotType.type],
    freshness: { cadence: modelhubTrendingSnapshotType.cadence, slaSeconds: modelhubTrendingSnapshotType.slaSeconds },
    render: (ctx) => renderSnapshot(ctx.snapshots, modelhubTrendingSnapshotType),
  }),
];
