/**
 * The AI capex-cycle verdict (GET /api/premium/ai-capex-cycle-verdict): the cohort's latest annual capital
 * expenditure as a share of US GDP, ranked against curated historical infrastructure capex cycles on their peak
 * share of GDP. Pure: snapshot rows in, verdict out.
 *
 * Rules (the numbers are the published contract):
 * - Reference year: the latest calendar year for which the GDP reference exists and at least one cohort company
 *   filed an annual capex figure; each company contributes its figure for that year (a company without one is
 *   missing, and the share is then a lower bound). No such year, or no historical cycle: inputs unavailable.
 * - The share is rounded to 2 decimals and every comparison uses the rounded values.
 * - Rank: 1 + the number of prior cycles whose peak is at or above the current share (a tie ranks the current cycle
 *   below the prior, it has to exceed to rank above). exceeds_all_priors: strictly above every prior peak.
 * - Verdict: UNPRECEDENTED when it exceeds every prior peak; EXTREME when it is at least 75 % of the highest prior
 *   peak; ELEVATED when it exceeds at least half of the prior peaks; MODERATE otherwise.
 * - Closest analog: the prior with the smallest absolute difference; a tie goes to the larger peak, then the id.
 * - Sentiment outlier: a prior whose sourced peak-to-trough drawdown is at least 50 % and at least 10 times its
 *   peak capex share in percentage points (a bust far deeper than the build-out's weight in the economy).
 * No bubble call is made: outcome measures of a cycle still under way are listed as not yet measurable.
 */
import type { AiCapexSnapshot, CapexCycle } from "../../pipelines/contract/snapshots/ai-capex.ts";
import { round } from "./round.ts";

export const VERDICTS = ["MODERATE", "ELEVATED", "EXTREME", "UNPRECEDENTED"] as const;
export type CapexVerdict = (typeof VERDICTS)[number];

/** EXTREME from this fraction of the highest prior peak. */
export const EXTREME_FRACTION_OF_TOP = 0.75;
/** ELEVATED from this share of prior peaks exceeded. */
export const ELEVATED_SHARE_EXCEEDED = 0.5;
/** A sentiment outlier's drawdown is at least this many percent … */
export const OUTLIER_MIN_DRAWDOWN_PCT = 50;
/** … and at least this many times its peak capex share (points of drawdown per point of GDP). */
export const OUTLIER_DRAWDOWN_PER_GDP_POINT = 10;

/** Outcome measures of past cycles that a cycle still under way cannot have yet, exactly as the spec names them. */
export const NOT_YET_MEASURABLE = ["overbuild_ratio", "peak_to_trough_drawdown_pct", "boom_to_bust_years", "survival_rate_pct"] as const;

export const CURRENT_CYCLE_ID = "ai-cohort-capex";


export interface CapexVerdictResult {
  inputs_available: boolean;
  verdict: CapexVerdict | null;
  current_cycle: { id: string; name: string; peak_capex_pct_gdp: number; annual_capex_usd_b: number; in_progress: true } | null;
  current_rank: number | null;
  total_ranked: number;
  exceeds_all_priors: boolean | null;
  ranking: { id: string; name: string; peak_capex_pct_gdp: number; is_current: boolean }[];
  closest_analog: { cycle_id: string; name: string; peak_capex_pct_gdp: number; distance: number } | null;
  sentiment_outliers: { cycle_id: string; name: string; peak_to_trough_drawdown_pct: number; note: string }[];
  not_yet_measurable: (typeof NOT_YET_MEASURABLE)[number][];
  coverage: {
    cohort_size: number;
    reference_year: number | null;
    gdp_usd_b: number | null;
    gdp_source_url: string | null;
    companies_included: { ticker: string; fiscal_year: number; period_end: string; capex_usd_b: number; accession_number: string }[];
    companies_missing: { ticker: string; reason: string }[];
  };
  historical_sources: { cycle_id: string; peak_period: string; measure: string; source_url: string; source_name: string; checked: string; drawdown_measure: string | null; drawdown_source_url: string | null }[];
  caveats: string[];
  interpretation: string;
}

/** The verdict from a share among prior peaks (pure; exported for its tests). */
export function verdictFor(share: number, priorPeaks: readonly number[]): { verdict: CapexVerdict; rank: number; exceedsAll: boolean } {
  if (priorPeaks.length === 0) throw new Error("verdictFor: no prior cycle to rank against");
  const top = Math.max(...priorPeaks);
  const exceeded = priorPeaks.filter((p) => share > p).length;
  const rank = 1 + priorPeaks.filter((p) => p >= share).length;
  const exceedsAll = exceeded === priorPeaks.length;
  const verdict: CapexVerdict = exceedsAll ? "UNPRECEDENTED" : share >= EXTREME_FRACTION_OF_TOP * top ? "EXTREME" : exceeded / priorPeaks.length >= ELEVATED_SHARE_EXCEEDED ? "ELEVATED" : "MODERATE";
  return { verdict, rank, exceedsAll };
}

/** The prior closest to `share` (smallest |difference|; a tie goes to the larger peak, then the id). */
export function closestAnalog(share: number, priors: readonly CapexCycle[]): CapexCycle | null {
  let best: CapexCycle | null = null;
  for (const c of priors) {
    if (best === null) {
      best = c;
      continue;
    }
    const d = round(Math.abs(c.peak_capex_pct_gdp - share), 4);
    const bd = round(Math.abs(best.peak_capex_pct_gdp - share), 4);
    if (d < bd || (d === bd && (c.peak_capex_pct_gdp > best.peak_capex_pct_gdp || (c.peak_capex_pct_gdp === best.peak_capex_pct_gdp && c.id < best.id)))) best = c;
  }
  return best;
}

/** Priors whose sourced drawdown was extreme relative to their capex share. */
export function sentimentOutliers(priors: readonly CapexCycle[]): CapexVerdictResult["sentiment_outliers"] {
  return priors
    .filter((c) => c.peak_to_trough_drawdown_pct !== null && c.peak_to_trough_drawdown_pct >= OUTLIER_MIN_DRAWDOWN_PCT && c.peak_to_trough_drawdown_pct >= OUTLIER_DRAWDOWN_PER_GDP_POINT * c.peak_capex_pct_gdp)
    .map((c) => {
      const dd = c.peak_to_trough_drawdown_pct!;
      return {
        cycle_id: c.id,
        name: c.name,
        peak_to_trough_drawdown_pct: dd,
        note: `${c.drawdown_measure ?? "its market proxy"} fell ${dd} % on a build-out of ${c.peak_capex_pct_gdp} % of GDP (${round(dd / c.peak_capex_pct_gdp, 1)} points of drawdown per point of GDP): the bust was far deeper than the spending's weight in the economy, so the mood of the market, not the size of the capex, set its depth.`,
      };
    });
}

/** Judge the current cycle against the historical ones. */
export function capexCycleVerdict(data: AiCapexSnapshot): CapexVerdictResult {
  const priors = [...data.cycles];
  const cohortSize = data.companies.length;
  const gdpByYear = new Map(data.us_gdp.map((g) => [g.year, g]));
  const capexYears = new Set(data.companies.flatMap((c) => c.annual.map((y) => y.fiscal_year)));
  const newestCapexYear = capexYears.size > 0 ? Math.max(...capexYears) : null;
  const referenceYear = [...capexYears].filter((y) => gdpByYear.has(y)).sort((a, b) => b - a)[0] ?? null;
  const gdp = referenceYear === null ? undefined : gdpByYear.get(referenceYear);
  const historical_sources = priors.map((c) => ({ cycle_id: c.id, peak_period: c.peak_period, measure: c.measure, source_url: c.source_url, source_name: c.source_name, checked: c.checked, drawdown_measure: c.drawdown_measure, drawdown_source_url: c.drawdown_source_url }));
  const outliers = sentimentOutliers(priors);
  const caveats: string[] = [];

  const included: CapexVerdictResult["coverage"]["companies_included"] = [];
  const missing: CapexVerdictResult["coverage"]["companies_missing"] = [];
  for (const c of data.companies) {
    const y = referenceYear === null ? undefined : c.annual.find((a) => a.fiscal_year === referenceYear);
    if (y) included.push({ ticker: c.ticker, fiscal_year: y.fiscal_year, period_end: y.period_end, capex_usd_b: round(y.capex_usd / 1e9, 3), accession_number: y.accession_number });
    else if (c.status === "failed" && c.annual.length === 0) missing.push({ ticker: c.ticker, reason: `EDGAR could not be read${c.error ? ` (${c.error.slice(0, 120)})` : ""}` });
    else if (c.annual.length === 0) missing.push({ ticker: c.ticker, reason: "no annual USD capital expenditure filed under the concepts read" });
    else missing.push({ ticker: c.ticker, reason: `no figure for ${referenceYear ?? "the reference year"} (latest: ${c.annual[0]!.fiscal_year})` });
  }
  const coverage = { cohort_size: cohortSize, reference_year: referenceYear, gdp_usd_b: gdp?.gdp_usd_b ?? null, gdp_source_url: gdp?.source_url ?? null, companies_included: included, companies_missing: missing };
  const unavailable = (why: string): CapexVerdictResult => ({
    inputs_available: false,
    verdict: null,
    current_cycle: null,
    current_rank: null,
    total_ranked: priors.length,
    exceeds_all_priors: null,
    ranking: priors.map((c) => ({ id: c.id, name: c.name, peak_capex_pct_gdp: c.peak_capex_pct_gdp, is_current: false })),
    closest_analog: null,
    sentiment_outliers: outliers,
    not_yet_measurable: [...NOT_YET_MEASURABLE],
    coverage,
    historical_sources,
    caveats: [`Inputs unavailable: ${why}. No verdict is given and the call is not charged.`],
    interpretation: `The current cycle cannot be placed: ${why}. This endpoint never predicts a bust; without the inputs it says nothing about the cycle.`,
  });
  if (priors.length === 0) return unavailable("no historical capex cycle with a sourced figure is in the snapshot");
  if (newestCapexYear === null) return unavailable("no cohort company has an annual capital expenditure figure");
  if (referenceYear === null || gdp === undefined) return unavailable(`no year with cohort capex has a US GDP reference (newest capex year ${newestCapexYear}; GDP references: ${data.us_gdp.map((g) => g.year).join(", ") || "none"})`);

  const capexUsd = data.companies.reduce((sum, c) => sum + (c.annual.find((a) => a.fiscal_year === referenceYear)?.capex_usd ?? 0), 0);
  const share = round((capexUsd / (gdp.gdp_usd_b * 1e9)) * 100, 2);
  const priorPeaks = priors.map((c) => c.peak_capex_pct_gdp);
  const { verdict, rank, exceedsAll } = verdictFor(share, priorPeaks);
  const current = { id: CURRENT_CYCLE_ID, name: `AI infrastructure build-out: capex of the AI-companies cohort, ${referenceYear}`, peak_capex_pct_gdp: share, annual_capex_usd_b: round(capexUsd / 1e9, 3), in_progress: true as const };
  const ranking = [...priors]
    .sort((a, b) => b.peak_capex_pct_gdp - a.peak_capex_pct_gdp || a.id.localeCompare(b.id))
    .map((c) => ({ id: c.id, name: c.name, peak_capex_pct_gdp: c.peak_capex_pct_gdp, is_current: false }));
  ranking.splice(rank - 1, 0, { id: current.id, name: current.name, peak_capex_pct_gdp: share, is_current: true });
  const analog = closestAnalog(share, priors)!;

  if (missing.length > 0) caveats.push(`Partial coverage: ${included.length} of ${cohortSize} cohort companies have a ${referenceYear} figure (missing: ${missing.map((m) => m.ticker).join(", ")}); the share is a lower bound.`);
  if (newestCapexYear > referenceYear) caveats.push(`Capex for ${newestCapexYear} is filed but the US GDP reference for that year is not yet in the snapshot; the share is for ${referenceYear}.`);
  caveats.push(
    "The current figure is one year of an unfinished build-out, not its peak; the historical figures are peaks.",
    "Not like for like: the cohort's capex is worldwide and includes spending not related to AI, divided by US GDP; the historical figures measure different things (see historical_sources[].measure), from whole-economy investment to one sector's build-out.",
    "Fiscal years are mapped to the calendar year holding their middle; companies with fiscal years ending mid-year are matched to the year most of their period falls in.",
  );
  const interpretation = [
    `In ${referenceYear} the cohort's capital expenditure was ${current.annual_capex_usd_b} billion USD, ${share} % of US GDP${missing.length > 0 ? " (a lower bound: partial coverage)" : ""}.`,
    exceedsAll ? `That is above every one of the ${priors.length} historical cycles' peaks.` : `That ranks ${rank} of ${priors.length + 1} against the peaks of ${priors.length} historical build-outs.`,
    `The closest analog by peak share is ${analog.name} (${analog.peak_capex_pct_gdp} %).`,
    `Verdict ${verdict} describes scale only. This is not a bubble call and does not predict a bust: how a cycle ends (overbuild, drawdown, time to bust, survival) cannot be measured while it is under way.`,
  ].join(" ");
  return {
    inputs_available: true,
    verdict,
    current_cycle: current,
    current_rank: rank,
    total_ranked: priors.length + 1,
    exceeds_all_priors: exceedsAll,
    ranking,
    closest_analog: { cycle_id: analog.id, name: analog.name, peak_capex_pct_gdp: analog.peak_capex_pct_gdp, distance: round(Math.abs(analog.peak_capex_pct_gdp - share), 2) },
    sentiment_outliers: outliers,
    not_yet_measurable: [...NOT_YET_MEASURABLE],
    coverage,
    historical_sources,
    caveats,
    interpretation,
  };
}
