import { describe, expect, it } from "vitest";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import { NEWS_LIMIT, newsMatcher, providerProfile, type ProfileInput } from "./provider-profile.ts";

type Model = PricingSnapshot["providers"][number]["models"][number];
const model = (id: string, tier: Model["tier"], releaseDate: string): Model => ({
  id, name: id.toUpperCase(), provider: "anthropic", inputCostPer1M: 3, outputCostPer1M: 15, currency: "USD", priceServed: "curated",
  priceObservedAt: "2026-01-01T00:00:00.000Z", priceObservations: [{ source: "curated", inputCostPer1M: 3, outputCostPer1M: 15, observedAt: "2026-01-01T00:00:00.000Z", url: "https://example.com/p" }],
  contextWindow: 200000, maxOutput: null, capabilities: ["text", "tools"], releaseDate, openSource: false, tier, aggregatorId: `anthropic/${id}`,
  pricingSource: "https://example.com/p", priceNote: null, priceCheck: null,
});
const article = (title: string, publishedAt: string, sourceDomain = "news.example", snippet = ""): Article => ({
  id: "0123456789abcdef", title, url: `https://news.example/${encodeURIComponent(title)}`, source: "Example", sourceDomain, snippet, categories: ["press"], publishedAt, fetchedAt: publishedAt,
});
const base = (over: Partial<ProfileInput> = {}): ProfileInput => ({
  id: "anthropic",
  pricing: {
    id: "anthropic", name: "Anthropic", url: "https://www.anthropic.com", statusPageUrl: "https://status.claude.com", pricingSource: "https://example.com/p", checked: "2026-01-01", pricingNote: null,
    models: [model("small-1", "small", "2025-01-01"), model("big-old", "flagship", "2024-01-01"), model("big-new", "flagship", "2025-06-01")],
  },
  status: { name: "Anthropic", provider: "anthropic", status: "degraded", statusPageUrl: "https://status.claude.com", components: [{ name: "API", status: "degraded" }] },
  statusCheckedAt: "2026-01-02T00:00:00.000Z",
  probe: { name: "Anthropic", url: "https://api.anthropic.com/v1/models" },
  scores: new Map([["big-new", { gpqa: 80 }]]),
  articles: [
    article("Claude gets a new model", "2026-01-02T00:00:00.000Z"),
    article("Working together on evals", "2026-01-03T00:00:00.000Z"),
    article("Company blog post", "2026-01-01T00:00:00.000Z", "www.anthropic.com"),
    article("Unrelated: OpenAI ships", "2026-01-04T00:00:00.000Z"),
  ],
  activity: { day: "2026-01-02", by_bot: { ClaudeBot: 3, GPTBot: 5, "Claude-User": 1 } },
  bots: [{ token: "ClaudeBot", operator: "Anthropic" }, { token: "Claude-User", operator: "Anthropic" }, { token: "Claude-SearchBot", operator: "Anthropic" }, { token: "GPTBot", operator: "OpenAI" }],
  ...over,
});

describe("provider profile", () => {
  it("gathers identity, status, models (flagship first, newest first), news and today's traffic", () => {
    const p = providerProfile(base());
    expect(p.provider).toEqual({ id: "anthropic", name: "Anthropic", url: "https://www.anthropic.com" });
    expect(p.status).toEqual({ state: "degraded", status_page_url: "https://status.claude.com", last_checked: "2026-01-02T00:00:00.000Z", components: [{ name: "API", status: "degraded" }] });
    expect(p.models.map((m) => m.id)).toEqual(["big-new", "big-old", "small-1"]);
    expect(p.models[0]).toMatchObject({ pricing: { input: 3, output: 15, blended: 6, currency: "USD" }, context_window: 200000, released: "2025-06-01", capabilities: ["text", "tools"], benchmark_scores: { gpqa: 80 } });
    expect(p.models[1]!.benchmark_scores).toEqual({});
    expect(p.recent_news.map((n) => n.title)).toEqual(["Claude gets a new model", "Company blog post"]);
    expect(p.recent_news_count).toBe(2);
    expect(p.agent_traffic_24h).toEqual({ requests: 4, by_bot: { ClaudeBot: 3, "Claude-User": 1 }, day: "2026-01-02", operator_bots: ["ClaudeBot", "Claude-User", "Claude-SearchBot"] });
  });

  it("an untracked status page is unknown, with the catalog's status page URL", () => {
    const p = providerProfile(base({ status: undefined, statusCheckedAt: null }));
    expect(p.status).toEqual({ state: "unknown", status_page_url: "https://status.claude.com", last_checked: null, components: [] });
  });

  it("a provider only on a status page has no models, no URL and no bots", () => {
    const p = providerProfile(base({
      id: "replicate", pricing: undefined, probe: undefined,
      status: { name: "Replicate", provider: "replicate", status: "operational", statusPageUrl: "https://www.replicatestatus.com", components: [] },
      articles: [article("How to replicate the results", "2026-01-01T00:00:00.000Z"), article("Replicate raises", "2026-01-02T00:00:00.000Z")],
    }));
    expect(p.provider).toEqual({ id: "replicate", name: "Replicate", url: null });
    expect(p.models).toEqual([]);
    expect(p.recent_news.map((n) => n.title)).toEqual(["Replicate raises"]);
    expect(p.agent_traffic_24h).toMatchObject({ requests: 0, by_bot: {}, operator_bots: [] });
  });

  it("bounds the news list and counts every match", () => {
    const articles = Array.from({ length: NEWS_LIMIT + 5 }, (_, i) => article(`Anthropic item ${i}`, `2026-01-${String(10 + i).padStart(2, "0")}T00:00:00.000Z`));
    const p = providerProfile(base({ articles }));
    expect(p.recent_news).toHaveLength(NEWS_LIMIT);
    expect(p.recent_news_count).toBe(NEWS_LIMIT + 5);
    expect(p.recent_news[0]!.title).toBe(`Anthropic item ${NEWS_LIMIT + 4}`);
  });

  it("matches names as whole words and domains by suffix", () => {
    const m = newsMatcher(["Meta", "HF"], ["llama.com"]);
    expect(m(article("Meta releases", "2026-01-01T00:00:00.000Z"))).toBe(true);
    expect(m(article("Metaverse news", "2026-01-01T00:00:00.000Z"))).toBe(false);
    expect(m(article("HF hub", "2026-01-01T00:00:00.000Z"))).toBe(false);
    expect(m(article("x", "2026-01-01T00:00:00.000Z", "ai.llama.com"))).toBe(true);
    expect(m(article("x", "2026-01-01T00:00:00.000Z", "notllama.com"))).toBe(false);
  });
});
