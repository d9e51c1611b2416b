/**
 * The AI funding registry: free GET /api/funding/portfolio (the curated commitments, snapshot `funding-portfolio`)
 * and premium GET /api/premium/funding/exposure, judged by api/verdicts/funding-exposure.ts.
 */
import { z } from "zod";
import { fundingPortfolioSnapshotSchema, fundingPortfolioSnapshotType, SILICON_DEPENDENCIES } from "../../pipelines/contract/snapshots/funding-portfolio.ts";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { FULLY_CIRCULAR_PCT, fundingExposure, PARTIAL_LOOP_PCT } from "../verdicts/funding-exposure.ts";

export const FUNDING_ATTRIBUTION = "A hand-curated registry of announced AI funding commitments: each entry names the page it was checked against (source_url, source_name) and the day (checked); amounts as announced, or as the named source reports them where the parties did not disclose them.";

const Commitment = z.strictObject({
  id: z.string(),
  investor: z.string(),
  investor_ticker: z.string().nullable(),
  recipient: z.string(),
  amount_usd_min: z.number().nullable(),
  amount_usd_max: z.number().nullable(),
  amount_note: z.string(),
  announced: z.string(),
  silicon_dependency: z.enum(SILICON_DEPENDENCIES),
  source_url: z.string(),
  source_name: z.string(),
  checked: z.string(),
});

export const PortfolioResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.string(),
  count: z.int().nonnegative(),
  commitments: z.array(Commitment),
  investor_silicon: z.record(z.string(), z.enum(SILICON_DEPENDENCIES)),
  attribution: z.string(),
});

export const ExposureResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string(),
  total_commitments: z.int().nonnegative(),
  total_amount_usd_max: z.number().nonnegative(),
  silicon_concentration: z.array(z.strictObject({ silicon_dependency: z.string(), commitment_count: z.int().nonnegative(), total_amount_usd_max: z.number().nonnegative(), share_of_total_pct: z.number() })),
  circular_exposure: z.array(
    z.strictObject({
      investor: z.string(),
      investor_silicon_brand: z.string().nullable(),
      total_commitments: z.int().positive(),
      total_amount_usd_max: z.number().nonnegative(),
      commitments_to_own_silicon: z.int().nonnegative(),
      circular_ratio_by_count: z.number(),
      circular_ratio_by_amount: z.number().nullable(),
      loop_classification: z.enum(["fully-circular", "partial-loop", "agnostic", "insufficient-data"]),
    }),
  ),
  top_recipients: z.array(z.strictObject({ recipient: z.string(), inbound_commitments: z.int().positive(), inbound_amount_usd_max: z.number().nonnegative(), investors: z.array(z.string()) })),
  co_investor_pairs: z.array(z.strictObject({ investor_a: z.string(), investor_b: z.string(), shared_recipients: z.array(z.string()) })),
  attribution: z.string(),
});

const read = (ctx: RenderContext) => readSnapshot(ctx.snapshots, fundingPortfolioSnapshotType.type, fundingPortfolioSnapshotSchema);

/** The registry's commitments made by the investor with `ticker` (ai-companies' funding_as_investor). */
export function commitmentsOfTicker(ctx: RenderContext, ticker: string): z.infer<typeof Commitment>[] {
  if (!ctx.snapshots.get(fundingPortfolioSnapshotType.type)) return [];
  return read(ctx).data.commitments.filter((c) => c.investor_ticker === ticker);
}

/** The funding routes. */
export const fundingRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/funding/portfolio",
    tier: "free",
    summary: "A curated registry of AI funding commitments: investor, recipient, amount range, date, the silicon the recipient's compute runs on, and the source checked.",
    description: "Newest first. amount_usd_min / _max: the announced range (null when undisclosed); silicon_dependency: the accelerator family the source says the deal's compute runs on, else unknown. investor_silicon: investors' own accelerator brands.",
    tags: ["finance"],
    response: PortfolioResponse,
    snapshots: ["funding-portfolio"],
    render: (ctx) => {
      const data = read(ctx).data;
      return { ok: true as const, lastUpdated: data.lastUpdated, count: data.commitments.length, commitments: data.commitments, investor_silicon: data.investor_silicon, attribution: FUNDING_ATTRIBUTION };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/funding/exposure",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Exposure of the AI funding registry: silicon concentration, how circular each investor's commitments are (back to its own accelerators), top recipients, co-investor pairs.",
    description: [
      "Amounts use each commitment's upper bound (undisclosed ones add 0 to sums); share_of_total_pct is by amount (by count when no amount is disclosed).",
      `circular: a commitment to a recipient whose compute runs on the investor's own silicon brand. loop_classification by the share of an investor's commitments that are circular (by count): fully-circular at ${FULLY_CIRCULAR_PCT} % or more, partial-loop ${PARTIAL_LOOP_PCT} % to ${FULLY_CIRCULAR_PCT} %, agnostic below, insufficient-data for a one-shot investor.`,
      "The underlying registry is free at /api/funding/portfolio.",
    ].join(" "),
    tags: ["premium", "finance"],
    response: ExposureResponse,
    snapshots: ["funding-portfolio"],
    render: (ctx) => {
      const snapshot = read(ctx);
      return { ok: true as const, capturedAt: lastSuccessOf(snapshot), ...fundingExposure(snapshot.data.commitments, snapshot.data.investor_silicon), attribution: FUNDING_ATTRIBUTION };
    },
  }),
];
