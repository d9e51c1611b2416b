import { describe, expect, it } from "vitest";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { ApiError } from "../registry/types.ts";
import { CostProjectionQuery, CostProjectionResponse, premiumCostRoutes, renderCostProjection } from "./premium-cost.ts";

// The bundled snapshots, read the way the server reads them.
const { ctx } = useBundledSnapshots();

const render = (query: Record<string, string>, without?: string) =>
  CostProjectionResponse.parse(renderCostProjection(ctx(without), CostProjectionQuery.parse(query)));

describe("GET /api/premium/cost/projection", () => {
  it("premiumCostRoutes declares a 1-credit premium route over pricing", () => {
    expect(premiumCostRoutes).toHaveLength(1);
    expect(premiumCostRoutes[0]).toMatchObject({ method: "GET", path: "/api/premium/cost/projection", tier: "premium", cost: 1, snapshots: ["pricing"] });
    expect(premiumCostRoutes[0]!.freshness).toEqual({ cadence: "hourly", slaSeconds: 7200 });
  });

  it("CostProjectionQuery splits the model list and refuses 0 or more than 10 names, overlong or control characters", () => {
    expect(CostProjectionQuery.parse({ model: " gpt-4o, ,o3 ", input_tokens_per_day: "1000", output_tokens_per_day: "0" })).toEqual({
      model: ["gpt-4o", "o3"], input_tokens_per_day: 1000, output_tokens_per_day: 0, horizon: "monthly",
    });
    const ok = { input_tokens_per_day: "1", output_tokens_per_day: "1" };
    expect(CostProjectionQuery.safeParse({ ...ok, model: Array.from({ length: 10 }, (_, i) => `m${i}`).join(",") }).success).toBe(true);
    expect(CostProjectionQuery.safeParse({ ...ok, model: Array.from({ length: 10 }, (_, i) => `${i}`.padEnd(120, "m")).join(",") }).success).toBe(true);
    for (const bad of [
      { ...ok, model: Array.from({ length: 11 }, (_, i) => `m${i}`).join(",") },
      { ...ok, model: " , " },
      { ...ok },
      { model: "gpt-4o", input_tokens_per_day: "1" },
      { model: "gpt-4o", input_tokens_per_day: "-1", output_tokens_per_day: "1" },
      { model: "gpt-4o", input_tokens_per_day: "lots", output_tokens_per_day: "1" },
      { model: "gpt-4o", input_tokens_per_day: "", output_tokens_per_day: "1" },
      { model: "gpt-4o", input_tokens_per_day: "1", output_tokens_per_day: "  " },
      { ...ok, model: "gpt-4o", horizon: "hourly" },
      { model: "gpt-4o", input_tokens_per_day: " 5", output_tokens_per_day: "1" },
      { ...ok, model: "x".repeat(121) },
      { ...ok, model: "gpt-4o,\u0007bell" },
      { ...ok, model: "y".repeat(20_000) },
    ]) {
      expect(CostProjectionQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("render() projects catalog models on the bundled snapshots in the strict response shape", () => {
    const body = render({ model: "gpt-4o,Claude Sonnet 4,deepseek/deepseek-chat-v3-0324", input_tokens_per_day: "1000000", output_tokens_per_day: "1000000", horizon: "weekly" });
    expect(body.primary_horizon).toBe("weekly");
    expect(body.projections.map((p) => [p.model, p.provider, p.matched])).toEqual([
      ["gpt-4o", "openai", true],
      ["claude-sonnet-4", "anthropic", true],
      ["deepseek-v3", "deepseek", true],
    ]);
    // gpt-4o lists at 2.5 / 10 USD per 1M
    const gpt = body.projections[0]!;
    expect(gpt.rates).toEqual({ input_per_1m: 2.5, output_per_1m: 10, blended_per_1m: 4.375 });
    expect(gpt.daily).toEqual({ input_cost: 2.5, output_cost: 10, total: 12.5 });
    expect([gpt.weekly_total, gpt.monthly_total, gpt.yearly_total]).toEqual([87.5, 375, 4562.5]);
    expect(body.ranked_cheapest_monthly.map((r) => r.model)).toEqual(["deepseek-v3", "gpt-4o", "claude-sonnet-4"]);
  });

  it("render() keeps unmatched names with null figures out of the ranking", () => {
    const body = render({ model: "no-such-model,gpt-4o-mini", input_tokens_per_day: "5000", output_tokens_per_day: "100" });
    expect(body.projections[0]).toMatchObject({ model: "no-such-model", matched: false, provider: null, monthly_total: null });
    expect(body.ranked_cheapest_monthly).toHaveLength(1);
    // 0.005 × 0.15 + 0.0001 × 0.6 = 0.00081 a day
    expect(body.projections[1]!.daily.total).toBe(0.00081);
  });

  it("render() answers 503 snapshot_unavailable without the pricing snapshot", () => {
    expect(() => render({ model: "gpt-4o", input_tokens_per_day: "1", output_tokens_per_day: "1" }, "pricing")).toThrow(ApiError);
    expect(() => render({ model: "gpt-4o", input_tokens_per_day: "1", output_tokens_per_day: "1" }, "pricing")).toThrow(
      expect.objectContaining({ status: 503, code: "snapshot_unavailable" }),
    );
  });

  it("render() succeeds on the declared example", () => {
    const example = new URL(premiumCostRoutes[0]!.example!, "http://x");
    const body = render(Object.fromEntries(example.searchParams));
    expect(body.projections.every((p) => p.matched)).toBe(true);
  });
});
