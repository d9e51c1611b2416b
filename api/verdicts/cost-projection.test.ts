import { describe, expect, it } from "vitest";
import { DAYS, matchModel, projectCosts, projectModel, usd, type CostProjectionOptions } from "./cost-projection.ts";
import type { PricingModel, PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";

function model(id: string, name: string, provider: string, input: number, output: number, aggregatorId = `${provider}/${id}`): PricingModel {
  return {
    id, name, provider, inputCostPer1M: input, outputCostPer1M: output, currency: "USD", ...servedCurated(input, output), contextWindow: 128_000, maxOutput: null,
    capabilities: [], releaseDate: "2025-01-01", openSource: false, tier: "mid", aggregatorId,
    pricingSource: `https://${provider}.example/pricing`, priceNote: null, priceCheck: null,
  };
}

/** The price fields of a model whose only observation is the curated one. */
function servedCurated(input: number, output: number): Pick<PricingModel, "priceServed" | "priceObservedAt" | "priceObservations"> {
  const observedAt = "2026-11-20T00:00:00.000Z";
  return { priceServed: "curated", priceObservedAt: observedAt, priceObservations: [{ source: "curated", inputCostPer1M: input, outputCostPer1M: output, observedAt, url: "https://example.test/pricing" }] };
}

const catalog = [
  model("gpt-x", "GPT X", "openai", 2.5, 10),
  model("small", "Small One", "acme", 0.1, 0.4, "acme/small-001"),
  model("dup-name", "Shared", "acme", 1, 1),
  model("dup-name-2", "Shared", "beta", 5, 5),
  model("GPT X", "Confusing", "beta", 9, 9),
];
const pricing: PricingSnapshot = {
  lastUpdated: "2026-11-20",
  providers: [
    { id: "openai", name: "OpenAI", url: "https://openai.example", statusPageUrl: null, pricingSource: "https://openai.example/p", checked: "2026-11-20", pricingNote: null, models: [catalog[0]!] },
    { id: "acme", name: "Acme", url: "https://acme.example", statusPageUrl: null, pricingSource: "https://acme.example/p", checked: "2026-11-20", pricingNote: null, models: [catalog[1]!, catalog[2]!] },
    { id: "beta", name: "Beta", url: "https://beta.example", statusPageUrl: null, pricingSource: "https://beta.example/p", checked: "2026-11-20", pricingNote: null, models: [catalog[3]!, catalog[4]!] },
  ],
};

const opts = (models: string[], over: Partial<CostProjectionOptions> = {}): CostProjectionOptions => ({
  models, input_tokens_per_day: 1_000_000, output_tokens_per_day: 500_000, horizon: "monthly", ...over,
});

describe("matchModel()", () => {
  it("matchModel() prefers an exact id over a name", () => {
    expect(matchModel(catalog, "GPT X")!.id).toBe("GPT X");
    expect(matchModel(catalog, "gpt-x")!.id).toBe("gpt-x");
  });

  it("matchModel() falls back to the display name, case-insensitively, first in catalog order", () => {
    expect(matchModel(catalog, "small one")!.id).toBe("small");
    expect(matchModel(catalog, "SHARED")!.id).toBe("dup-name");
    expect(matchModel(catalog, "gpt x")!.id).toBe("gpt-x");
  });

  it("matchModel() falls back to the aggregator id, case-insensitively", () => {
    expect(matchModel(catalog, "ACME/small-001")!.id).toBe("small");
  });

  it("matchModel() does not match an id with other case, or an unknown name", () => {
    expect(matchModel(catalog, "SMALL")).toBeUndefined();
    expect(matchModel(catalog, "nope")).toBeUndefined();
  });
});

describe("projectModel()", () => {
  it("projectModel() prices a day of input and output at the per-1M rates and scales to 7, 30 and 365 days", () => {
    const p = projectModel(catalog[0]!, 2_000_000, 300_000);
    expect(p.daily).toEqual({ input_cost: 5, output_cost: 3, total: 8 });
    expect(p.weekly_total).toBe(56);
    expect(p.monthly_total).toBe(240);
    expect(p.yearly_total).toBe(2920);
    expect(p.rates).toEqual({ input_per_1m: 2.5, output_per_1m: 10, blended_per_1m: 4.375 });
    expect(p).toMatchObject({ model: "gpt-x", provider: "openai", matched: true });
    expect(DAYS).toEqual({ daily: 1, weekly: 7, monthly: 30, yearly: 365 });
  });

  it("projectModel() keeps tiny workloads visible to 6 decimals and rounds from unrounded values", () => {
    const p = projectModel(catalog[1]!, 1_234, 567);
    // 0.001234 × 0.1 = 0.0001234; 0.000567 × 0.4 = 0.0002268
    expect(p.daily.input_cost).toBe(0.000123);
    expect(p.daily.output_cost).toBe(0.000227);
    expect(p.daily.total).toBe(0.00035);
    expect(p.yearly_total).toBe(usd(0.0003502 * 365));
    expect(p.yearly_total).toBe(0.127823);
  });

  it("projectModel() gives zero cost for a zero workload", () => {
    const p = projectModel(catalog[0]!, 0, 0);
    expect(p.daily.total).toBe(0);
    expect(p.yearly_total).toBe(0);
  });
});

describe("projectCosts()", () => {
  it("projectCosts() echoes the workload and horizon", () => {
    const v = projectCosts(pricing, opts(["gpt-x"], { horizon: "yearly" }));
    expect(v.workload).toEqual({ input_tokens_per_day: 1_000_000, output_tokens_per_day: 500_000, total_tokens_per_day: 1_500_000 });
    expect(v.primary_horizon).toBe("yearly");
    expect(v.ok).toBe(true);
  });

  it("projectCosts() keeps request order in projections and ranks matched models by monthly total", () => {
    const v = projectCosts(pricing, opts(["gpt-x", "small", "Shared"]));
    expect(v.projections.map((p) => p.model)).toEqual(["gpt-x", "small", "dup-name"]);
    // daily: gpt-x 2.5 + 5 = 7.5; small 0.1 + 0.2 = 0.3; dup-name 1 + 0.5 = 1.5
    expect(v.ranked_cheapest_monthly).toEqual([
      { model: "small", provider: "acme", monthly_total: 9 },
      { model: "dup-name", provider: "acme", monthly_total: 45 },
      { model: "gpt-x", provider: "openai", monthly_total: 225 },
    ]);
  });

  it("projectCosts() lists unmatched names with null figures and leaves them out of the ranking", () => {
    const v = projectCosts(pricing, opts(["mystery-model", "small"]));
    expect(v.projections[0]).toEqual({
      model: "mystery-model", provider: null, matched: false,
      rates: { input_per_1m: null, output_per_1m: null, blended_per_1m: null },
      daily: { input_cost: null, output_cost: null, total: null },
      weekly_total: null, monthly_total: null, yearly_total: null,
    });
    expect(v.ranked_cheapest_monthly.map((r) => r.model)).toEqual(["small"]);
  });

  it("projectCosts() projects a model asked for twice once", () => {
    const v = projectCosts(pricing, opts(["small", "Small One", "acme/small-001", "Mystery", "mystery"]));
    expect(v.projections.map((p) => p.model)).toEqual(["small", "Mystery"]);
  });

  it("projectCosts() breaks monthly ties by model id", () => {
    const twins: PricingSnapshot = { ...pricing, providers: [{ ...pricing.providers[0]!, models: [model("zz", "ZZ", "openai", 1, 1), model("aa", "AA", "openai", 1, 1)] }] };
    expect(projectCosts(twins, opts(["zz", "aa"])).ranked_cheapest_monthly.map((r) => r.model)).toEqual(["aa", "zz"]);
  });
});
