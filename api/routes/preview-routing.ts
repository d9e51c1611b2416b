/**
 * GET /api/preview/routing: the free cut of /api/premium/routing — the top-1 model for a task and its
 * provider, nothing else — limited per client per UTC day (api/previews/). The app counts the call and wraps
 * these fields; this file only picks them from the same verdict the premium route computes.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { TASKS } from "../verdicts/routing.ts";
import { renderRouting } from "./premium-routing.ts";

/** Query of GET /api/preview/routing. */
export const PreviewRoutingQuery = z.strictObject({
  task: z.enum(TASKS).default("general").meta({ description: "code | reasoning | creative | general (default general)." }),
});
type PreviewRoutingInput = z.infer<typeof PreviewRoutingQuery>;

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewRoutingFields extends Record<string, unknown> {
  task: (typeof TASKS)[number];
  recommendation: { model: string; provider: string } | null;
}

/** The top-1 recommendation of the premium routing verdict at its default weights, or null when no model qualifies. */
export function renderPreviewRouting(ctx: RenderContext, query: PreviewRoutingInput): PreviewRoutingFields {
  const verdict = renderRouting(ctx, { task: query.task, top_n: 1 });
  const top = verdict.recommendations[0];
  return { task: query.task, recommendation: top ? { model: top.model.id, provider: top.model.provider } : null };
}

const spec = PREVIEWS["/api/preview/routing"];

/** The routing preview route. */
export const previewRoutingRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/routing",
    summary: `Free preview of ${spec.premiumEndpoint}: the top-1 model for a task and its provider; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The first recommendation of ${spec.premiumEndpoint} at its default weights, without budget or quality filters; null when no model has a benchmark of the task.`,
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count (an IPv6 client counts by its /64).`,
      "A call that fails (bad input, missing data) is not counted. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.",
    ].join(" "),
    tags: ["preview", "models"],
    query: PreviewRoutingQuery,
    response: previewResponse({
      task: z.enum(TASKS),
      recommendation: z
        .strictObject({ model: z.string().meta({ description: "Model id." }), provider: z.string() })
        .nullable()
        .meta({ description: "The top-1 model and its provider; the premium endpoint adds the ranking, scores, prices and status." }),
    }),
    snapshots: ["pricing", "benchmarks", "status"],
    errors: { 429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)" },
    example: "/api/preview/routing?task=code",
    render: (ctx, { query }) => renderPreviewRouting(ctx, query),
  }),
];
