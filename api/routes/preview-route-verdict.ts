/**
 * GET /api/preview/route-verdict: the free cut of /api/premium/route-verdict — the top verdict for a task, with
 * no runners-up, no trust layers and no receipt — limited per client per UTC day (api/previews/). The app counts
 * the call and wraps these fields; this file only picks them from the answer the premium route computes.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { TASKS, type Task } from "../verdicts/routing.ts";
import type { VerdictEntry } from "../verdicts/route-verdict.ts";
import { renderRouteVerdict, VerdictEntrySchema } from "./premium-route-verdict.ts";

/** Query of GET /api/preview/route-verdict. */
export const PreviewRouteVerdictQuery = z.strictObject({
  task: z.enum(TASKS).default("general").meta({ description: "code | reasoning | creative | general (default general)." }),
});
type PreviewRouteVerdictInput = z.infer<typeof PreviewRouteVerdictQuery>;

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewRouteVerdictFields extends Record<string, unknown> {
  task: Task;
  capturedAt: string | null;
  verdict: VerdictEntry | null;
}

/** The premium answer's top verdict without filters, and nothing else of it. */
export async function renderPreviewRouteVerdict(ctx: RenderContext, query: PreviewRouteVerdictInput): Promise<PreviewRouteVerdictFields> {
  const full = await renderRouteVerdict(ctx, { task: query.task });
  return { task: query.task, capturedAt: full.capturedAt, verdict: full.verdict };
}

const spec = PREVIEWS["/api/preview/route-verdict"];

/** The route-verdict preview route. */
export const previewRouteVerdictRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/route-verdict",
    summary: `Free preview of ${spec.premiumEndpoint}: the top verdict for a task; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The rank-1 verdict of ${spec.premiumEndpoint} for the task, without its filters (model, max_latency_p95_ms, require_operational, exclude_deprecated); null when no model qualifies.`,
      "The premium endpoint keeps the runners-up, the trust layers and the signed receipt.",
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count. A call that fails is not counted. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.`,
    ].join(" "),
    tags: ["preview", "models", "routing"],
    query: PreviewRouteVerdictQuery,
    response: previewResponse({
      task: z.enum(TASKS),
      capturedAt: z.string().nullable().meta({ description: "The newest status sample the verdict's operational layer read." }),
      verdict: VerdictEntrySchema.nullable().meta({ description: "The premium endpoint's rank-1 verdict, whole." }),
    }),
    snapshots: ["pricing", "status", "model-deprecations"],
    errors: {
      429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)",
      503: "the warehouse reader is not open (warehouse_unavailable)",
    },
    example: "/api/preview/route-verdict?task=code",
    render: (ctx, { query }) => renderPreviewRouteVerdict(ctx, query),
  }),
];
