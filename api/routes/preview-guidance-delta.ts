/**
 * GET /api/preview/sec/filings/guidance-delta: the free cut of /api/premium/sec/filings/guidance-delta — which filings
 * are compared and the materiality summary with its headline; no change list, so no quote of either filing and no
 * figure — limited per client per UTC day (api/previews/). The app counts the call and wraps these fields.
 */
import { z } from "zod";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { GUIDANCE_DELTA_RULES, GuidanceDeltaQuery, GuidanceDeltaResponse, renderGuidanceDelta } from "./premium-guidance-delta.ts";

const shape = GuidanceDeltaResponse.shape;
const fields = {
  ticker: shape.ticker,
  company_name: shape.company_name,
  form: shape.form,
  accession_number: shape.accession_number,
  prior_accession_number: shape.prior_accession_number,
  filing_date: shape.filing_date,
  prior_filing_date: shape.prior_filing_date,
  materiality_summary: shape.materiality_summary,
  quotes: z.literal("redacted").meta({ description: "The changes, their quotes and figures are the premium endpoint's." }),
  freshness: shape.freshness,
  capturedAt: shape.capturedAt,
};

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export type PreviewGuidanceDeltaFields = { [K in keyof typeof fields]: z.infer<(typeof fields)[K]> } & Record<string, unknown>;

/** The summary of the premium delta, nothing quoted. */
export async function renderPreviewGuidanceDelta(ctx: RenderContext, query: z.infer<typeof GuidanceDeltaQuery>): Promise<PreviewGuidanceDeltaFields> {
  const full = await renderGuidanceDelta(ctx, query);
  return {
    ticker: full.ticker,
    company_name: full.company_name,
    form: full.form,
    accession_number: full.accession_number,
    prior_accession_number: full.prior_accession_number,
    filing_date: full.filing_date,
    prior_filing_date: full.prior_filing_date,
    materiality_summary: full.materiality_summary,
    quotes: "redacted",
    freshness: full.freshness,
    capturedAt: full.capturedAt,
  };
}

const spec = PREVIEWS["/api/preview/sec/filings/guidance-delta"];

/** The guidance-delta preview route. */
export const previewGuidanceDeltaRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/sec/filings/guidance-delta",
    summary: `Free preview of ${spec.premiumEndpoint}: the filings compared and the materiality summary of their risk-factor and forward-looking changes; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The same query as ${spec.premiumEndpoint} (ticker with form, or accession) and the same counts and headline; the changes themselves, their quotes and figures, and the receipt are the premium endpoint's.`,
      GUIDANCE_DELTA_RULES,
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count (an IPv6 client counts by its /64).`,
      "A call that fails (unknown ticker or accession, no readable pair: 404) is not counted. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.",
    ].join(" "),
    tags: ["preview", "finance"],
    query: GuidanceDeltaQuery,
    response: previewResponse(fields),
    snapshots: ["sec-filing-sections"],
    errors: {
      404: "unknown ticker or accession (unknown_ticker, unknown_accession), or no two readable same-form filings (no_delta)",
      429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)",
    },
    example: "/api/preview/sec/filings/guidance-delta?ticker=NVDA&form=10-K",
    render: (ctx, { query }) => renderPreviewGuidanceDelta(ctx, query),
  }),
];
