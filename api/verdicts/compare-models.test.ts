import { describe, expect, it } from "vitest";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { compareModels, type CatalogModel, type CompareInput } from "./compare-models.ts";

const model = (id: string, name: string, provider: string, context_window: number): CatalogModel => ({ id, name, provider, tier: "mid", context_window, capabilities: ["tools", "text"] });
const catalog = new Map([model("m-a", "Model A", "pa", 100), model("m-b", "Model B", "pb", 300), model("m-c", "Model C", "pc", 100)].map((m) => [m.id.toLowerCase(), m]));
const now = new Date("2026-11-23T12:00:00Z");
const article = (id: string, title: string, publishedAt: string): Article => ({
  id: id.padStart(16, "0"), title, url: `https://example.com/${id}`, source: "Example", sourceDomain: "example.com", snippet: "", categories: [], publishedAt, fetchedAt: publishedAt,
});
const input = (over: Partial<CompareInput> = {}): CompareInput => ({
  ids: ["m-a", "M-B"],
  catalog,
  prices: new Map([["m-a", { input: 1, output: 4 }], ["m-b", { input: 2, output: 2 }]]),
  scores: [
    { model_id: "m-a", benchmark: "gpqa", score: 60 },
    { model_id: "m-b", benchmark: "gpqa", score: 70 },
    { model_id: "m-b", benchmark: "mmlu", score: 80 },
    { model_id: "m-c", benchmark: "other", score: 1 },
  ],
  status: new Map([["pa", "degraded"]]),
  articles: [article("1", "Model A beats everyone", "2026-11-20T00:00:00Z"), article("2", "Model A, again", "2026-09-01T00:00:00Z"), article("3", "Model AB is different", "2026-11-21T00:00:00Z")],
  now,
  as_of: { prices: "2026-11-23", benchmarks: "2026-11-23" },
  ...over,
});

describe("compare models verdict", () => {
  it("joins the union of benchmark keys (null where missing), prices, status and news per model", () => {
    const v = compareModels(input());
    expect(v.benchmark_keys).toEqual(["gpqa", "mmlu"]);
    expect(v.matched_count).toBe(2);
    const [a, b] = v.models;
    expect(a).toMatchObject({ matched: true, id: "m-a", name: "Model A", pricing: { input: 1, output: 4, blended: 1.75 }, status: "degraded", benchmarks: { gpqa: 60, mmlu: null }, capabilities: ["text", "tools"] });
    expect(b).toMatchObject({ id: "m-b", status: "unknown", benchmarks: { gpqa: 70, mmlu: 80 } });
    // Only the recent, whole-phrase mention counts ("Model AB" is another name; September is too old).
    expect(a!.recent_news_count).toBe(1);
    expect(a!.recent_news[0]).toEqual({ title: "Model A beats everyone", url: "https://example.com/1", source: "Example", published: "2026-11-20T00:00:00Z" });
  });

  it("ranks by blended price, context and each benchmark", () => {
    const v = compareModels(input());
    expect(v.rankings.cheapest_blended).toEqual([{ name: "Model A", blended: 1.75 }, { name: "Model B", blended: 2 }]);
    expect(v.rankings.most_context).toEqual([{ name: "Model B", context_window: 300 }, { name: "Model A", context_window: 100 }]);
    expect(v.rankings.by_benchmark).toEqual({ gpqa: [{ name: "Model B", score: 70 }, { name: "Model A", score: 60 }], mmlu: [{ name: "Model B", score: 80 }] });
  });

  it("breaks ties by name", () => {
    const v = compareModels(input({ ids: ["m-c", "m-a"], prices: new Map([["m-a", { input: 1, output: 1 }], ["m-c", { input: 1, output: 1 }]]) }));
    expect(v.rankings.cheapest_blended.map((r) => r.name)).toEqual(["Model A", "Model C"]);
    expect(v.rankings.most_context.map((r) => r.name)).toEqual(["Model A", "Model C"]);
  });

  it("answers unknown ids as matched false with null figures and a note", () => {
    const v = compareModels(input({ ids: ["m-a", "nope"] }));
    expect(v.models[1]).toEqual({ matched: false, id: "nope", name: null, provider: null, tier: null, pricing: null, context_window: null, status: null, benchmarks: { gpqa: null }, capabilities: [], recent_news_count: 0, recent_news: [] });
    expect(v.matched_count).toBe(1);
    expect(v.notes.join(" ")).toContain("nope");
  });

  it("with no id known, nothing matches and the rankings are empty", () => {
    const v = compareModels(input({ ids: ["x", "y"] }));
    expect(v.matched_count).toBe(0);
    expect(v.benchmark_keys).toEqual([]);
    expect(v.rankings).toEqual({ cheapest_blended: [], most_context: [], by_benchmark: {} });
  });

  it("a model without a price has null pricing, is left out of the price ranking, and is noted", () => {
    const v = compareModels(input({ prices: new Map([["m-b", { input: 2, output: 2 }]]) }));
    expect(v.models[0]!.pricing).toBeNull();
    expect(v.rankings.cheapest_blended.map((r) => r.name)).toEqual(["Model B"]);
    expect(v.notes.join(" ")).toContain("m-a has no price");
  });

  it("with no scores and no news at all, benchmarks are empty objects and news empty", () => {
    const v = compareModels(input({ scores: [], articles: [] }));
    expect(v.benchmark_keys).toEqual([]);
    expect(v.models.every((m) => Object.keys(m.benchmarks).length === 0 && m.recent_news.length === 0)).toBe(true);
  });
});
