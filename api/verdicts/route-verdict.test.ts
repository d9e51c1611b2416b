import { describe, expect, it } from "vitest";
import {
  type CatalogModel,
  type DeprecationRow,
  type PriceRow,
  type ProbeRow,
  type RouteInputs,
  type ScoreRow,
  type StatusRow,
  NEUTRAL,
  benchmarkTrust,
  latestProbes,
  newestPrices,
  routeVerdict,
  trustFactor,
} from "./route-verdict.ts";

const NOW = new Date("2026-03-10T12:00:00Z");
const FRESH = "2026-03-10T11:50:00Z";

const model = (id: string, provider: string, extra: Partial<CatalogModel> = {}): CatalogModel => ({ id, name: id.toUpperCase(), provider, openSource: false, contextWindow: 1000, ...extra });
const price = (model_id: string, input: number, output: number, extra: Partial<PriceRow> = {}): PriceRow => ({
  model_id, input_per_1m: input, output_per_1m: output, source: "curated", observed_at: "2026-03-10T00:00:00Z", date: "2026-03-10", ...extra,
});
const score = (benchmark: string, model_id: string, s: number): ScoreRow => ({ benchmark, model_id, score: s });
const status = (provider: string, s: string, ts = FRESH): StatusRow => ({ provider, status: s, ts, impaired_since: null });
const probe = (provider: string, p95: number | null, date = "2026-03-10"): ProbeRow => ({ provider, date, count: 10, total_p95: p95 });

/** Two providers, three models; scores on the reasoning benchmarks only (gpqa, math, mmlu-pro). */
function inputs(over: Partial<RouteInputs> = {}): RouteInputs {
  return {
    models: [model("a1", "alpha"), model("a2", "alpha"), model("b1", "beta")],
    prices: [price("a1", 1, 4), price("a2", 10, 40), price("b1", 2, 8)],
    scores: [
      score("gpqa-diamond", "a1", 50), score("gpqa-diamond", "a2", 70), score("gpqa-diamond", "b1", 60),
      score("math-500", "a1", 60), score("math-500", "a2", 80), score("math-500", "b1", 70),
      score("mmlu-pro", "a1", 60), score("mmlu-pro", "a2", 70), score("mmlu-pro", "b1", 65),
    ],
    statuses: [status("alpha", "operational"), status("beta", "operational")],
    statusPages: new Map([["alpha", "https://status.alpha.test"], ["beta", "https://status.beta.test"]]),
    probes: [probe("alpha", 100), probe("beta", 400)],
    deprecations: [],
    ...over,
  };
}

describe("trustFactor()", () => {
  it("counts a benchmark in full up to a top score of 80% and at half at 100%", () => {
    expect([trustFactor(null), trustFactor(50), trustFactor(80), trustFactor(90), trustFactor(100)]).toEqual([1, 1, 1, 0.75, 0.5]);
  });

  it("benchmarkTrust() gives the task's benchmarks with their best score", () => {
    const t = benchmarkTrust([score("math-500", "x", 95), score("math-500", "y", 40), score("gpqa-diamond", "x", 60)], "reasoning");
    expect(t).toEqual([
      { benchmark: "gpqa-diamond", share: 0.4, top_score: 60, trust_factor: 1 },
      { benchmark: "math-500", share: 0.4, top_score: 95, trust_factor: 0.625 },
      { benchmark: "mmlu-pro", share: 0.2, top_score: null, trust_factor: 1 },
    ]);
  });
});

describe("newestPrices()", () => {
  it("keeps the newest observation per model, the curated one on a tie, a NULL observed_at as oldest", () => {
    const got = newestPrices([
      price("m", 1, 1, { source: "aggregator", observed_at: "2026-03-09T10:00:00Z" }),
      price("m", 2, 2, { source: "curated", observed_at: "2026-03-09T00:00:00Z" }),
      price("n", 3, 3, { source: "aggregator", observed_at: "2026-03-10T00:00:00Z" }),
      price("n", 4, 4, { source: "curated", observed_at: "2026-03-10T00:00:00Z" }),
      price("o", 5, 5, { observed_at: null }),
      price("o", 6, 6, { source: "aggregator", observed_at: "2026-01-01T00:00:00Z" }),
      price("p", 7, 7, { date: "2026-03-09", observed_at: "2026-03-09T23:00:00Z" }),
      price("p", 8, 8, { date: "2026-03-10", observed_at: "2026-03-01T00:00:00Z" }),
    ]);
    expect([...got].map(([id, r]) => [id, r.input_per_1m])).toEqual([["m", 1], ["n", 4], ["o", 6], ["p", 8]]);
  });
});

describe("latestProbes()", () => {
  it("keeps each provider's newest probed day since yesterday, with a p95", () => {
    const got = latestProbes([probe("a", 10, "2026-03-09"), probe("a", 20, "2026-03-10"), probe("b", 30, "2026-03-08"), probe("c", null), { ...probe("d", 5), count: 0 }], NOW);
    expect([...got].map(([p, r]) => [p, r.total_p95])).toEqual([["a", 20]]);
  });
});

describe("routeVerdict()", () => {
  it("ranks by the composite of trust-discounted quality, operational state, cost and latency", () => {
    const v = routeVerdict(inputs(), { task: "reasoning", now: NOW });
    // Nothing is near a ceiling: quality = 0.4·gpqa + 0.4·math + 0.2·mmlu. a1 = 0.56, a2 = 0.74, b1 = 0.65.
    // Blended: a1 1.75, a2 17.5, b1 3.5 → cost a1 1, a2 0, b1 1 − ln2/ln10. Latency: alpha 1, beta 0.
    const b1Cost = 1 - Math.log(2) / Math.log(10);
    const expected = {
      a1: 0.4 * 0.56 + 0.25 + 0.2 * 1 + 0.15,
      a2: 0.4 * 0.74 + 0.25 + 0 + 0.15,
      b1: 0.4 * 0.65 + 0.25 + 0.2 * b1Cost + 0,
    };
    expect(v.verdict!.model.id).toBe("a1");
    expect(v.verdict!.composite_score).toBeCloseTo(expected.a1, 4);
    expect(v.runners_up.map((r) => [r.model.id, r.rank])).toEqual([["a2", 2], ["b1", 3]]);
    expect(v.runners_up[0]!.composite_score).toBeCloseTo(expected.a2, 4);
    expect(v.runners_up[1]!.composite_score).toBeCloseTo(expected.b1, 4);
    expect(v.verdict).toMatchObject({
      rank: 1,
      model: { id: "a1", name: "A1", provider: "alpha", openSource: false, contextWindow: 1000 },
      pricing: { input: 1, output: 4, blended: 1.75, currency: "USD", unit: "per_1m_tokens", source: "curated" },
      quality: { task_score: 0.56, trust_discounted: 0.56 },
      usage: { corroborated: false, rank: null, share_pct: null, trend: null, source: null },
      latency: { measured_p95_ms: 100 },
      operational: { ok: true, status: "operational", source: "https://status.alpha.test", as_of: FRESH },
      deprecation: { flagged: false, status: null, sunset_date: null },
    });
    expect(v.verdict!.quality.contamination_note).toContain("No discount");
    expect(v.verdict!.why).toMatch(/^Rank 1 of 3 for reasoning; composite 0\.\d+; trust-discounted quality 0\.56 \(#3 by quality\)/);
    expect(v.trust).toMatchObject({
      usage_corroborated: false,
      operational_layer: { source: "status_samples", as_of: FRESH, age_seconds: 600, sla_seconds: 1800, fresh: true },
      latency_layer: { source: "probe_samples", as_of: "2026-03-10", providers_measured: 2 },
    });
    expect(v.capturedAt).toBe(FRESH);
  });

  it("discounts a benchmark near its ceiling, which can reorder models", () => {
    // x leads on math-500 (top 100%, counted at half), y on gpqa (top 70%, counted in full).
    const data = inputs({
      models: [model("x", "alpha"), model("y", "alpha")],
      prices: [price("x", 1, 1), price("y", 1, 1)],
      scores: [score("math-500", "x", 100), score("math-500", "y", 70), score("gpqa-diamond", "x", 50), score("gpqa-diamond", "y", 70)],
      probes: [],
    });
    const v = routeVerdict(data, { task: "reasoning", now: NOW });
    const x = [v.verdict!, ...v.runners_up].find((e) => e.model.id === "x")!;
    const y = [v.verdict!, ...v.runners_up].find((e) => e.model.id === "y")!;
    // Blend over gpqa and math (mmlu unscored drops out): x 0.75 raw, (0.4·0.5 + 0.4·0.5·1.0)/0.8 = 0.5 discounted.
    expect(x.quality).toMatchObject({ task_score: 0.75, trust_discounted: 0.5 });
    expect(y.quality).toMatchObject({ task_score: 0.7, trust_discounted: 0.525 });
    expect(v.verdict!.model.id).toBe("y");
    expect(x.quality.contamination_note).toContain("math-500 near its ceiling (top 100%) counted at 50%");
    expect(v.trust.benchmark_contamination.benchmarks.find((b) => b.benchmark === "math-500")).toEqual({ benchmark: "math-500", share: 0.4, top_score: 100, trust_factor: 0.5 });
  });

  it("answers null with a reason on empty data, and marks the operational layer stale", () => {
    const v = routeVerdict({ models: [], prices: [], scores: [], statuses: [], statusPages: new Map(), probes: [], deprecations: [] }, { task: "code", now: NOW });
    expect(v).toMatchObject({ verdict: null, runners_up: [], ranked: 0, capturedAt: null });
    expect(v.empty_reason).toBe("no priced model has a score on the code benchmarks");
    expect(v.trust.operational_layer).toMatchObject({ as_of: null, age_seconds: null, fresh: false });
    expect(v.trust.latency_layer).toMatchObject({ source: null, providers_measured: 0 });
  });

  it("with one provider and one model the verdict stands alone", () => {
    const v = routeVerdict(inputs({ models: [model("a1", "alpha")] }), { task: "reasoning", now: NOW });
    expect(v.verdict!.model.id).toBe("a1");
    expect(v.verdict!.rank).toBe(1);
    expect(v.runners_up).toEqual([]);
    expect(v.ranked).toBe(1);
  });

  it("breaks ties by trust-discounted quality, then price, then id", () => {
    const tied = inputs({
      models: [model("m-b", "alpha"), model("m-a", "alpha")],
      prices: [price("m-b", 1, 1), price("m-a", 1, 1)],
      scores: [score("gpqa-diamond", "m-b", 60), score("gpqa-diamond", "m-a", 60)],
    });
    const v = routeVerdict(tied, { task: "reasoning", now: NOW });
    expect([v.verdict!.model.id, v.runners_up[0]!.model.id]).toEqual(["m-a", "m-b"]);
    expect(v.verdict!.composite_score).toBe(v.runners_up[0]!.composite_score);
  });

  it("reports a status sample older than 30 minutes as a stale operational layer", () => {
    const v = routeVerdict(inputs({ statuses: [status("alpha", "operational", "2026-03-10T11:29:59Z")] }), { task: "reasoning", now: NOW });
    expect(v.trust.operational_layer).toMatchObject({ age_seconds: 1801, fresh: false });
    const edge = routeVerdict(inputs({ statuses: [status("alpha", "operational", "2026-03-10T11:30:00Z")] }), { task: "reasoning", now: NOW });
    expect(edge.trust.operational_layer).toMatchObject({ age_seconds: 1800, fresh: true });
    // beta has no sample: unknown, scored neutral, its page still named.
    const b1 = [v.verdict!, ...v.runners_up].find((e) => e.model.id === "b1")!;
    expect(b1.operational).toEqual({ ok: false, status: "unknown", source: "https://status.beta.test", as_of: null });
  });

  it("filters by operational state, deprecation and measured latency after scoring", () => {
    const data = inputs({
      statuses: [status("alpha", "degraded"), status("beta", "operational")],
      deprecations: [{ provider: "beta", model: "b1", status: "announced", sunset_date: "2027-01-01" }],
    });
    const all = routeVerdict(data, { task: "reasoning", now: NOW });
    expect(all.ranked).toBe(3);
    expect(routeVerdict(data, { task: "reasoning", require_operational: true, now: NOW }).verdict!.model.id).toBe("b1");
    const noDep = routeVerdict(data, { task: "reasoning", exclude_deprecated: true, now: NOW });
    expect([noDep.verdict!, ...noDep.runners_up].map((e) => e.model.id).sort()).toEqual(["a1", "a2"]);
    const both = routeVerdict(data, { task: "reasoning", require_operational: true, exclude_deprecated: true, now: NOW });
    expect(both.verdict).toBeNull();
    expect(both.empty_reason).toBe("no model passes the filters");
    const fast = routeVerdict(data, { task: "reasoning", max_latency_p95_ms: 200, now: NOW });
    expect([fast.verdict!, ...fast.runners_up].every((e) => e.model.provider === "alpha")).toBe(true);
    // A filter only removes rows: the scores of the rest do not change.
    expect(fast.verdict!.composite_score).toBe([all.verdict!, ...all.runners_up].find((e) => e.model.id === fast.verdict!.model.id)!.composite_score);
  });

  it("removes unmeasured providers under max_latency_p95_ms and scores them neutral otherwise", () => {
    const data = inputs({ probes: [probe("alpha", 100), probe("beta", 50, "2026-03-08")] });
    const v = routeVerdict(data, { task: "reasoning", now: NOW });
    const b1 = [v.verdict!, ...v.runners_up].find((e) => e.model.id === "b1")!;
    expect(b1.latency).toMatchObject({ measured_p95_ms: null, source: null });
    expect(b1.latency.note).toContain(`neutral (${NEUTRAL})`);
    expect(b1.why).toContain("latency not measured");
    const bounded = routeVerdict(data, { task: "reasoning", max_latency_p95_ms: 10_000, now: NOW });
    expect([bounded.verdict!, ...bounded.runners_up].map((e) => e.model.id)).not.toContain("b1");
  });

  it("never ranks a retired model, nor one past its sunset date", () => {
    const deprecations: DeprecationRow[] = [
      { provider: "alpha", model: "a1", status: "deprecated", sunset_date: "2026-03-01" },
      { provider: "alpha", model: "a2", status: "retired", sunset_date: null },
    ];
    const v = routeVerdict(inputs({ deprecations }), { task: "reasoning", now: NOW });
    expect(v.verdict!.model.id).toBe("b1");
    expect(v.ranked).toBe(1);
    // On its sunset date a model is shut down: retired already, as the migration verdict counts it.
    const onTheDay = routeVerdict(inputs({ deprecations: [{ provider: "alpha", model: "a1", status: "deprecated", sunset_date: "2026-03-10" }, deprecations[1]!] }), { task: "reasoning", now: NOW });
    expect(onTheDay.ranked).toBe(1);
    const named = routeVerdict(inputs({ deprecations }), { task: "reasoning", model: "a1", now: NOW });
    expect(named.verdict).toMatchObject({ rank: null, deprecation: { flagged: true, status: "retired", sunset_date: "2026-03-01" } });
    expect(named.verdict!.why).toMatch(/^Not in the ranking of 1 for reasoning \(retired\)/);
  });

  it("scales cost and latency over the models that can rank: a retired model moves no other model's score", () => {
    const retired = routeVerdict(inputs({ deprecations: [{ provider: "alpha", model: "a2", status: "retired", sunset_date: null }] }), { task: "reasoning", now: NOW });
    const absent = routeVerdict(inputs({ models: [model("a1", "alpha"), model("b1", "beta")], prices: [price("a1", 1, 4), price("b1", 2, 8)] }), { task: "reasoning", now: NOW });
    const composites = (v: ReturnType<typeof routeVerdict>) => Object.fromEntries([v.verdict!, ...v.runners_up].filter((e) => e.rank !== null).map((e) => [e.model.id, e.composite_score]));
    expect(Object.keys(composites(retired)).sort()).toEqual(["a1", "b1"]);
    expect(composites(retired)).toEqual(composites(absent));
  });

  it("matches the calendar by exact id (dots as dashes), else by dated versions, the least severe counting", () => {
    const data = inputs({
      models: [model("m-3.5", "alpha"), model("m-4", "alpha"), model("m-5", "alpha"), model("m-6", "beta")],
      prices: ["m-3.5", "m-4", "m-5", "m-6"].map((id) => price(id, 1, 1)),
      scores: ["m-3.5", "m-4", "m-5", "m-6"].map((id) => score("gpqa-diamond", id, 50)),
      deprecations: [
        { provider: "alpha", model: "m-3-5", status: "deprecated", sunset_date: "2026-12-01" },
        { provider: "alpha", model: "m-4-20240101", status: "retired", sunset_date: "2025-01-01" },
        { provider: "alpha", model: "m-4-2025-06-01", status: "deprecated", sunset_date: "2026-09-01" },
        { provider: "alpha", model: "m-5-mini", status: "retired", sunset_date: "2025-01-01" },
        { provider: "alpha", model: "m-6", status: "retired", sunset_date: "2025-01-01" },
      ],
    });
    const v = routeVerdict(data, { task: "reasoning", now: NOW });
    const dep = (id: string) => [v.verdict!, ...v.runners_up].find((e) => e.model.id === id)?.deprecation;
    expect(dep("m-3.5")).toEqual({ flagged: true, status: "deprecated", sunset_date: "2026-12-01" });
    expect(dep("m-4")).toEqual({ flagged: true, status: "deprecated", sunset_date: "2026-09-01" });
    expect(dep("m-5")).toEqual({ flagged: false, status: null, sunset_date: null });
    expect(dep("m-6")).toEqual({ flagged: false, status: null, sunset_date: null });
  });

  it("with a model, the verdict is that model and runners_up the best others", () => {
    const v = routeVerdict(inputs(), { task: "reasoning", model: "b1", now: NOW });
    expect(v.verdict).toMatchObject({ rank: 3, model: { id: "b1" } });
    expect(v.runners_up.map((r) => r.model.id)).toEqual(["a1", "a2"]);
    const filtered = routeVerdict(inputs(), { task: "reasoning", model: "b1", exclude_providers: ["beta"], now: NOW });
    expect(filtered.verdict!.rank).toBeNull();
    expect(filtered.verdict!.why).toContain("(provider excluded)");
  });

  it("answers null for a model without a price or without a score for the task", () => {
    const data = inputs({ models: [...inputs().models, model("c1", "alpha")], prices: [...inputs().prices, price("c1", 1, null as never)] });
    const v = routeVerdict(data, { task: "reasoning", model: "c1", now: NOW });
    expect(v.verdict).toBeNull();
    expect(v.empty_reason).toBe("model c1 has no price or no score on the reasoning benchmarks in the warehouse");
    const gpqaOnly = inputs({ scores: inputs().scores.filter((r) => r.benchmark === "gpqa-diamond") });
    expect(routeVerdict(gpqaOnly, { task: "code", model: "a1", now: NOW }).verdict).toBeNull();
  });

  it("keeps at most four runners-up and honours min_trust_discounted", () => {
    const ids = ["m1", "m2", "m3", "m4", "m5", "m6"];
    const data = inputs({
      models: ids.map((id) => model(id, "alpha")),
      prices: ids.map((id) => price(id, 1, 1)),
      scores: ids.map((id, i) => score("gpqa-diamond", id, 40 + i * 5)),
    });
    const v = routeVerdict(data, { task: "reasoning", now: NOW });
    expect([v.verdict!.model.id, ...v.runners_up.map((r) => r.model.id)]).toEqual(["m6", "m5", "m4", "m3", "m2"]);
    const floor = routeVerdict(data, { task: "reasoning", min_trust_discounted: 0.6, now: NOW });
    expect(floor.ranked).toBe(2);
  });
});
