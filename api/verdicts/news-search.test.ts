import { describe, expect, it } from "vitest";
import { ApiError } from "../registry/types.ts";
import { filterArticles, queryTerms, recencyBoost, scoreArticle, searchNews, tokens, type NewsSearchOptions } from "./news-search.ts";
import type { Article, NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";

const REF = new Date("2026-11-22T00:00:00.000Z");
let n = 0;
function article(over: Partial<Article> & { daysOld: number }): Article {
  const { daysOld, ...rest } = over;
  n++;
  return {
    id: n.toString(16).padStart(16, "0"),
    title: "Untitled",
    url: `https://news.example/a/${n}`,
    source: "Example Wire",
    sourceDomain: "news.example",
    snippet: "",
    categories: ["press"],
    publishedAt: new Date(REF.getTime() - daysOld * 86_400_000).toISOString(),
    fetchedAt: REF.toISOString(),
    ...rest,
  };
}

const a1 = article({ title: "Gemini 3.5 Flash released", snippet: "Google ships a faster Gemini model.", source: "Google AI Blog", sourceDomain: "blog.google", categories: ["company", "Google AI"], daysOld: 0 });
const a2 = article({ title: "Benchmarks are saturating", snippet: "Gemini and Claude both top MMLU-Pro; gemini gemini gemini.", source: "Interconnects", sourceDomain: "interconnects.ai", categories: ["newsletter"], daysOld: 7 });
const a3 = article({ title: "Claude gets tool use upgrades", snippet: "Anthropic updates Claude.", source: "Anthropic News", sourceDomain: "anthropic.com", categories: ["company"], daysOld: 14 });
const a4 = article({ title: "Robots in the warehouse", snippet: "Nothing about models.", source: "WIRED: AI", sourceDomain: "wired.com", categories: ["press"], daysOld: 1 });
const news: NewsSnapshot = { articles: [a1, a4, a2, a3], sources: [] };

const opts = (over: Partial<NewsSearchOptions> = {}): NewsSearchOptions => ({ limit: 25, ...over });

function apiError(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error("expected an ApiError");
}

describe("tokenizing", () => {
  it("tokens() lower-cases, NFKC-normalizes and splits on anything but letters and digits", () => {
    expect(tokens("GPT-4o: the ＡＩ news, naïve café 3.5")).toEqual(["gpt", "4o", "the", "ai", "news", "naïve", "café", "3", "5"]);
  });

  it("queryTerms() drops stop words and repeats, keeping query order", () => {
    expect(queryTerms("The Gemini and the Claude gemini")).toEqual(["gemini", "claude"]);
    expect(queryTerms("New models, new prices")).toEqual(["new", "models", "prices"]);
    expect(queryTerms("the of and")).toEqual([]);
  });
});

describe("scoring", () => {
  it("recencyBoost() is 1 at age 0 and halves every 7 days; future dates count as age 0", () => {
    expect(recencyBoost(0)).toBe(1);
    expect(recencyBoost(7)).toBe(0.5);
    expect(recencyBoost(14)).toBe(0.25);
    expect(recencyBoost(-3)).toBe(1);
  });

  it("scoreArticle() weighs a title hit 3 and a snippet hit 1, once per field", () => {
    expect(scoreArticle(a1, ["gemini"])).toEqual({ hits: 4, matched: ["gemini"] });
    expect(scoreArticle(a2, ["gemini"])).toEqual({ hits: 1, matched: ["gemini"] });
    expect(scoreArticle(a2, ["gemini", "claude", "benchmarks", "absent"])).toEqual({ hits: 1 + 1 + 3, matched: ["gemini", "claude", "benchmarks"] });
  });

  it("scoreArticle() matches whole tokens only", () => {
    expect(scoreArticle(a1, ["gem"])).toEqual({ hits: 0, matched: [] });
  });
});

describe("filterArticles()", () => {
  it("filterArticles() keeps inclusive UTC days between from and to", () => {
    const day = (a: Article) => a.publishedAt.slice(0, 10);
    expect(filterArticles(news.articles, opts({ from: day(a2), to: day(a4) })).map((a) => a.id)).toEqual([a4.id, a2.id]);
    expect(filterArticles(news.articles, opts({ from: day(a1) })).map((a) => a.id)).toEqual([a1.id]);
    expect(filterArticles(news.articles, opts({ to: day(a3) })).map((a) => a.id)).toEqual([a3.id]);
  });

  it("filterArticles() matches provider against source name or domain, case-insensitively", () => {
    expect(filterArticles(news.articles, opts({ provider: "GOOGLE" })).map((a) => a.id)).toEqual([a1.id]);
    expect(filterArticles(news.articles, opts({ provider: "anthropic.com" })).map((a) => a.id)).toEqual([a3.id]);
    expect(filterArticles(news.articles, opts({ provider: "wired" })).map((a) => a.id)).toEqual([a4.id]);
  });

  it("filterArticles() matches a whole category, case-insensitively", () => {
    expect(filterArticles(news.articles, opts({ category: "google ai" })).map((a) => a.id)).toEqual([a1.id]);
    expect(filterArticles(news.articles, opts({ category: "Company" })).map((a) => a.id)).toEqual([a1.id, a3.id]);
    expect(filterArticles(news.articles, opts({ category: "comp" }))).toEqual([]);
  });
});

describe("searchNews()", () => {
  it("searchNews() adds hits and the recency boost, and excludes articles without hits", () => {
    const v = searchNews(news, opts({ q: "gemini" }), REF);
    expect(v.results.map((r) => [r.id, r.relevance])).toEqual([[a1.id, 5], [a2.id, 1.5]]);
    expect(v.matched).toBe(2);
    expect(v.returned).toBe(2);
    expect(v.total_corpus).toBe(4);
    expect(v.query).toEqual({ q: "gemini", terms: ["gemini"], mode: "search" });
  });

  it("searchNews() lets the recency boost order equal hits", () => {
    const v = searchNews(news, opts({ q: "claude" }), REF);
    // a2: snippet 1 + 0.5; a3: title 3 + snippet 1 + 0.25
    expect(v.results.map((r) => [r.id, r.relevance, r.matched_terms])).toEqual([[a3.id, 4.25, ["claude"]], [a2.id, 1.5, ["claude"]]]);
  });

  it("searchNews() browses newest first without q, relevance being the boost alone", () => {
    const v = searchNews(news, opts(), REF);
    expect(v.results.map((r) => r.id)).toEqual([a1.id, a4.id, a2.id, a3.id]);
    expect(v.results.map((r) => r.relevance)).toEqual([1, Math.round(2 ** (-1 / 7) * 1e4) / 1e4, 0.5, 0.25]);
    expect(v.results.every((r) => r.matched_terms.length === 0)).toBe(true);
    expect(v.query).toEqual({ q: null, terms: [], mode: "browse" });
    expect(searchNews(news, opts({ q: "  " }), REF).query.mode).toBe("browse");
  });

  it("searchNews() maps articles to the snake_case result shape", () => {
    const r = searchNews(news, opts({ q: "gemini", limit: 1 }), REF).results[0]!;
    expect(r).toEqual({
      id: a1.id, title: a1.title, url: a1.url, source: a1.source, source_domain: "blog.google", snippet: a1.snippet,
      categories: a1.categories, published_at: a1.publishedAt, fetched_at: a1.fetchedAt, relevance: 5, matched_terms: ["gemini"],
    });
  });

  it("searchNews() applies the limit after counting matches", () => {
    const v = searchNews(news, opts({ limit: 2 }), REF);
    expect(v.matched).toBe(4);
    expect(v.returned).toBe(2);
    expect(v.filters).toEqual({ from: null, to: null, provider: null, category: null, limit: 2 });
  });

  it("searchNews() combines q with filters and echoes them", () => {
    const v = searchNews(news, opts({ q: "claude", provider: " anthropic ", category: "company" }), REF);
    expect(v.results.map((r) => r.id)).toEqual([a3.id]);
    expect(v.filters).toMatchObject({ provider: "anthropic", category: "company" });
  });

  it("searchNews() breaks relevance ties by newer first, then id", () => {
    const same = new Date(REF.getTime() - 3 * 86_400_000).toISOString();
    const x = { ...a4, id: "00000000000000ff", title: "Agents", publishedAt: same };
    const y = { ...a4, id: "00000000000000aa", title: "Agents", publishedAt: same };
    const z = { ...a4, id: "0000000000000001", title: "Agents", publishedAt: new Date(REF.getTime() - 86_400_000 * 30).toISOString() };
    const v = searchNews({ articles: [z, x, y], sources: [] }, opts({ q: "agents" }), REF);
    expect(v.results.map((r) => r.id)).toEqual(["00000000000000aa", "00000000000000ff", "0000000000000001"]);
  });

  it("searchNews() refuses from after to with 400 invalid_range", () => {
    const err = apiError(() => searchNews(news, opts({ from: "2026-11-20", to: "2026-11-01" }), REF));
    expect([err.status, err.code]).toEqual([400, "invalid_range"]);
  });

  it("searchNews() refuses a q of stop words only with 400 invalid_query", () => {
    const err = apiError(() => searchNews(news, opts({ q: "the, and of!" }), REF));
    expect([err.status, err.code]).toEqual([400, "invalid_query"]);
  });
});
