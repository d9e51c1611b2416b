import { describe, expect, it } from "vitest";
import type { AiCapexSnapshot, CapexCycle } from "../../pipelines/contract/snapshots/ai-capex.ts";
import { capexCycleVerdict, closestAnalog, NOT_YET_MEASURABLE, sentimentOutliers, verdictFor } from "./capex-cycle.ts";

const cycle = (id: string, pct: number, drawdown: number | null = null): CapexCycle => ({
  id,
  name: `cycle ${id}`,
  economy: "United States",
  peak_period: "then",
  peak_capex_pct_gdp: pct,
  measure: "m",
  source_url: "https://example.org/s",
  source_name: "s",
  checked: "2026-11-26",
  peak_to_trough_drawdown_pct: drawdown,
  drawdown_measure: drawdown === null ? null : "an index",
  drawdown_source_url: drawdown === null ? null : "https://example.org/d",
  drawdown_source_name: drawdown === null ? null : "d",
});
const year = (fy: number, usd: number) => ({ fiscal_year: fy, period_start: `${fy}-01-01`, period_end: `${fy}-12-31`, capex_usd: usd, concept: "PaymentsToAcquirePropertyPlantAndEquipment" as const, form: "10-K", accession_number: "0000000001-26-000001", filed: `${fy + 1}-02-01` });
const company = (ticker: string, annual: ReturnType<typeof year>[], status: "ok" | "failed" = "ok") => ({ ticker, cik: "0000000001", display_name: ticker, status, annual });
const GDP = (y: number, b: number) => ({ year: y, gdp_usd_b: b, source_url: "https://example.org/gdp", source_name: "BEA", checked: "2026-11-26" });
const PRIORS = [cycle("rail", 6), cycle("it", 4.6, 78), cycle("tel", 1.2)];
/** A snapshot whose two companies spend `a` and `b` billions in 2025 against a GDP of 10,000 billions (1 billion = 0.01 %). */
const snap = (a: number, b: number, extra: Partial<AiCapexSnapshot> = {}): AiCapexSnapshot => ({
  companies: [company("AAA", [year(2025, a * 1e9)]), company("BBB", [year(2025, b * 1e9)])],
  cycles: PRIORS,
  us_gdp: [GDP(2025, 10_000)],
  ...extra,
});

describe("verdictFor()", () => {
  const priors = [6, 4.6, 1.2];
  it("gives each verdict at its threshold", () => {
    expect(verdictFor(0.5, priors)).toEqual({ verdict: "MODERATE", rank: 4, exceedsAll: false });
    expect(verdictFor(1.2, priors)).toEqual({ verdict: "MODERATE", rank: 4, exceedsAll: false }); // a tie does not exceed
    expect(verdictFor(1.21, priors).verdict).toBe("MODERATE"); // 1 of 3 exceeded < 50 %
    expect(verdictFor(4.49, [6, 4, 1.2, 1])).toMatchObject({ verdict: "ELEVATED", rank: 2 }); // 3 of 4 exceeded, below 75 % of 6
    expect(verdictFor(2, [6, 1.2])).toMatchObject({ verdict: "ELEVATED", rank: 2 }); // exactly half exceeded
    expect(verdictFor(4.5, priors)).toMatchObject({ verdict: "EXTREME", rank: 3 }); // 75 % of 6, exactly
    expect(verdictFor(6, priors)).toEqual({ verdict: "EXTREME", rank: 2, exceedsAll: false }); // ties the top
    expect(verdictFor(6.01, priors)).toEqual({ verdict: "UNPRECEDENTED", rank: 1, exceedsAll: true });
  });
  it("refuses to rank against nothing", () => {
    expect(() => verdictFor(1, [])).toThrow(/no prior/);
  });
});

describe("closestAnalog() and sentimentOutliers()", () => {
  it("picks the smallest difference, a tie going to the larger peak, then the id", () => {
    expect(closestAnalog(1.5, PRIORS)!.id).toBe("tel");
    expect(closestAnalog(5.3, PRIORS)!.id).toBe("rail"); // 0.7 from each: the larger peak
    expect(closestAnalog(2, [cycle("b", 3), cycle("a", 3)])!.id).toBe("a");
    expect(closestAnalog(2, [])).toBeNull();
  });
  it("flags a deep drawdown on a small capex share, with a note", () => {
    const out = sentimentOutliers([cycle("it", 4.6, 78), cycle("deep-big", 6, 55), cycle("shallow", 1, 40), cycle("none", 1)]);
    expect(out.map((o) => o.cycle_id)).toEqual(["it"]);
    expect(out[0]!.note).toMatch(/fell 78 % on a build-out of 4\.6 % of GDP/);
    expect(sentimentOutliers([cycle("edge", 5, 50)]).map((o) => o.cycle_id)).toEqual(["edge"]); // 50 % and 10x, exactly
  });
});

describe("capexCycleVerdict()", () => {
  it("ranks the cohort's share among the priors with full coverage", () => {
    const v = capexCycleVerdict(snap(100, 50)); // 150 billions = 1.5 %
    expect(v).toMatchObject({ inputs_available: true, verdict: "MODERATE", current_rank: 3, total_ranked: 4, exceeds_all_priors: false });
    expect(v.current_cycle).toEqual({ id: "ai-cohort-capex", name: expect.stringContaining("2025"), peak_capex_pct_gdp: 1.5, annual_capex_usd_b: 150, in_progress: true });
    expect(v.ranking.map((r) => r.id)).toEqual(["rail", "it", "ai-cohort-capex", "tel"]);
    expect(v.ranking.filter((r) => r.is_current)).toHaveLength(1);
    expect(v.closest_analog).toEqual({ cycle_id: "tel", name: "cycle tel", peak_capex_pct_gdp: 1.2, distance: 0.3 });
    expect(v.sentiment_outliers.map((o) => o.cycle_id)).toEqual(["it"]);
    expect(v.not_yet_measurable).toEqual([...NOT_YET_MEASURABLE]);
    expect(v.not_yet_measurable).toEqual(["overbuild_ratio", "peak_to_trough_drawdown_pct", "boom_to_bust_years", "survival_rate_pct"]);
    expect(v.caveats.some((c) => c.startsWith("Partial coverage"))).toBe(false);
    expect(v.interpretation).toMatch(/not a bubble call and does not predict a bust/);
    expect(v.historical_sources).toHaveLength(3);
  });

  it("reaches UNPRECEDENTED and EXTREME; a tie with a prior ranks below it", () => {
    expect(capexCycleVerdict(snap(600, 1))).toMatchObject({ verdict: "UNPRECEDENTED", current_rank: 1, exceeds_all_priors: true });
    expect(capexCycleVerdict(snap(600, 0))).toMatchObject({ verdict: "EXTREME", current_rank: 2, exceeds_all_priors: false });
    const tie = capexCycleVerdict(snap(100, 20)); // 1.2 %, the telecom peak
    expect(tie).toMatchObject({ verdict: "MODERATE", current_rank: 4 });
    expect(tie.ranking.map((r) => r.id)).toEqual(["rail", "it", "tel", "ai-cohort-capex"]);
    expect(tie.closest_analog!.distance).toBe(0);
    expect(capexCycleVerdict(snap(200, 100))).toMatchObject({ verdict: "MODERATE", current_rank: 3 }); // 3 % exceeds 1 of 3 peaks
    expect(capexCycleVerdict(snap(200, 0, { cycles: [cycle("rail", 6), cycle("tel", 1.2)] }))).toMatchObject({ verdict: "ELEVATED", current_rank: 2, total_ranked: 3 }); // exceeds half
  });

  it("reports partial coverage as a lower bound, and a newer capex year without its GDP reference", () => {
    const data = snap(100, 0, {
      companies: [company("AAA", [year(2026, 9e9), year(2025, 100e9)]), company("BBB", [year(2024, 1e9)]), company("CCC", [], "failed"), company("DDD", [])],
    });
    const v = capexCycleVerdict(data);
    expect(v.coverage).toMatchObject({ cohort_size: 4, reference_year: 2025, gdp_usd_b: 10_000 });
    expect(v.coverage.companies_included.map((c) => c.ticker)).toEqual(["AAA"]);
    expect(v.coverage.companies_missing).toEqual([
      { ticker: "BBB", reason: "no figure for 2025 (latest: 2024)" },
      { ticker: "CCC", reason: "EDGAR could not be read" },
      { ticker: "DDD", reason: "no annual USD capital expenditure filed under the concepts read" },
    ]);
    expect(v.caveats[0]).toMatch(/^Partial coverage: 1 of 4 .* lower bound/);
    expect(v.caveats.some((c) => c.includes("Capex for 2026 is filed but the US GDP reference"))).toBe(true);
    expect(v.current_cycle!.peak_capex_pct_gdp).toBe(1);
  });

  it("says inputs are unavailable (no verdict) without capex, without a GDP reference for any capex year, or without priors", () => {
    const none = capexCycleVerdict(snap(0, 0, { companies: [company("AAA", [], "failed")] }));
    expect(none).toMatchObject({ inputs_available: false, verdict: null, current_cycle: null, current_rank: null, exceeds_all_priors: null, closest_analog: null, total_ranked: 3 });
    expect(none.caveats[0]).toMatch(/no cohort company has an annual capital expenditure figure/);
    expect(none.not_yet_measurable).toHaveLength(4);
    const noGdp = capexCycleVerdict(snap(100, 0, { us_gdp: [GDP(2019, 1)] }));
    expect(noGdp).toMatchObject({ inputs_available: false, verdict: null });
    expect(noGdp.caveats[0]).toMatch(/newest capex year 2025; GDP references: 2019/);
    expect(capexCycleVerdict(snap(100, 0, { cycles: [] }))).toMatchObject({ inputs_available: false, verdict: null, total_ranked: 0, ranking: [] });
    expect(capexCycleVerdict({ companies: [], cycles: [], us_gdp: [] }).interpretation).toMatch(/never predicts a bust/);
  });
});
