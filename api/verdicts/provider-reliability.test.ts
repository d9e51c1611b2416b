import { describe, expect, it } from "vitest";
import { measuredScore, providerReliability, tailTightness, type ProbeWindowRow, type StatusWindowRow } from "./provider-reliability.ts";

const window = { from: "2026-01-01T10:00:00.000Z", to: "2026-01-02T10:00:00.000Z" };
const probe = (provider: string, ok: number, count: number, p50: number | null, p95: number | null, p99: number | null = p95): ProbeWindowRow => ({
  provider, count, ok_count: ok, total_p50: p50, total_p95: p95, total_p99: p99,
});
const status = (provider: string, known: number, up: number, current = "operational"): StatusWindowRow => ({ provider, samples: known, known, up, current_status: current });

describe("provider reliability verdict", () => {
  it("scores availability 70% and tail tightness p50/p95 30%", () => {
    expect(tailTightness(50, 100)).toBe(0.5);
    expect(tailTightness(10, 0)).toBe(1);
    expect(measuredScore(100, 50, 100)).toBe(85);
    expect(measuredScore(90, 100, 100)).toBe(93);
  });

  it("ranks measured providers by score and picks the most dependable and the riskiest", () => {
    const v = providerReliability({
      window,
      probes: [probe("tight", 96, 96, 100, 110, 130), probe("loose", 96, 96, 100, 400, 800), probe("flaky", 48, 96, 100, 110)],
      statuses: [],
    });
    expect(v.ranking.map((r) => r.provider)).toEqual(["tight", "loose", "flaky"]);
    expect(v.ranking[0]).toMatchObject({ rank: 1, ok_pct: 100, total_p50_ms: 100, total_p95_ms: 110, total_p99_ms: 130, spread_ratio: 1.3, measured: true, note: null });
    expect(v.ranking[1]!.reliability_score).toBe(77.5);
    expect(v.verdict).toEqual({ most_dependable: { provider: "tight", reliability_score: v.ranking[0]!.reliability_score }, riskiest: { provider: "flaky", reliability_score: v.ranking[2]!.reliability_score } });
    expect(v.coverage).toEqual({ providers_ranked: 3, fully_measured: 3, availability_only: 0 });
    expect(v.capturedAt).toBe(window.to);
    expect(v.window_label).toContain("24 h");
  });

  it("ranks availability-only providers after the measured ones and leaves them out of the picks", () => {
    const v = providerReliability({
      window,
      probes: [probe("measured", 90, 100, 100, 300), probe("all-failed", 0, 10, null, null)],
      statuses: [status("status-only", 50, 50), status("measured", 10, 0, "down")],
    });
    expect(v.ranking.map((r) => [r.provider, r.measured, r.reliability_score])).toEqual([
      ["measured", true, 73],
      ["status-only", false, 100],
      ["all-failed", false, 0],
    ]);
    expect(v.ranking[1]!.note).toContain("status-page");
    expect(v.ranking[2]!.note).toContain("none of 10");
    expect(v.verdict.most_dependable?.provider).toBe("measured");
    expect(v.verdict.riskiest).toBeNull();
    expect(v.coverage).toEqual({ providers_ranked: 3, fully_measured: 1, availability_only: 2 });
  });

  it("picks among availability-only providers when none is measured", () => {
    const v = providerReliability({ window, probes: [], statuses: [status("a", 10, 10), status("b", 10, 5), status("unknown-only", 0, 0)] });
    expect(v.ranking.map((r) => r.provider)).toEqual(["a", "b"]);
    expect(v.verdict.most_dependable?.provider).toBe("a");
    expect(v.verdict.riskiest?.provider).toBe("b");
  });

  it("breaks ties by ok_pct then id, and names no riskiest when every provider scores alike", () => {
    const v = providerReliability({ window, probes: [probe("zeta", 10, 10, 100, 100), probe("alpha", 10, 10, 100, 100)], statuses: [] });
    expect(v.ranking.map((r) => r.provider)).toEqual(["alpha", "zeta"]);
    expect(v.verdict.most_dependable?.provider).toBe("alpha");
    expect(v.verdict.riskiest).toBeNull();
  });

  it("one provider is the most dependable and no riskiest", () => {
    const v = providerReliability({ window, probes: [probe("solo", 5, 10, 100, 200)], statuses: [] });
    expect(v.verdict).toEqual({ most_dependable: { provider: "solo", reliability_score: 50 }, riskiest: null });
  });

  it("answers an empty ranking without data", () => {
    const v = providerReliability({ window: null, probes: [], statuses: [] });
    expect(v).toMatchObject({ capturedAt: null, ranking: [], verdict: { most_dependable: null, riskiest: null }, coverage: { providers_ranked: 0, fully_measured: 0, availability_only: 0 } });
    expect(v.window_label).toContain("none");
  });

  it("leaves the spread ratio null without a p99 or with a zero p50", () => {
    const v = providerReliability({ window, probes: [probe("a", 1, 1, 0, 0, 0), probe("b", 1, 1, 10, 20, null)], statuses: [] });
    expect(v.ranking.map((r) => r.spread_ratio)).toEqual([null, null]);
  });
});
