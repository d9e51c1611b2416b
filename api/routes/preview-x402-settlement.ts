/**
 * GET /api/preview/x402-settlement-verdict: the free cut of /api/premium/x402-settlement-verdict — its
 * classifications (momentum, concentration, leading publisher) and the window, no figures, no ranking, no
 * receipt — limited per client per UTC day (api/previews/). The app counts the call and wraps these fields.
 */
import { z } from "zod";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { renderSettlementVerdict, VerdictQuery, VerdictResponse } from "./premium-x402-index.ts";

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewSettlementFields extends Record<string, unknown> {
  capturedAt: string | null;
  window_label: string;
  verdict: z.infer<typeof VerdictResponse>["verdict"];
}

/** The classifications of the premium verdict, nothing of its figures. */
export async function renderPreviewSettlement(ctx: RenderContext, query: z.infer<typeof VerdictQuery>): Promise<PreviewSettlementFields> {
  const full = await renderSettlementVerdict(ctx, query);
  return { capturedAt: full.capturedAt, window_label: full.window_label, verdict: full.verdict };
}

const spec = PREVIEWS["/api/preview/x402-settlement-verdict"];

/** The x402 settlement preview route. */
export const previewX402SettlementRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/x402-settlement-verdict",
    summary: `Free preview of ${spec.premiumEndpoint}: momentum, concentration and the leading publisher of indexed x402 settlements; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The verdict of ${spec.premiumEndpoint} for the same window (24h, 7d or 30d); the ecosystem figures, the ranking, the coverage and the receipt are the premium endpoint's.`,
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count (an IPv6 client counts by its /64).`,
      "A call that fails (the index not running) is not counted. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.",
    ].join(" "),
    tags: ["preview", "x402"],
    query: VerdictQuery,
    response: previewResponse({
      capturedAt: VerdictResponse.shape.capturedAt,
      window_label: VerdictResponse.shape.window_label,
      verdict: VerdictResponse.shape.verdict,
    }),
    errors: {
      429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)",
      503: "the settlement index does not run on this instance (x402_index_unavailable)",
    },
    render: (ctx, { query }) => renderPreviewSettlement(ctx, query),
  }),
];
