import { describe, expect, it } from "vitest";
import { type FailoverInputs, type StatusPage, classifyImpact, failoverVerdict, resolveProvider } from "./failover.ts";
import type { CatalogModel, PriceRow, ScoreRow } from "./route-verdict.ts";

const NOW = new Date("2026-03-10T12:00:00Z");
const FRESH = "2026-03-10T11:58:00Z";

const page = (provider: string, status: string, components: [string, string][] = []): StatusPage => ({
  provider,
  name: provider[0]!.toUpperCase() + provider.slice(1),
  status,
  components: components.map(([name, s]) => ({ name, status: s })),
});
const model = (id: string, provider: string): CatalogModel => ({ id, name: id, provider, openSource: false, contextWindow: 1000 });
const price = (model_id: string, p: number): PriceRow => ({ model_id, input_per_1m: p, output_per_1m: p, source: "curated", observed_at: null, date: "2026-03-10" });
const gpqa = (model_id: string, score: number): ScoreRow => ({ benchmark: "gpqa-diamond", model_id, score });

/** alpha (in trouble), beta and gamma; each with one model; alpha's is the best. */
function inputs(pages: StatusPage[], over: Partial<FailoverInputs> = {}): FailoverInputs {
  return {
    models: [model("a1", "alpha"), model("b1", "beta"), model("c1", "gamma")],
    prices: [price("a1", 1), price("b1", 1), price("c1", 1)],
    scores: [gpqa("a1", 80), gpqa("b1", 70), gpqa("c1", 60)],
    statuses: pages.map((p) => ({ provider: p.provider, status: p.status, ts: FRESH, impaired_since: null })),
    statusPages: new Map(pages.map((p) => [p.provider, `https://status.${p.provider}.test`])),
    probes: [],
    deprecations: [],
    pages,
    ...over,
  };
}

describe("resolveProvider()", () => {
  const known = [{ id: "azure-openai", names: ["Azure OpenAI"] }, { id: "google", names: ["Google Cloud (Vertex AI / Gemini)", "Google"] }, { id: "anthropic", names: ["Anthropic"] }];

  it("matches an id, a display name or an alias, ignoring case and punctuation", () => {
    expect(resolveProvider("Azure-OpenAI", known)).toBe("azure-openai");
    expect(resolveProvider("azure openai", known)).toBe("azure-openai");
    expect(resolveProvider("GOOGLE", known)).toBe("google");
    expect(resolveProvider("gemini", known)).toBe("google");
    expect(resolveProvider("Claude", known)).toBe("anthropic");
    expect(resolveProvider("azure", known)).toBe("azure-openai");
  });

  it("answers null for an unknown name, an alias of an untracked provider, or nothing", () => {
    expect(resolveProvider("nope", known)).toBeNull();
    expect(resolveProvider("grok", known)).toBeNull();
    expect(resolveProvider(" - ", known)).toBeNull();
  });
});

describe("classifyImpact()", () => {
  it("full_outage: the page down and every API-facing component down (consoles do not count)", () => {
    const i = classifyImpact(page("x", "down", [["API", "down"], ["Console", "operational"]]));
    expect(i).toMatchObject({ classification: "full_outage", action: "FAIL_OVER_NOW", service: "API", down: ["API"] });
    expect(classifyImpact(page("x", "down")).classification).toBe("full_outage");
  });

  it("partial_outage: an API-facing component down among others up, or the page down with none down", () => {
    expect(classifyImpact(page("x", "degraded", [["Chat Completions", "down"], ["Embeddings", "operational"]]))).toMatchObject({ classification: "partial_outage", action: "FAIL_OVER_NOW", service: "Chat Completions" });
    expect(classifyImpact(page("x", "down", [["API", "degraded"]]))).toMatchObject({ classification: "partial_outage", service: "API" });
  });

  it("degraded_performance: latency-sensitive failover when the API is degraded, monitor when only consoles are", () => {
    expect(classifyImpact(page("x", "degraded", [["Inference API", "degraded"], ["Website", "operational"]]))).toMatchObject({ classification: "degraded_performance", action: "FAIL_OVER_LATENCY_SENSITIVE", apiImpaired: true });
    expect(classifyImpact(page("x", "degraded"))).toMatchObject({ classification: "degraded_performance", action: "FAIL_OVER_LATENCY_SENSITIVE" });
    expect(classifyImpact(page("x", "degraded", [["Developer Console", "down"], ["API", "operational"]]))).toMatchObject({ classification: "degraded_performance", action: "MONITOR", service: "Developer Console", apiImpaired: false });
  });

  it("none when nothing is impaired; unknown when untracked or unreadable", () => {
    expect(classifyImpact(page("x", "operational", [["API", "operational"], ["Spaces Proxy", "unknown"]]))).toMatchObject({ classification: "none", action: "NO_ACTION", service: null });
    expect(classifyImpact(page("x", "unknown"))).toMatchObject({ classification: "unknown", action: "MONITOR" });
    expect(classifyImpact(undefined)).toMatchObject({ classification: "unknown", action: "MONITOR" });
  });
});

describe("failoverVerdict()", () => {
  it("describes the incident and fails over to the best model of another provider, excluding those down", () => {
    const pages = [page("alpha", "down", [["API", "down"], ["Console", "operational"]]), page("beta", "down"), page("gamma", "operational")];
    const v = failoverVerdict(
      inputs(pages, { statuses: [{ provider: "alpha", status: "down", ts: FRESH, impaired_since: "2026-03-10T11:00:00Z" }, { provider: "gamma", status: "operational", ts: FRESH, impaired_since: null }] }),
      { from: "alpha", task: "reasoning", now: NOW },
    );
    expect(v.from).toMatchObject({ provider: "alpha", status: "down", in_incident: true });
    expect(v.from.incident).toEqual({
      title: "Alpha: full outage (API down)",
      service: "API",
      impact_classification: "full_outage",
      recommended_action: "FAIL_OVER_NOW",
      started_at: "2026-03-10T11:00:00Z",
      triage_summary: `Alpha's status page shows down: 1 component of 2 impaired, impaired since 2026-03-10T11:00:00Z by our status samples. Fail over now to c1 (gamma, composite ${v.failover_to!.composite_score}).`,
    });
    expect(v.excluded_providers).toEqual([
      { provider: "alpha", reason: "the provider failed over from" },
      { provider: "beta", reason: "its status page shows down" },
    ]);
    expect(v.failover_to!.model.id).toBe("c1");
    expect(v.failover_to!.rank).toBe(1);
    expect(v.alternatives).toEqual([]);
    expect(v.recommended_action).toBe("FAIL_OVER_NOW");
    expect(v.query).toEqual({ from: "alpha", task: "reasoning", model: null });
    expect(v.capturedAt).toBe(FRESH);
  });

  it("with no incident, gives a standby destination and NO_ACTION", () => {
    const pages = [page("alpha", "operational", [["API", "operational"]]), page("beta", "operational"), page("gamma", "degraded")];
    const v = failoverVerdict(inputs(pages), { from: "alpha", task: "reasoning", now: NOW });
    expect(v.from).toEqual({ provider: "alpha", status: "operational", in_incident: false, incident: null });
    expect(v.recommended_action).toBe("NO_ACTION");
    expect(v.failover_to!.model.id).toBe("b1");
    expect(v.alternatives.map((a) => a.model.id)).toEqual(["c1"]);
    expect(v.excluded_providers).toHaveLength(1);
  });

  it("an untracked provider is unknown, not in an incident, and monitored", () => {
    const v = failoverVerdict(inputs([page("beta", "operational")]), { from: "alpha", task: "reasoning", now: NOW });
    expect(v.from).toEqual({ provider: "alpha", status: "unknown", in_incident: false, incident: null });
    expect(v.recommended_action).toBe("MONITOR");
  });

  it("has no destination when every other provider is excluded", () => {
    const pages = [page("alpha", "degraded", [["API", "degraded"]]), page("beta", "down"), page("gamma", "down")];
    const v = failoverVerdict(inputs(pages), { from: "alpha", task: "reasoning", now: NOW });
    expect(v.failover_to).toBeNull();
    expect(v.from.incident!.recommended_action).toBe("FAIL_OVER_LATENCY_SENSITIVE");
    expect(v.from.incident!.triage_summary).toContain("no eligible model of another provider");
    expect(v.note).toBe("no model passes the filters");
  });

  it("with a model, keeps destinations at 90% of its quality when any reaches it", () => {
    const pages = [page("alpha", "down"), page("beta", "operational"), page("gamma", "operational")];
    // c1 is the cheapest; a1 scores 0.8, so the floor is 0.72: b1 (0.7) and c1 (0.6) miss it.
    const data = inputs(pages, { prices: [price("a1", 1), price("b1", 5), price("c1", 0.1)], scores: [gpqa("a1", 80), gpqa("b1", 78), gpqa("c1", 60)] });
    const plain = failoverVerdict(data, { from: "alpha", task: "reasoning", now: NOW });
    expect(plain.failover_to!.model.id).toBe("c1");
    const held = failoverVerdict(data, { from: "alpha", task: "reasoning", model: "a1", now: NOW });
    expect(held.failover_to!.model.id).toBe("b1");
    expect(held.alternatives).toEqual([]);
    expect(held.query.model).toBe("a1");
    const strict = failoverVerdict(data, { from: "alpha", task: "reasoning", model: "a1", comparableShare: 1, now: NOW });
    expect(strict.failover_to!.model.id).toBe("c1");
    expect(strict.note).toContain("No model of another provider reaches 100%");
  });
});
