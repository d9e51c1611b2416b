import { describe, expect, it } from "vitest";
import { ApiError } from "../registry/types.ts";
import {
  BENCHMARK,
  DEFAULT_WEIGHTS,
  TASK_BLENDS,
  costScore,
  median,
  qualityScore,
  resolveWeights,
  routeModels,
  scoreTable,
  type RoutingOptions,
} from "./routing.ts";
import type { BenchmarksSnapshot } from "../../pipelines/contract/snapshots/benchmarks.ts";
import type { PricingModel, PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import type { StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";

function model(id: string, provider: string, input: number, output: number): PricingModel {
  return {
    id, name: id.toUpperCase(), provider, inputCostPer1M: input, outputCostPer1M: output, currency: "USD", ...servedCurated(input, output), contextWindow: 128_000,
    maxOutput: null, capabilities: [], releaseDate: "2025-01-01", openSource: false, tier: "mid",
    aggregatorId: `${provider}/${id}`, pricingSource: `https://${provider}.example/pricing`, priceNote: null, priceCheck: null,
  };
}

/** The price fields of a model whose only observation is the curated one. */
function servedCurated(input: number, output: number): Pick<PricingModel, "priceServed" | "priceObservedAt" | "priceObservations"> {
  const observedAt = "2026-11-20T00:00:00.000Z";
  return { priceServed: "curated", priceObservedAt: observedAt, priceObservations: [{ source: "curated", inputCostPer1M: input, outputCostPer1M: output, observedAt, url: "https://example.test/pricing" }] };
}

function pricing(...models: PricingModel[]): PricingSnapshot {
  const byProvider = new Map<string, PricingModel[]>();
  for (const m of models) byProvider.set(m.provider, [...(byProvider.get(m.provider) ?? []), m]);
  return {
    lastUpdated: "2026-11-20",
    providers: [...byProvider].map(([id, ms]) => ({
      id, name: id, url: `https://${id}.example`, statusPageUrl: null, pricingSource: `https://${id}.example/pricing`, checked: "2026-11-20", pricingNote: null, models: ms,
    })),
  };
}

function benchmarks(scores: Record<string, Record<string, number>>): BenchmarksSnapshot {
  return {
    lastUpdated: "2026-11-01",
    benchmarks: Object.entries(scores).map(([id, byModel]) => ({
      id, name: id, category: "coding", url: "https://bench.example", description: "d", higherIsBetter: true,
      scores: Object.entries(byModel).map(([m, score]) => ({ model: m, score, source: "https://bench.example/s", date: "2026-01-01" })),
    })),
  };
}

function status(states: Record<string, "operational" | "degraded" | "down" | "unknown">): StatusSnapshot {
  return {
    services: Object.entries(states).sort(([a], [b]) => (a < b ? -1 : 1)).map(([provider, s]) => ({
      name: provider, provider, status: s, statusPageUrl: `https://status.${provider}.example`, components: [],
    })),
  };
}

const opts = (over: Partial<RoutingOptions> = {}): RoutingOptions => ({ task: "general", top_n: 5, weights: {}, ...over });

describe("resolveWeights()", () => {
  it("resolveWeights() returns the defaults when nothing is supplied", () => {
    expect(resolveWeights({})).toEqual(DEFAULT_WEIGHTS);
  });

  it("resolveWeights() shares the remainder among unsupplied weights in proportion to their defaults", () => {
    const w = resolveWeights({ quality: 0.7 });
    expect(w.quality).toBe(0.7);
    // 0.3 left over, defaults 0.3 : 0.2 : 0.1
    expect(w.availability).toBeCloseTo(0.15, 12);
    expect(w.cost).toBeCloseTo(0.1, 12);
    expect(w.latency).toBeCloseTo(0.05, 12);
  });

  it("resolveWeights() gives unsupplied weights the whole 1 when the supplied one is 0", () => {
    const w = resolveWeights({ latency: 0 });
    expect(w.latency).toBe(0);
    expect(w.quality).toBeCloseTo(0.4 / 0.9, 12);
    expect(w.availability).toBeCloseTo(0.3 / 0.9, 12);
    expect(w.cost).toBeCloseTo(0.2 / 0.9, 12);
  });

  it("resolveWeights() leaves unsupplied weights at 0 when the supplied ones already sum to 1", () => {
    expect(resolveWeights({ quality: 0.5, cost: 0.5 })).toEqual({ quality: 0.5, availability: 0, cost: 0.5, latency: 0 });
  });

  it("resolveWeights() scales supplied weights summing above 1 down to 1 and zeroes the rest", () => {
    const w = resolveWeights({ quality: 0.8, cost: 0.8 });
    expect(w).toEqual({ quality: 0.5, availability: 0, cost: 0.5, latency: 0 });
  });

  it("resolveWeights() scales all four supplied weights to sum 1", () => {
    const w = resolveWeights({ quality: 0.2, availability: 0.1, cost: 0.1, latency: 0 });
    expect(w.quality).toBeCloseTo(0.5, 12);
    expect(w.availability).toBeCloseTo(0.25, 12);
    expect(w.cost).toBeCloseTo(0.25, 12);
    expect(w.latency).toBe(0);
  });

  it("resolveWeights() refuses four zero weights with a 400", () => {
    const call = () => resolveWeights({ quality: 0, availability: 0, cost: 0, latency: 0 });
    expect(call).toThrow(ApiError);
    try {
      call();
    } catch (err) {
      expect((err as ApiError).status).toBe(400);
      expect((err as ApiError).code).toBe("invalid_weights");
    }
  });

  it("resolveWeights() always sums to 1", () => {
    for (const supplied of [{}, { quality: 0.1 }, { cost: 1 }, { quality: 0.9, availability: 0.9, cost: 0.9 }, { availability: 0.25, latency: 0.25 }]) {
      const w = resolveWeights(supplied);
      expect(w.quality + w.availability + w.cost + w.latency).toBeCloseTo(1, 12);
    }
  });
});

describe("quality", () => {
  it("TASK_BLENDS rows sum to 1 and name the five benchmark ids", () => {
    for (const blend of Object.values(TASK_BLENDS)) {
      expect(Object.values(blend).reduce((s, x) => s + x, 0)).toBeCloseTo(1, 12);
      for (const id of Object.keys(blend)) expect(Object.values(BENCHMARK)).toContain(id);
    }
  });

  it("median() takes the middle value, or the mean of the two middle values", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
  });

  it("scoreTable() turns percentages into fractions and inverts lower-is-better benchmarks", () => {
    const b = benchmarks({ x: { m: 80 } });
    b.benchmarks.push({ ...b.benchmarks[0]!, id: "err", higherIsBetter: false, scores: [{ model: "m", score: 30, source: "https://e.example", date: "2026-01-01" }] });
    const t = scoreTable(b);
    expect(t.get("x")!.get("m")).toBe(0.8);
    expect(t.get("err")!.get("m")).toBeCloseTo(0.7, 12);
  });

  it("qualityScore() blends the code benchmarks 40/40/20", () => {
    const t = scoreTable(benchmarks({ humaneval: { a: 90 }, "swe-bench-verified": { a: 50 }, "mmlu-pro": { a: 70 } }));
    expect(qualityScore(t, "a", "code")).toBeCloseTo(0.4 * 0.9 + 0.4 * 0.5 + 0.2 * 0.7, 12);
  });

  it("qualityScore() blends reasoning and creative with their own shares", () => {
    const t = scoreTable(benchmarks({ humaneval: { a: 80 }, "gpqa-diamond": { a: 60 }, "math-500": { a: 90 }, "mmlu-pro": { a: 70 } }));
    expect(qualityScore(t, "a", "reasoning")).toBeCloseTo(0.4 * 0.6 + 0.4 * 0.9 + 0.2 * 0.7, 12);
    expect(qualityScore(t, "a", "creative")).toBeCloseTo(0.5 * 0.7 + 0.25 * 0.8 + 0.25 * 0.9, 12);
  });

  it("qualityScore() imputes a missing benchmark with its median over scored models", () => {
    const t = scoreTable(benchmarks({
      humaneval: { a: 90, b: 80, c: 60 },
      "swe-bench-verified": { b: 40, c: 20 },
      "mmlu-pro": { a: 70 },
    }));
    // a lacks SWE-bench: median of 0.4 and 0.2 = 0.3
    expect(qualityScore(t, "a", "code")).toBeCloseTo(0.4 * 0.9 + 0.4 * 0.3 + 0.2 * 0.7, 12);
    // c lacks MMLU-Pro: median of the single score 0.7
    expect(qualityScore(t, "c", "code")).toBeCloseTo(0.4 * 0.6 + 0.4 * 0.2 + 0.2 * 0.7, 12);
  });

  it("qualityScore() is null for a model with none of the task's benchmarks", () => {
    const t = scoreTable(benchmarks({ humaneval: { a: 90 }, "gpqa-diamond": { b: 60 } }));
    expect(qualityScore(t, "b", "code")).toBeNull();
    expect(qualityScore(t, "b", "reasoning")).not.toBeNull();
    expect(qualityScore(t, "nobody", "general")).toBeNull();
  });

  it("qualityScore() drops a benchmark nobody is scored on and renormalizes over the rest", () => {
    const t = scoreTable(benchmarks({ humaneval: { a: 90 }, "mmlu-pro": { a: 60 } }));
    // code without any SWE-bench scores: (0.4·0.9 + 0.2·0.6) / 0.6
    expect(qualityScore(t, "a", "code")).toBeCloseTo((0.4 * 0.9 + 0.2 * 0.6) / 0.6, 12);
  });
});

describe("costScore()", () => {
  it("costScore() is 1 at the cheapest, 0 at the dearest, 0.5 at their geometric mean", () => {
    expect(costScore(0.1, 0.1, 10)).toBe(1);
    expect(costScore(10, 0.1, 10)).toBe(0);
    expect(costScore(1, 0.1, 10)).toBeCloseTo(0.5, 12);
  });

  it("costScore() is 1 when every price is the same, and floors tiny prices at 0.01", () => {
    expect(costScore(3, 3, 3)).toBe(1);
    expect(costScore(0, 0, 1)).toBe(1);
    expect(costScore(0.001, 0, 1)).toBe(1);
    expect(costScore(0.1, 0, 1)).toBeCloseTo(0.5, 12);
  });
});

describe("routeModels()", () => {
  // blended (3:1): cheap 0.1, mid 1, dear 10
  const data = {
    pricing: pricing(model("cheap", "acme", 0.1, 0.1), model("mid", "beta", 1, 1), model("dear", "acme", 10, 10), model("unscored", "acme", 0.01, 0.01)),
    benchmarks: benchmarks({ humaneval: { cheap: 50, mid: 70, dear: 90 }, "swe-bench-verified": { cheap: 30, mid: 50, dear: 70 }, "mmlu-pro": { cheap: 60, mid: 70, dear: 80 } }),
    status: status({ acme: "operational", gamma: "down" }),
  };

  it("routeModels() computes the composite from the four components with the default weights", () => {
    const v = routeModels(data, opts({ task: "code" }));
    expect(v.ok).toBe(true);
    expect(v.weights).toEqual(DEFAULT_WEIGHTS);
    const dear = v.recommendations.find((r) => r.model.id === "dear")!;
    const q = 0.4 * 0.9 + 0.4 * 0.7 + 0.2 * 0.8;
    expect(dear.components).toEqual({ quality: Math.round(q * 1e4) / 1e4, availability: 1, cost: 0, latency: 0.5 });
    expect(dear.composite_score).toBeCloseTo(0.4 * q + 0.3 * 1 + 0.2 * 0 + 0.1 * 0.5, 4);
    const mid = v.recommendations.find((r) => r.model.id === "mid")!;
    // beta has no status entry: unknown, 0.5
    expect(mid.status).toBe("unknown");
    expect(mid.components.availability).toBe(0.5);
    expect(mid.components.cost).toBe(0.5);
    expect(mid.pricing).toEqual({ input: 1, output: 1, currency: "USD" });
    expect(mid.model).toEqual({ id: "mid", name: "MID", provider: "beta" });
  });

  it("routeModels() ranks by composite and leaves out models without benchmark scores", () => {
    const v = routeModels(data, opts({ task: "code" }));
    expect(v.recommendations.map((r) => r.model.id)).not.toContain("unscored");
    expect(v.recommendations.map((r) => r.rank)).toEqual([1, 2, 3]);
    const scores = v.recommendations.map((r) => r.composite_score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it("routeModels() follows the availability of the provider's status", () => {
    const down = routeModels({ ...data, status: status({ acme: "down" }) }, opts({ task: "code" }));
    const degraded = routeModels({ ...data, status: status({ acme: "degraded" }) }, opts({ task: "code" }));
    expect(down.recommendations.find((r) => r.model.id === "cheap")!.components.availability).toBe(0);
    expect(degraded.recommendations.find((r) => r.model.id === "cheap")!.components.availability).toBe(0.5);
    expect(degraded.recommendations.find((r) => r.model.id === "cheap")!.status).toBe("degraded");
  });

  it("routeModels() keeps models within the budget without changing their scores", () => {
    const all = routeModels(data, opts({ task: "code" }));
    const cheap = routeModels(data, opts({ task: "code", budget: 1 }));
    expect(cheap.recommendations.map((r) => r.model.id).sort()).toEqual(["cheap", "mid"]);
    for (const r of cheap.recommendations) {
      expect(r.composite_score).toBe(all.recommendations.find((x) => x.model.id === r.model.id)!.composite_score);
    }
    expect(routeModels(data, opts({ task: "code", budget: 0.05 })).recommendations).toEqual([]);
  });

  it("routeModels() keeps models whose quality reaches min_quality", () => {
    const v = routeModels(data, opts({ task: "code", min_quality: 0.6 }));
    // qualities: cheap 0.44, mid 0.62, dear 0.8
    expect(v.recommendations.map((r) => r.model.id).sort()).toEqual(["dear", "mid"]);
    expect(v.recommendations.every((r) => r.components.quality >= 0.6)).toBe(true);
  });

  it("routeModels() returns at most top_n recommendations", () => {
    expect(routeModels(data, opts({ task: "code", top_n: 1 })).recommendations).toHaveLength(1);
  });

  it("routeModels() lets weights change the winner", () => {
    expect(routeModels(data, opts({ task: "code", weights: { quality: 1 } })).recommendations[0]!.model.id).toBe("dear");
    expect(routeModels(data, opts({ task: "code", weights: { cost: 1 } })).recommendations[0]!.model.id).toBe("cheap");
  });

  it("routeModels() breaks composite ties by quality, then price, then id", () => {
    const twins = {
      pricing: pricing(model("b-twin", "acme", 1, 1), model("a-twin", "acme", 1, 1), model("pricier", "acme", 2, 2)),
      benchmarks: benchmarks({ "mmlu-pro": { "b-twin": 70, "a-twin": 70, pricier: 70 } }),
      status: status({ acme: "operational" }),
    };
    // only quality and availability count: all three tie on composite, twins tie on price
    const v = routeModels(twins, opts({ task: "creative", weights: { quality: 0.5, availability: 0.5 } }));
    expect(v.recommendations.map((r) => r.composite_score)).toEqual([0.85, 0.85, 0.85]);
    expect(v.recommendations.map((r) => r.model.id)).toEqual(["a-twin", "b-twin", "pricier"]);
  });

  it("routeModels() answers an empty list when no model has scores for the task", () => {
    const v = routeModels({ ...data, benchmarks: benchmarks({ "gpqa-diamond": { other: 50 } }) }, opts({ task: "code" }));
    expect(v.recommendations).toEqual([]);
    expect(v.task).toBe("code");
  });
});
