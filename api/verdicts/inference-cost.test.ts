import { describe, expect, it } from "vitest";
import { findProvider, inferenceCost, monthlyMicroUsd, tokenSplit, type EndpointRow, type InferenceCostInput } from "./inference-cost.ts";

const row = (provider: string, input: number | null, output: number | null, extra: Partial<EndpointRow> = {}): EndpointRow => ({
  provider, tag: provider.toLowerCase(), input_per_1m: input, output_per_1m: output, throughput_tps: 100, latency_ms: 500, uptime_pct: 99, ...extra,
});
const now = new Date("2026-11-23T12:00:00Z");
const base = (rows: EndpointRow[], over: Partial<InferenceCostInput> = {}): InferenceCostInput => ({
  model: "m", model_id: "a/m", as_of: "2026-11-23", rows, split: tokenSplit({ monthly_tokens: 4_000_000 }), source: "src", now, ...over,
});

describe("token split", () => {
  it("splits monthly tokens 3:1 by default, rounding the input half up, and keeps an exact split", () => {
    expect(tokenSplit({ monthly_tokens: 4_000_000 })).toEqual({ input_tokens: 3_000_000, output_tokens: 1_000_000, basis: "default_3_to_1" });
    expect(tokenSplit({ monthly_tokens: 3 })).toEqual({ input_tokens: 2, output_tokens: 1, basis: "default_3_to_1" });
    expect(tokenSplit({ monthly_tokens: 10, input_tokens: 1, output_tokens: 9 })).toEqual({ input_tokens: 1, output_tokens: 9, basis: "exact" });
  });
  it("sums costs in integer micro-USD", () => {
    expect(monthlyMicroUsd({ input_tokens: 3_000_000, output_tokens: 1_000_000, basis: "exact" }, 0.1, 0.3)).toBe(600_000);
    expect(Number.isInteger(monthlyMicroUsd({ input_tokens: 7, output_tokens: 3, basis: "exact" }, 0.135, 0.0375))).toBe(true);
  });
});

describe("inference cost verdict", () => {
  const rows = [row("Dear", 2, 8), row("Cheap", 1, 2), row("Mid", 1.5, 4)];

  it("names the cheapest, compares with the current provider and recommends SWITCH", () => {
    const v = inferenceCost(base(rows, { current_provider: "Dear" }));
    // 3M × $1 + 1M × $2 = $5 against 3M × $2 + 1M × $8 = $14.
    expect(v.cheapest).toEqual({ provider: "Cheap", tag: "cheap", monthly_cost_usd: 5, output_tps: 100 });
    expect(v.current).toEqual({ provider: "Dear", monthly_cost_usd: 14, basis: "current_provider" });
    expect(v.savings).toEqual({ vs_current_usd: 9, vs_current_pct: 64.29 });
    expect(v.recommendation).toBe("SWITCH");
    expect(v.providers.map((p) => p.provider)).toEqual(["Cheap", "Mid", "Dear"]);
    expect(v.in_matrix).toBe(true);
  });

  it("recommends STAY when the current provider is already the cheapest, and USE_CHEAPEST against the dearest without one", () => {
    expect(inferenceCost(base(rows, { current_provider: "Cheap" }))).toMatchObject({ recommendation: "STAY", savings: { vs_current_usd: 0, vs_current_pct: 0 } });
    const v = inferenceCost(base(rows));
    expect(v).toMatchObject({ recommendation: "USE_CHEAPEST", current: { provider: "Dear", basis: "most_expensive" } });
  });

  it("with one provider, cheapest and current are the same and nothing is saved", () => {
    const v = inferenceCost(base([row("Only", 1, 1)]));
    expect(v.cheapest?.provider).toBe("Only");
    expect(v.current?.provider).toBe("Only");
    expect(v.savings).toEqual({ vs_current_usd: 0, vs_current_pct: 0 });
  });

  it("breaks a cost tie on throughput, then uptime, then name; a tied current provider stays", () => {
    const tied = [row("B", 1, 1, { throughput_tps: 50 }), row("A", 1, 1, { throughput_tps: 50, uptime_pct: 90 }), row("C", 1, 1, { throughput_tps: 80 }), row("D", 1, 1, { throughput_tps: null })];
    expect(inferenceCost(base(tied)).providers.map((p) => p.provider)).toEqual(["C", "B", "A", "D"]);
    expect(inferenceCost(base(tied, { current_provider: "D" })).recommendation).toBe("STAY");
  });

  it("keeps a provider's cheapest endpoint and leaves unpriced endpoints out, with a note", () => {
    const v = inferenceCost(base([row("X", 2, 2, { tag: "x/fp16" }), row("X", 1, 1, { tag: "x/fp8" }), row("Y", null, 1)]));
    expect(v.providers).toHaveLength(1);
    expect(v.cheapest?.tag).toBe("x/fp8");
    expect(v.notes.join(" ")).toContain("1 endpoint(s) without a stated price");
  });

  it("answers NOT_IN_MATRIX with null figures for a model outside the matrix", () => {
    const v = inferenceCost(base([], { model_id: null }));
    expect(v).toMatchObject({ in_matrix: false, cheapest: null, current: null, savings: null, recommendation: "NOT_IN_MATRIX", source: null, providers: [] });
  });

  it("answers NO_PRICED_PROVIDER when no endpoint states a price", () => {
    const v = inferenceCost(base([row("X", null, null)]));
    expect(v).toMatchObject({ in_matrix: true, cheapest: null, recommendation: "NO_PRICED_PROVIDER" });
  });

  it("says how old a stale matrix is, and null throughput has a note", () => {
    const v = inferenceCost(base([row("X", 1, 1, { throughput_tps: null })], { as_of: "2026-11-20" }));
    expect(v.notes.join(" ")).toContain("3 day(s) before today");
    expect(v.notes.join(" ")).toContain("output_tps is null");
    expect(v.cheapest?.output_tps).toBeNull();
  });

  it("falls back to the dearest listing when the named provider states no price", () => {
    const v = inferenceCost(base([row("X", 1, 1), row("Y", 3, 3), row("Z", null, null)], { current_provider: "Z" }));
    expect(v.current).toMatchObject({ provider: "Y", basis: "most_expensive" });
  });

  it("a zero-cost current provider has a null savings percentage", () => {
    expect(inferenceCost(base([row("Free", 0, 0)], { current_provider: "Free" })).savings).toEqual({ vs_current_usd: 0, vs_current_pct: null });
  });

  it("finds a provider by name, tag or the tag's first part, case-insensitively", () => {
    const rs = [row("DeepInfra", 1, 1, { tag: "deepinfra/fp8" })];
    expect(findProvider(rs, "deepinfra")).toBe("DeepInfra");
    expect(findProvider(rs, "DEEPINFRA/FP8")).toBe("DeepInfra");
    expect(findProvider(rs, "together")).toBeNull();
  });
});
