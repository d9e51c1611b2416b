import { describe, expect, it } from "vitest";
import { emergingKeywords, labProductivity, lift } from "./research.ts";

describe("lift()", () => {
  it("divides the recent frequency by the smoothed baseline frequency", () => {
    expect(lift(10, 100, 0, 99)).toBe(10);
    expect(lift(10, 100, 9, 99)).toBe(1);
    expect(lift(0, 100, 5, 100)).toBe(0);
    expect(lift(3, 0, 0, 10)).toBe(0);
  });
});

describe("emergingKeywords()", () => {
  const k = (keyword: string, recent: number, baseline: number, examples = ["a", "b", "c"]) => ({ keyword, recent_count: recent, baseline_count: baseline, examples });
  it("ranks by lift, then recent count, then keyword; needs two recent preprints; keeps up to 5 examples", () => {
    const out = emergingKeywords([k("agents", 10, 2, ["1", "2", "3", "4", "5", "6"]), k("diffusion", 5, 50), k("rare", 1, 0), k("mcp", 4, 0), k("alpha", 4, 0)], 100, 300);
    // alpha and mcp: 4 of 100 recent, never before (12.04); agents: 10 of 100 recent, 2 of 300 before (10.03).
    expect(out.map((o) => o.keyword)).toEqual(["alpha", "mcp", "agents", "diffusion"]);
    expect(out[2]!.example_preprint_ids).toEqual(["1", "2", "3", "4", "5"]);
    expect(out[2]!.lift).toBeCloseTo((10 / 100) / (3 / 301), 3);
  });
  it("drops a bigram whose word already ranks with the same counts; caps the list", () => {
    const out = emergingKeywords([k("speculative", 3, 0), k("speculative decoding", 3, 0), k("test-time scaling", 3, 1)], 50, 100);
    expect(out.map((o) => o.keyword)).toEqual(["speculative", "test-time scaling"]);
    expect(emergingKeywords([k("a1", 3, 0), k("a2", 3, 0)], 10, 10, 1)).toHaveLength(1);
  });
});

describe("labProductivity()", () => {
  it("ranks affiliations per window and leaves out those without papers there", () => {
    const rows = [
      { affiliation: "MIT", type: "academia", papers: { "30d": 2, "90d": 5, "365d": 9 } },
      { affiliation: "Google DeepMind", type: "industry", papers: { "30d": 0, "90d": 7, "365d": 20 } },
      { affiliation: "Allen Institute for AI", type: "nonprofit", papers: { "30d": 2, "90d": 2, "365d": 2 } },
    ];
    const out = labProductivity(rows, ["30d", "90d"], 2);
    expect(out).toEqual({
      "30d": [{ affiliation: "Allen Institute for AI", papers: 2, type: "nonprofit" }, { affiliation: "MIT", papers: 2, type: "academia" }],
      "90d": [{ affiliation: "Google DeepMind", papers: 7, type: "industry" }, { affiliation: "MIT", papers: 5, type: "academia" }],
    });
  });
});
