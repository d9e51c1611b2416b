/**
 * GET /api/afta/adopters: sites said to publish the agent fair-trade manifest, each checked by the
 * `afta-adopters` pipeline (daily). Not authoritative: each site's own manifest is the source of truth.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { AFTA_STATUSES, aftaAdoptersSnapshotSchema, aftaAdoptersSnapshotType } from "../../pipelines/contract/snapshots/afta-adopters.ts";

/** What `note` says. */
export const AFTA_ADOPTERS_NOTE =
  "Not authoritative: a self-published list, seeded by hand and by submissions, whose manifests this service fetches and checks once a day. Each site's own /.well-known/agent-fair-trade.json is the source of truth.";

/** One adopter as served. */
export const AftaAdopterResponse = z.strictObject({
  domain: z.string(),
  status: z.enum(AFTA_STATUSES),
  version: z.string().optional(),
  checked_at: z.iso.datetime().meta({ description: "Time of the last successful check run (manifest lastSuccess)." }),
  reason: z.string().optional(),
});

/** Body of GET /api/afta/adopters. */
export const AftaAdoptersResponse = z.strictObject({
  ok: z.literal(true),
  authoritative: z.literal(false),
  note: z.string(),
  updated: z.iso.datetime(),
  count: z.int().nonnegative(),
  adopters: z.array(AftaAdopterResponse),
});
export type AftaAdoptersBody = z.infer<typeof AftaAdoptersResponse>;

/** Render GET /api/afta/adopters, with check times from the manifest. */
export function renderAftaAdopters(ctx: RenderContext): AftaAdoptersBody {
  const snapshot = readSnapshot(ctx.snapshots, "afta-adopters", aftaAdoptersSnapshotSchema);
  const checked = lastSuccessOf(snapshot);
  const adopters = snapshot.data.adopters.map((a) => ({ ...a, checked_at: checked }));
  return { ok: true, authoritative: false, note: AFTA_ADOPTERS_NOTE, updated: checked, count: adopters.length, adopters };
}

/** The AFTA adopters route. */
export const aftaAdoptersRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/afta/adopters",
    tier: "free",
    summary: "Sites publishing the agent fair-trade manifest, each checked daily; not authoritative.",
    description:
      "Every listed domain's https://<domain>/.well-known/agent-fair-trade.json is fetched once a day. status: valid (a JSON object with standard, version, publisher { name, url } and a non-empty no_charge_guarantees or guarantees array; version is echoed), invalid (the site answered but the body is not JSON, not an object, too large, or lacks those fields; reason names them), unreachable (HTTP error status, timeout or network failure; reason says which). checked_at and updated are the last successful check run. Sorted by domain. The list is seeded by hand from sites' own adoption statements and grows by submission.",
    tags: ["afta"],
    response: AftaAdoptersResponse,
    snapshots: ["afta-adopters"],
    freshness: { cadence: aftaAdoptersSnapshotType.cadence, slaSeconds: aftaAdoptersSnapshotType.slaSeconds },
    render: (ctx): AftaAdoptersBody => renderAftaAdopters(ctx),
  }),
];
