/**
 * GET /api/preview/benchmark-trust-verdict: the free cut of /api/premium/benchmark-trust-verdict — per benchmark,
 * its trust band and score only — limited per client per UTC day (api/previews/). The app counts the call and
 * wraps these fields; this file picks them from the same verdict the premium route computes.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { PREVIEWS } from "../previews/catalog.ts";
import { previewResponse } from "../previews/response.ts";
import { TRUST_BANDS, type TrustBand } from "../verdicts/benchmark-trust.ts";
import { BenchmarkTrustQuery, renderBenchmarkTrust, type BenchmarkTrustQueryInput } from "./premium-benchmark-trust.ts";

/** The preview's own fields; the app adds ok, preview, rate_limit and upgrade. */
export interface PreviewBenchmarkTrustFields extends Record<string, unknown> {
  verdicts: { id: string; trust_band: TrustBand; trust_score: number | null }[];
}

/** Band and score of each matched benchmark, nothing else. */
export async function renderPreviewBenchmarkTrust(ctx: RenderContext, query: BenchmarkTrustQueryInput): Promise<PreviewBenchmarkTrustFields> {
  const full = await renderBenchmarkTrust(ctx, query);
  return { verdicts: full.verdicts.map((v) => ({ id: v.id, trust_band: v.trust_band, trust_score: v.trust_score })) };
}

const spec = PREVIEWS["/api/preview/benchmark-trust-verdict"];

/** The benchmark trust preview route. */
export const previewBenchmarkTrustRoutes = [
  defineRoute({
    method: "GET",
    path: spec.route,
    tier: "preview",
    preview: "/api/preview/benchmark-trust-verdict",
    summary: `Free preview of ${spec.premiumEndpoint}: each benchmark's trust band and score only; ${spec.limit} calls per IP per UTC day.`,
    description: [
      `The trust_band and trust_score of ${spec.premiumEndpoint} per benchmark, same filters (benchmark, category) and same 404 for an unknown one; the premium endpoint adds contamination risk, signals, score range, recommendation and leaderboard URL.`,
      `Limited to ${spec.limit} calls per client per UTC day, counted in the state database so every server process shares the count (an IPv6 client counts by its /64).`,
      "A call that fails (bad input, missing data) is not counted. Over the limit: 429 preview_limit_reached with Retry-After until the next UTC midnight and where to buy credits.",
    ].join(" "),
    tags: ["preview", "benchmarks"],
    query: BenchmarkTrustQuery,
    response: previewResponse({
      verdicts: z.array(
        z.strictObject({
          id: z.string().meta({ description: "Benchmark id." }),
          trust_band: z.enum(TRUST_BANDS),
          trust_score: z.number().int().min(0).max(100).nullable(),
        }),
      ),
    }),
    snapshots: ["benchmarks"],
    errors: {
      404: "unknown benchmark or category (unknown_benchmark, unknown_category)",
      429: "preview_limit_reached: the daily preview quota of this client is used (Retry-After: seconds to the next UTC midnight)",
    },
    example: "/api/preview/benchmark-trust-verdict?category=coding",
    render: (ctx, { query }) => renderPreviewBenchmarkTrust(ctx, query),
  }),
];
