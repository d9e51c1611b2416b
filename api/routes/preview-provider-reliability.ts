/**
 * GET /api/preview/provider-reliability-verdict: the free cut of /api/premium/provider-reliability-verdict —
 * the two picks (most dependable, riskiest) and when the probes were captured, no ranking, no receipt —
 * limited per client per UTC day (api/previews/). The app counts the call and wraps these fields.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import type { ReliabilityPick } from "../verdicts/provider-reliability.ts";
import { renderProviderReliability, ReliabilityPickSchema } from "./premium-provider-reliability.ts";

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewReliabilityFields extends Record<string, unknown> {
  capturedAt: string | null;
  verdict: { most_dependable: ReliabilityPick | null; riskiest: ReliabilityPick | null };
}

/** The picks of the premium verdict, nothing of its ranking or coverage. */
export async function renderPreviewReliability(ctx: RenderContext): Promise<PreviewReliabilityFields> {
  const full = await renderProviderReliability(ctx);
  return { capturedAt: full.capturedAt, verdict: full.verdict };
}

const spec = PREVIEWS["/api/preview/provider-reliability-verdict"];

/** The provider reliability preview route. */
export const previewProviderReliabilityRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/provider-reliability-verdict",
    summary: `Free preview of ${spec.premiumEndpoint}: the most dependable and the riskiest provider over the last 24 h of probes; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The verdict of ${spec.premiumEndpoint} (picks with their reliability_score) and capturedAt; the ranking, the per-provider figures, the coverage and the receipt are the premium endpoint's.`,
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count (an IPv6 client counts by its /64).`,
      "A call that fails (missing data) is not counted. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.",
    ].join(" "),
    tags: ["preview", "providers"],
    response: previewResponse({
      capturedAt: z.string().nullable().meta({ description: "Time of the newest probe sample the picks are computed from." }),
      verdict: z.strictObject({
        most_dependable: ReliabilityPickSchema,
        riskiest: ReliabilityPickSchema,
      }),
    }),
    snapshots: ["probe"],
    errors: {
      429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)",
      503: "the warehouse reader is not open (warehouse_unavailable)",
    },
    render: (ctx) => renderPreviewReliability(ctx),
  }),
];
