import { describe, expect, it } from "vitest";
import { capabilityIndex, paretoFrontier, percentScores, type PricedModel } from "./frontier.ts";

const priced = (model_id: string, blended_price: number): PricedModel => ({ model_id, name: model_id.toUpperCase(), blended_price });

describe("capability index", () => {
  const rows = [
    { benchmark: "humaneval", model_id: "a", score: 90 },
    { benchmark: "swe-bench-verified", model_id: "a", score: 50 },
    { benchmark: "mmlu-pro", model_id: "a", score: 70 },
    { benchmark: "humaneval", model_id: "b", score: 80 },
    { benchmark: "gpqa-diamond", model_id: "c", score: 60 },
  ];

  it("blends the task's benchmarks at full trust as a plain weighted mean", () => {
    const cap = capabilityIndex("code", percentScores(rows), new Map());
    expect(cap.get("a")).toBe(0.4 * 90 + 0.4 * 50 + 0.2 * 70);
    // b lacks swe-bench and mmlu-pro: imputed with the medians (50 and 70, only a has them)
    expect(cap.get("b")).toBe(0.4 * 80 + 0.4 * 50 + 0.2 * 70);
    expect(cap.has("c")).toBe(false); // none of the code benchmarks
  });

  it("discounts each benchmark by its trust factor", () => {
    const cap = capabilityIndex("code", percentScores(rows), new Map([["humaneval", 0.5]]));
    expect(cap.get("a")).toBe(0.4 * 0.5 * 90 + 0.4 * 50 + 0.2 * 70);
  });

  it("no scores: no index", () => {
    expect(capabilityIndex("general", percentScores([]), new Map()).size).toBe(0);
  });
});

describe("Pareto frontier", () => {
  it("keeps models nobody beats on price and capability; names the cheapest dominator", () => {
    const cap = new Map([["cheap", 30], ["mid", 50], ["dear", 80], ["bad", 40], ["worse", 20]]);
    const f = paretoFrontier([priced("cheap", 1), priced("mid", 2), priced("dear", 10), priced("bad", 5), priced("worse", 3)], cap);
    expect(f.frontier.map((m) => m.model_id)).toEqual(["cheap", "mid", "dear"]);
    expect(f.dominated.map((m) => [m.model_id, m.dominated_by.model_id])).toEqual([["bad", "mid"], ["worse", "cheap"]]);
    expect(f.counts).toEqual({ priced: 5, frontier: 3, dominated: 2 });
    expect(f.frontier[0]).toEqual({ model_id: "cheap", name: "CHEAP", capability: 30, blended_price: 1 });
  });

  it("exact ties are both on the frontier; equal price with higher capability dominates", () => {
    const f = paretoFrontier([priced("x", 2), priced("y", 2), priced("z", 2)], new Map([["x", 50], ["y", 50], ["z", 40]]));
    expect(f.frontier.map((m) => m.model_id)).toEqual(["x", "y"]);
    expect(f.dominated).toEqual([{ model_id: "z", name: "Z", capability: 40, blended_price: 2, dominated_by: { model_id: "x", capability: 50, blended_price: 2 } }]);
  });

  it("one model is the frontier; models without an index or price are left out; empty is empty", () => {
    expect(paretoFrontier([priced("solo", 4), priced("unscored", 1)], new Map([["solo", 10], ["unpriced", 99]])).counts).toEqual({ priced: 1, frontier: 1, dominated: 0 });
    expect(paretoFrontier([], new Map())).toEqual({ frontier: [], dominated: [], counts: { priced: 0, frontier: 0, dominated: 0 } });
  });

  it("a free model at equal capability dominates a paid one", () => {
    const f = paretoFrontier([priced("free", 0), priced("paid", 1)], new Map([["free", 30], ["paid", 30]]));
    expect(f.dominated.map((m) => m.model_id)).toEqual(["paid"]);
  });
});
