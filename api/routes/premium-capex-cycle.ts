/**
 * GET /api/premium/ai-capex-cycle-verdict: the AI cohort's annual capex as a share of US GDP,
 * ranked against curated historical infrastructure capex cycles (snapshot `ai-capex`), judged by
 * api/verdicts/capex-cycle.ts. No bubble call. Inputs unavailable (no cohort capex, no GDP reference for a capex
 * year, no historical cycle) is answered 200 with verdict null and not charged (inputs_unavailable), like the
 * other documented no-charge outcomes; a missing snapshot is the wrapper's 503 snapshot_unavailable.
 */
import { z } from "zod";
import { aiCapexSnapshotSchema, aiCapexSnapshotType } from "../../pipelines/contract/snapshots/ai-capex.ts";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { lastSuccessOf, provenanceOf, readSnapshot } from "../serve/read-snapshot.ts";
import {
  capexCycleVerdict,
  ELEVATED_SHARE_EXCEEDED,
  EXTREME_FRACTION_OF_TOP,
  NOT_YET_MEASURABLE,
  OUTLIER_DRAWDOWN_PER_GDP_POINT,
  OUTLIER_MIN_DRAWDOWN_PCT,
  VERDICTS,
} from "../verdicts/capex-cycle.ts";

const Rank = z.strictObject({ id: z.string(), name: z.string(), peak_capex_pct_gdp: z.number(), is_current: z.boolean() });

export const CapexCycleResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("capex_cycle_analog"),
  inputs_available: z.boolean().meta({ description: "false: the current cycle cannot be placed (see caveats); verdict and the current-cycle fields are null and the call is not charged." }),
  verdict: z.enum(VERDICTS).nullable(),
  ranked_dimension: z.literal("peak_capex_pct_gdp"),
  current_cycle: z
    .strictObject({ id: z.string(), name: z.string(), peak_capex_pct_gdp: z.number(), annual_capex_usd_b: z.number(), in_progress: z.literal(true) })
    .nullable()
    .meta({ description: "peak_capex_pct_gdp is the reference year's share (2 decimals), not a peak; annual_capex_usd_b is billions of USD rounded to a million." }),
  current_rank: z.int().positive().nullable(),
  total_ranked: z.int().nonnegative(),
  exceeds_all_priors: z.boolean().nullable(),
  ranking: z.array(Rank),
  closest_analog: z.strictObject({ cycle_id: z.string(), name: z.string(), peak_capex_pct_gdp: z.number(), distance: z.number() }).nullable(),
  sentiment_outliers: z.array(z.strictObject({ cycle_id: z.string(), name: z.string(), peak_to_trough_drawdown_pct: z.number(), note: z.string() })),
  not_yet_measurable: z.array(z.enum(NOT_YET_MEASURABLE)),
  coverage: z.strictObject({
    cohort_size: z.int().nonnegative(),
    reference_year: z.int().nullable(),
    gdp_usd_b: z.number().nullable(),
    gdp_source_url: z.string().nullable(),
    companies_included: z.array(z.strictObject({ ticker: z.string(), fiscal_year: z.int(), period_end: z.string(), capex_usd_b: z.number(), accession_number: z.string() })),
    companies_missing: z.array(z.strictObject({ ticker: z.string(), reason: z.string() })),
  }),
  historical_sources: z.array(
    z.strictObject({
      cycle_id: z.string(),
      peak_period: z.string(),
      measure: z.string(),
      source_url: z.string(),
      source_name: z.string(),
      checked: z.string(),
      drawdown_measure: z.string().nullable(),
      drawdown_source_url: z.string().nullable(),
    }),
  ),
  caveats: z.array(z.string()),
  interpretation: z.string(),
  captured_at: z.string().meta({ description: "When the ai-capex feed last succeeded." }),
  provenance: z.enum(["live", "replay"]).meta({ description: "replay: built from recorded EDGAR answers (only NVDA and GOOGL are recorded), not read from EDGAR now." }),
});
type CapexCycleBody = z.infer<typeof CapexCycleResponse>;

/** Render the verdict from the `ai-capex` snapshot. */
export function renderCapexCycle(ctx: RenderContext): CapexCycleBody {
  const snapshot = readSnapshot(ctx.snapshots, aiCapexSnapshotType.type, aiCapexSnapshotSchema);
  return {
    ok: true,
    verdict_kind: "capex_cycle_analog",
    ranked_dimension: "peak_capex_pct_gdp",
    ...capexCycleVerdict(snapshot.data),
    captured_at: lastSuccessOf(snapshot),
    provenance: provenanceOf(snapshot),
  };
}

/** The capex-cycle route. */
export const premiumCapexCycleRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/ai-capex-cycle-verdict",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "The AI build-out's capex as a share of US GDP against historical infrastructure capex cycles: MODERATE, ELEVATED, EXTREME or UNPRECEDENTED, the closest analog, sentiment outliers, what is not yet measurable. No bubble call.",
    description: [
      "Current cycle: the sum of the AI-companies cohort's annual capital expenditure (SEC XBRL company facts: us-gaap PaymentsToAcquirePropertyPlantAndEquipment or PaymentsToAcquireProductiveAssets, annual reports, restatements applied) for the latest year that also has a sourced US nominal GDP figure, over that GDP; coverage lists the companies included and missing (partial coverage makes the share a lower bound, said in caveats).",
      "Historical cycles: curated, each peak share of GDP with its source and the day checked (historical_sources); a cycle without a sourced figure is left out.",
      `Verdict by the rounded share (2 decimals): UNPRECEDENTED above every prior peak; EXTREME at ${EXTREME_FRACTION_OF_TOP * 100} % of the highest prior peak or more; ELEVATED above at least ${ELEVATED_SHARE_EXCEEDED * 100} % of the prior peaks; MODERATE otherwise. Rank ties place the current cycle below the prior it equals. Closest analog: smallest absolute difference in percentage points (a tie goes to the larger peak).`,
      `Sentiment outliers: priors whose sourced peak-to-trough drawdown was at least ${OUTLIER_MIN_DRAWDOWN_PCT} % and at least ${OUTLIER_DRAWDOWN_PER_GDP_POINT} times their capex share. not_yet_measurable always lists overbuild_ratio, peak_to_trough_drawdown_pct, boom_to_bust_years and survival_rate_pct: the verdict measures scale, it never predicts a bust.`,
      "Inputs unavailable (no cohort capex, no GDP reference for any capex year, no historical cycle): 200 with inputs_available false, verdict null, not charged (inputs_unavailable). Freshness SLA 3 days on the feed: an older answer is served and not charged (stale_data).",
    ].join(" "),
    tags: ["premium", "finance"],
    response: CapexCycleResponse,
    snapshots: [aiCapexSnapshotType.type],
    freshness: { cadence: aiCapexSnapshotType.cadence, slaSeconds: aiCapexSnapshotType.slaSeconds },
    noCharge: {
      outcomes: { inputs_unavailable: "the cohort's capex or the GDP reference for its year is unavailable, or no historical cycle is sourced: no verdict is given" },
      check: (body) => (body.inputs_available ? null : "inputs_unavailable"),
    },
    render: (ctx) => renderCapexCycle(ctx),
  }),
];
