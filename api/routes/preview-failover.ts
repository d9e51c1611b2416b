/**
 * GET /api/preview/failover-verdict: the free cut of /api/premium/failover-verdict — where to send a provider's
 * traffic and why, nothing else — limited per client per UTC day (api/previews/). The app counts the call and
 * wraps these fields; this file only picks them from the answer the premium route computes.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { FailoverQuery, renderFailover } from "./premium-failover.ts";

/** Query of GET /api/preview/failover-verdict: from and task, as the premium endpoint takes them. */
export const PreviewFailoverQuery = FailoverQuery.pick({ from: true, task: true });
type PreviewFailoverInput = z.infer<typeof PreviewFailoverQuery>;

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewFailoverFields extends Record<string, unknown> {
  from: string;
  destination: { model: string; provider: string } | null;
  reason: string;
}

/** The premium answer's destination, and one sentence saying why traffic would move there. */
export async function renderPreviewFailover(ctx: RenderContext, query: PreviewFailoverInput): Promise<PreviewFailoverFields> {
  const full = await renderFailover(ctx, query);
  const to = full.failover_to;
  const destination = to ? { model: to.model.id, provider: to.model.provider } : null;
  const where = to ? `${to.model.id} (${to.model.provider}) ranks first among the other providers for ${full.query.task}` : "no model of another provider qualifies";
  const reason = full.from.incident
    ? `${full.from.incident.title}; ${where}.`
    : `${full.from.provider} shows no incident (status ${full.from.status}); standby: ${where}.`;
  return { from: full.from.provider, destination, reason };
}

const spec = PREVIEWS["/api/preview/failover-verdict"];

/** The failover-verdict preview route. */
export const previewFailoverRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/failover-verdict",
    summary: `Free preview of ${spec.premiumEndpoint}: where to send a provider's traffic and why; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The destination of ${spec.premiumEndpoint} (model and provider) and a one-sentence reason (the incident's title, or that there is none).`,
      "The premium endpoint keeps the impact classification, recommended action, triage summary, start time, the destination's scores, the alternatives, the excluded providers, the trust layers and the signed receipt.",
      "An unknown provider is 404 unknown_provider and not counted.",
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.`,
    ].join(" "),
    tags: ["preview", "providers", "routing"],
    query: PreviewFailoverQuery,
    response: previewResponse({
      from: z.string().meta({ description: "The provider id `from` resolved to." }),
      destination: z
        .strictObject({ model: z.string().meta({ description: "Model id." }), provider: z.string() })
        .nullable()
        .meta({ description: "Where to send the traffic; null when no other provider has an eligible model." }),
      reason: z.string(),
    }),
    snapshots: ["pricing", "status", "model-deprecations"],
    errors: {
      404: "the provider is not tracked (unknown_provider)",
      429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)",
      503: "the warehouse reader is not open (warehouse_unavailable)",
    },
    example: "/api/preview/failover-verdict?from=groq",
    render: (ctx, { query }) => renderPreviewFailover(ctx, query),
  }),
];
