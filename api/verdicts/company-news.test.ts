import { describe, expect, it } from "vitest";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { companyNews } from "./company-news.ts";

const article = (id: string, title: string, publishedAt: string, snippet = ""): Article => ({
  id: id.padEnd(16, "0"),
  title,
  url: `https://news.example/${id}`,
  source: "Example News",
  sourceDomain: "news.example",
  snippet,
  categories: ["press"],
  publishedAt,
  fetchedAt: publishedAt,
});

describe("companyNews()", () => {
  const articles = [
    article("a1", "Nvidia unveils a new GPU", "2026-11-20T10:00:00Z"),
    article("a2", "Arm Holdings raises its royalty rates", "2026-11-22T10:00:00Z"),
    article("a3", "How to train your arm muscles", "2026-11-23T10:00:00Z"),
    article("a4", "Data centers expand", "2026-11-24T10:00:00Z", "Deals with NVIDIA and AMD"),
    article("a5", "NVIDIAN is not a company", "2026-11-25T10:00:00Z"),
  ];

  it("matches whole alias phrases in title or snippet, case-insensitively, newest first, with the aliases matched", () => {
    const nvda = companyNews(articles, ["NVIDIA", "Nvidia"], 10);
    expect(nvda.items.map((i) => i.id.slice(0, 2))).toEqual(["a4", "a1"]);
    expect(nvda.items[0]!.matched_aliases).toEqual(["NVIDIA", "Nvidia"]);
    expect(companyNews(articles, ["Arm Holdings"], 10).items.map((i) => i.id.slice(0, 2))).toEqual(["a2"]);
  });

  it("counts every match but returns at most limit; no usable alias matches nothing", () => {
    const amd = companyNews([...articles, article("a6", "AMD ships", "2026-11-19T00:00:00Z")], ["AMD"], 1);
    expect(amd.count).toBe(2);
    expect(amd.items).toHaveLength(1);
    expect(companyNews(articles, ["a"], 10)).toEqual({ count: 0, items: [] });
  });
});
