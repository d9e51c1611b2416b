import { describe, expect, it } from "vitest";
import { benchmarkTrust, benchmarkTrustAll, contaminationRisk, topSpread, trustFactors, type BenchmarkInfo, type BenchmarkScoreRow } from "./benchmark-trust.ts";

const info = (id = "bench", higherIsBetter = true): BenchmarkInfo => ({ id, name: id.toUpperCase(), category: "coding", url: `https://example.org/${id}`, higherIsBetter });
const row = (model_id: string, score: number, reported_date: string, benchmark = "bench"): BenchmarkScoreRow => ({ benchmark, model_id, score, reported_date });
const CAPTURED = "2026-01-01";

describe("benchmark trust verdict", () => {
  it("contamination risk follows exposure: < 1 year low, 1-2 medium, ≥ 2 high, none without scores", () => {
    expect([null, 0, 364, 365, 729, 730, 2000].map(contaminationRisk)).toEqual(["none", "low", "low", "medium", "medium", "high", "high"]);
  });

  it("top spread is best minus fifth best, or minus the last under five; null under two", () => {
    expect(topSpread([], true)).toBeNull();
    expect(topSpread([50], true)).toBeNull();
    expect(topSpread([50, 40], true)).toBe(10);
    expect(topSpread([90, 80, 70, 60, 50, 10], true)).toBe(40);
    expect(topSpread([10, 20, 30], false)).toBe(20);
  });

  it("a young, unsaturated, well-scored benchmark is high trust and active", () => {
    const rows = ["a", "b", "c", "d", "e"].map((m, i) => row(m, 40 + i * 5, "2025-11-01"));
    const v = benchmarkTrust(info(), rows, CAPTURED);
    expect(v).toMatchObject({ status: "active", contamination_risk: "low", frontier_score: 60, score_range: { min: 40, max: 60 }, trust_band: "high", leaderboard_url: "https://example.org/bench" });
    expect(v.signals).toEqual({ ceiling_proximity: 0.6, frontier_compression: null, top_score_spread: 20, models_scored: 5 });
    expect(v.trust_score).toBe(100 - Math.round((40 * 61) / 1095)); // only the exposure penalty: 61 days
  });

  it("a near-ceiling benchmark is saturated, and contaminated once its test set has been public for two years", () => {
    const young = benchmarkTrust(info(), [row("a", 95, "2025-10-01"), row("b", 91, "2025-10-01")], CAPTURED);
    expect(young.trust_band).toBe("saturated");
    expect(young.contamination_risk).toBe("low");
    const old = benchmarkTrust(info(), [row("a", 95, "2023-06-01"), row("b", 91, "2025-10-01")], CAPTURED);
    expect(old.trust_band).toBe("contaminated");
    expect(old.contamination_risk).toBe("high");
    expect(old.trust_score!).toBeLessThan(young.trust_score!);
  });

  it("medium and low bands as penalties grow; thin data costs trust", () => {
    const medium = benchmarkTrust(info(), ["a", "b", "c", "d", "e"].map((m, i) => row(m, 70 + i * 4, "2024-06-01")), CAPTURED);
    expect(medium.contamination_risk).toBe("medium");
    expect(medium.trust_band).toBe("medium");
    const low = benchmarkTrust(info(), [row("a", 88, "2022-01-01")], CAPTURED);
    expect(low.trust_band).toBe("low");
    expect(low.signals.models_scored).toBe(1);
    expect(low.signals.top_score_spread).toBeNull();
  });

  it("frontier compression compares the top-5 spread with the scores reported a year before the newest", () => {
    const rows = [row("a", 80, "2024-01-01"), row("b", 40, "2024-01-01"), row("c", 82, "2025-06-01"), row("d", 78, "2025-06-01"), row("e", 79, "2025-06-01")];
    const v = benchmarkTrust(info(), rows, CAPTURED);
    // then: 80 − 40 = 40; now top five 82, 80, 79, 78, 40 → 42: the leaders did not bunch up (slightly widened)
    expect(v.signals.frontier_compression).toBe(-0.05);
    const tight = benchmarkTrust(info(), [row("a", 80, "2024-01-01"), row("b", 40, "2024-01-01"), row("c", 81, "2025-06-01"), row("d", 81, "2025-06-01"), row("e", 80, "2025-06-01"), row("f", 80, "2025-06-01")], CAPTURED);
    expect(tight.signals.frontier_compression).toBe(0.975); // now 81 − 80 = 1 against 40
  });

  it("ties at the top give a zero spread", () => {
    const v = benchmarkTrust(info(), [row("a", 70, "2025-12-01"), row("b", 70, "2025-12-01")], CAPTURED);
    expect(v.signals.top_score_spread).toBe(0);
    expect(v.frontier_score).toBe(70);
  });

  it("stale scores make the benchmark dormant; lower-is-better benchmarks read the best as the lowest", () => {
    expect(benchmarkTrust(info(), [row("a", 50, "2024-12-01")], CAPTURED).status).toBe("dormant");
    const v = benchmarkTrust(info("err", false), [row("a", 5, "2025-12-01", "err"), row("b", 30, "2025-12-01", "err")], CAPTURED);
    expect(v.frontier_score).toBe(5);
    expect(v.signals.ceiling_proximity).toBe(0.95);
  });

  it("no score: unscored, insufficient_data, null score; unknown rows are ignored and the catalog order kept", () => {
    const all = benchmarkTrustAll([info("x"), info("y")], [row("a", 50, "2025-12-01", "y"), row("a", 50, "2025-12-01", "not-in-catalog")], CAPTURED);
    expect(all.map((v) => [v.id, v.status, v.trust_band, v.trust_score])).toEqual([
      ["x", "unscored", "insufficient_data", null],
      ["y", "active", expect.any(String), expect.any(Number)],
    ]);
    expect(benchmarkTrustAll([], [], CAPTURED)).toEqual([]);
    const factors = trustFactors(all);
    expect(factors.get("x")).toBe(1);
    expect(factors.get("y")).toBe(all[1]!.trust_score! / 100);
  });
});
