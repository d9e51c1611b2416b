import { describe, expect, it } from "vitest";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { NewsSearchQuery, NewsSearchResponse, premiumNewsSearchRoutes, renderNewsSearch } from "./premium-news-search.ts";
import type { NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";

// The bundled snapshots, read the way the server reads them.
const { store, ctx } = useBundledSnapshots();

const render = (query: Record<string, string>, without?: string) =>
  NewsSearchResponse.parse(renderNewsSearch(ctx(without), NewsSearchQuery.parse(query)));
const articles = () => store.get<NewsSnapshot>("news")!.data.articles;

describe("GET /api/premium/news/search", () => {
  it("premiumNewsSearchRoutes declares a 1-credit premium route over news", () => {
    expect(premiumNewsSearchRoutes).toHaveLength(1);
    expect(premiumNewsSearchRoutes[0]).toMatchObject({ method: "GET", path: "/api/premium/news/search", tier: "premium", cost: 1, snapshots: ["news"] });
    expect(premiumNewsSearchRoutes[0]!.freshness).toEqual({ cadence: "every 10 minutes", slaSeconds: 1800 });
  });

  it("NewsSearchQuery defaults limit to 25 and refuses bad dates and limits", () => {
    expect(NewsSearchQuery.parse({})).toEqual({ limit: 25 });
    for (const bad of [{ limit: "0" }, { limit: "101" }, { from: "2026-13-01" }, { to: "22/11/2026" }, { unknown: "x" }]) {
      expect(NewsSearchQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("render() browses the bundled snapshot newest first", () => {
    const body = render({});
    expect(body.total_corpus).toBe(articles().length);
    expect(body.matched).toBe(articles().length);
    expect(body.returned).toBe(25);
    const dates = body.results.map((r) => r.published_at);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.query.mode).toBe("browse");
    // Every Article field in snake_case: fetched_at is the article's first-seen time.
    const byId = new Map(articles().map((a) => [a.id, a]));
    for (const r of body.results) expect(r.fetched_at).toBe(byId.get(r.id)!.fetchedAt);
  });

  it("render() finds articles by keyword with title hits first", () => {
    const body = render({ q: "Gemini" });
    expect(body.matched).toBeGreaterThan(0);
    for (const r of body.results) {
      expect(r.matched_terms).toEqual(["gemini"]);
      expect(`${r.title} ${r.snippet}`.toLowerCase()).toContain("gemini");
      expect(r.relevance).toBeGreaterThan(1);
    }
    const rel = body.results.map((r) => r.relevance);
    expect([...rel].sort((a, b) => b - a)).toEqual(rel);
    const top = body.results[0]!;
    expect(top.title.toLowerCase()).toContain("gemini");
    expect(top.relevance).toBeGreaterThanOrEqual(3);
  });

  it("render() filters by provider, category and dates", () => {
    const byProvider = render({ provider: "openai", limit: "100" });
    expect(byProvider.matched).toBeGreaterThan(0);
    for (const r of byProvider.results) expect(`${r.source} ${r.source_domain}`.toLowerCase()).toContain("openai");
    const byCategory = render({ category: "Research", limit: "100" });
    expect(byCategory.matched).toBe(articles().filter((a) => a.categories.includes("research")).length);
    const day = articles()[0]!.publishedAt.slice(0, 10);
    const oneDay = render({ from: day, to: day, limit: "100" });
    expect(oneDay.matched).toBe(articles().filter((a) => a.publishedAt.startsWith(day)).length);
    expect(oneDay.filters).toMatchObject({ from: day, to: day });
  });

  it("render() refuses from after to with 400 invalid_range", () => {
    expect(() => render({ from: "2026-11-20", to: "2026-11-01" })).toThrow(expect.objectContaining({ status: 400, code: "invalid_range" }));
  });

  it("render() answers 503 snapshot_unavailable without the news snapshot", () => {
    expect(() => render({}, "news")).toThrow(expect.objectContaining({ status: 503, code: "snapshot_unavailable" }));
  });

  it("render() measures age from the snapshot's last run, not the request clock", () => {
    const a = renderNewsSearch(ctx(), NewsSearchQuery.parse({ q: "model" }));
    const later = { ...ctx(), now: new Date("2030-01-01T00:00:00Z") };
    expect(renderNewsSearch(later, NewsSearchQuery.parse({ q: "model" }))).toEqual(a);
  });

  it("render() succeeds on the declared example", () => {
    const example = new URL(premiumNewsSearchRoutes[0]!.example!, "http://x");
    expect(render(Object.fromEntries(example.searchParams)).returned).toBeGreaterThan(0);
  });
});
