import { cpSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NEWS_SOURCES } from "../catalog/news-sources.ts";
import { createHttpClient, type ClosableHttpClient } from "../lib/http/client.ts";
import { replayPathFor } from "../lib/replay-path.ts";
import type { FeedContext } from "../lib/types.ts";
import type { Article } from "../sources/rss.ts";
import { mergeArticles, newsFeed, newsSnapshotSchema, runNews, titleKey, urlKey, type NewsSnapshot } from "./news.ts";
import { testFeedContext } from "../lib/testing/feed-context.ts";

const NOW = new Date("2026-11-20T12:00:00Z");

function context(http: FeedContext["http"], previous?: NewsSnapshot, now = NOW): FeedContext & { notices: string[] } {
  return testFeedContext({ http, now, latest: previous ? { news: previous } : {} });
}

function article(over: Partial<Article>): Article {
  return {
    id: "0123456789abcdef", title: "Title", url: "https://example.com/a", source: "Ex", sourceDomain: "example.com",
    snippet: "", categories: ["press"], publishedAt: "2026-11-10T00:00:00.000Z", fetchedAt: "2026-11-10T00:00:00.000Z", ...over,
  };
}

describe("newsFeed with the replay client", () => {
  let http: ClosableHttpClient;
  let first: Awaited<ReturnType<typeof runNews>>;

  beforeAll(async () => {
    http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    first = await newsFeed.run(context(http));
  });
  afterAll(async () => {
    await http.close();
  });

  it("run() reads every catalog source and passes the strict schema", () => {
    expect(first.sources).toHaveLength(NEWS_SOURCES.length);
    expect(first.sources!.filter((s) => !s.ok)).toEqual([]);
    newsSnapshotSchema.parse(first.data);
    expect(first.rows).toBe(first.data.articles.length);
    expect(first.rows).toBeGreaterThan(50);
  });

  it("run() sorts newest first", () => {
    const dates = first.data.articles.map((a) => a.publishedAt);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("run() dedups the same URL across two sources (tracking parameters ignored)", () => {
    const gemini = first.data.articles.filter((a) => a.url === "https://blog.google/technology/google-deepmind/gemini-3-5-flash/");
    expect(gemini).toHaveLength(1);
    expect(gemini[0]!.source).toBe("Google DeepMind Blog");
    expect(gemini[0]!.categories).toEqual(expect.arrayContaining(["company", "research"]));
  });

  it("run() dedups the same title under different URLs, keeping the earliest copy", () => {
    const mlperf = first.data.articles.filter((a) => a.title === "NVIDIA Blackwell Ultra Sets New MLPerf Training Records");
    expect(mlperf).toHaveLength(1);
    expect(mlperf[0]!.url).toBe("https://blogs.nvidia.com/blog/mlperf-training-blackwell-ultra/");
    const magentic = first.data.articles.filter((a) => a.title.startsWith("Magentic-One 2"));
    expect(magentic).toHaveLength(1);
    expect(magentic[0]!.source).toBe("Microsoft Research Blog");
  });

  it("run() keeps no two articles with the same URL key or title key", () => {
    const urls = first.data.articles.map((a) => urlKey(a.url));
    const titles = first.data.articles.map((a) => titleKey(a.title));
    expect(new Set(urls).size).toBe(urls.length);
    expect(new Set(titles).size).toBe(titles.length);
  });

  it("run() carries fetchedAt over from the previous snapshot so an unchanged upstream gives the same body", async () => {
    const later = new Date("2026-11-20T12:10:00Z");
    const second = await newsFeed.run(context(http, first.data, later));
    expect(second.data).toEqual(first.data);
    expect(first.data.articles.every((a) => a.fetchedAt === NOW.toISOString())).toBe(true);
  });

  it("run() gives a new article the run time as fetchedAt", async () => {
    const trimmed: NewsSnapshot = { ...first.data, articles: first.data.articles.slice(1) };
    const later = new Date("2026-11-20T12:10:00Z");
    const second = await newsFeed.run(context(http, trimmed, later));
    const fresh = second.data.articles.find((a) => a.id === first.data.articles[0]!.id)!;
    expect(fresh.fetchedAt).toBe(later.toISOString());
    expect(second.data.articles.filter((a) => a.fetchedAt === later.toISOString())).toHaveLength(1);
  });

  it("urls() lists every catalog feed", () => {
    expect(newsFeed.urls()).toEqual(NEWS_SOURCES.map((s) => s.url));
    expect(newsFeed.type).toBe("news");
    expect(newsFeed.cron).toBe("*/10 * * * *");
  });
});

describe("newsFeed with a failing source", () => {
  let dir: string;
  let http: ClosableHttpClient;
  const broken = NEWS_SOURCES.find((s) => s.id === "techcrunch-ai")!;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "news-replay-"));
    cpSync("pipelines/fixtures", dir, { recursive: true });
    rmSync(join(dir, replayPathFor(broken.url)));
    http = createHttpClient({ replayDir: dir, retries: 0 });
  });
  afterAll(async () => {
    await http.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("run() keeps the failing source's previous articles and reports it unhealthy", async () => {
    const good = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
    const previous = (await newsFeed.run(context(good))).data;
    await good.close();
    const ctx = context(http, previous, new Date("2026-11-20T12:10:00Z"));
    const out = await newsFeed.run(ctx);
    const health = out.sources!.find((s) => s.id === broken.id)!;
    expect(health.ok).toBe(false);
    expect(health.error).toBeTruthy();
    const carried = out.data.articles.filter((a) => a.source === broken.name);
    expect(carried.length).toBe(previous.articles.filter((a) => a.source === broken.name).length);
    expect(carried.length).toBeGreaterThan(0);
    expect(out.data).toEqual(previous);
    expect(ctx.notices.some((n) => n.includes(broken.id))).toBe(true);
  });

  it("run() without a previous snapshot simply lacks the failing source", async () => {
    const out = await newsFeed.run(context(http));
    expect(out.data.articles.some((a) => a.source === broken.name)).toBe(false);
    expect(out.sources!.filter((s) => s.ok)).toHaveLength(NEWS_SOURCES.length - 1);
  });

  it("run() fails when every source fails", async () => {
    const failing: FeedContext["http"] = {
      getText: async (url) => {
        throw new Error(`offline: ${url}`);
      },
      getJson: async (url) => {
        throw new Error(`offline: ${url}`);
      },
    };
    await expect(newsFeed.run(context(failing))).rejects.toThrow(/every source failed/);
  });

  it("run() counts an unparseable body as a failed source", async () => {
    const html: FeedContext["http"] = {
      getText: async (url) => {
        if (url === broken.url) return { url, status: 200, headers: new Headers(), body: "<html><body>maintenance</body></html>", fromCache: false };
        return http.getText(url);
      },
      getJson: (url) => http.getJson(url),
    };
    const out = await runNews(context(html), NEWS_SOURCES.filter((s) => s.id === broken.id || s.id === "openai"));
    expect(out.sources).toEqual([
      expect.objectContaining({ id: "openai", ok: true, rows: 4 }),
      expect.objectContaining({ id: "techcrunch-ai", ok: false, error: expect.stringMatching(/not an RSS, Atom or RDF feed/) }),
    ]);
  });
});

describe("newsFeed with a far-future date", () => {
  const hostileSource = NEWS_SOURCES.find((s) => s.id === "techcrunch-ai")!;
  const sources = NEWS_SOURCES.filter((s) => s.id === hostileSource.id || s.id === "openai");
  const recorded = readFileSync(`pipelines/fixtures/${replayPathFor(hostileSource.url)}`, "utf8");
  const firstDate = /<pubDate>([^<]*)<\/pubDate>/.exec(recorded)![1]!;
  const hostile = recorded.replace(`<pubDate>${firstDate}</pubDate>`, "<pubDate>Fri, 31 Dec 9999 23:59:59 +0000</pubDate>");
  let replay: ClosableHttpClient;
  const serving = (body: string | null): FeedContext["http"] => ({
    getText: async (url) => {
      if (url !== hostileSource.url) return replay.getText(url);
      if (body === null) throw new Error("offline");
      return { url, status: 200, headers: new Headers(), body, fromCache: false };
    },
    getJson: (url) => replay.getJson(url),
  });

  beforeAll(() => {
    replay = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
  });
  afterAll(async () => {
    await replay.close();
  });

  it("run() dates the item by when it was first seen, so it sinks as newer stories arrive", async () => {
    const clean = (await runNews(context(serving(recorded)), sources)).data;
    const target = clean.articles.find((a) => a.publishedAt === new Date(firstDate).toISOString() && a.source === hostileSource.name)!;
    const first = await runNews(context(serving(hostile)), sources);
    newsSnapshotSchema.parse(first.data);
    expect(first.data.articles.map((a) => a.id).sort()).toEqual(clean.articles.map((a) => a.id).sort());
    expect(first.data.articles.find((a) => a.id === target.id)?.publishedAt).toBe(NOW.toISOString());
    const later = new Date("2026-11-23T12:00:00Z");
    const second = await runNews(context(serving(hostile), first.data, later), sources);
    expect(second.data.articles.find((a) => a.id === target.id)?.publishedAt).toBe(NOW.toISOString());
  });

  it("run() replaces a 9999 date held in the previous snapshot by the first-seen time, answered or kept", async () => {
    const clean = (await runNews(context(serving(recorded)), sources)).data;
    const held = structuredClone(clean);
    const target = held.articles.find((a) => a.source === hostileSource.name && a.publishedAt === new Date(firstDate).toISOString())!;
    target.publishedAt = "9999-12-31T23:59:59.000Z";
    target.fetchedAt = "2026-11-01T08:00:00.000Z";
    const answered = await runNews(context(serving(hostile), held), sources);
    expect(answered.data.articles.find((a) => a.id === target.id)?.publishedAt).toBe("2026-11-01T08:00:00.000Z");
    expect(answered.data.articles[0]!.id).not.toBe(target.id);
    const kept = await runNews(context(serving(null), held), sources);
    expect(kept.sources!.find((s) => s.id === hostileSource.id)?.ok).toBe(false);
    expect(kept.data.articles.find((a) => a.id === target.id)?.publishedAt).toBe("2026-11-01T08:00:00.000Z");
    expect(kept.data.articles.every((a) => a.publishedAt <= NOW.toISOString())).toBe(true);
  });
});

describe("mergeArticles()", () => {
  it("mergeArticles() treats http/https, www. and a trailing slash as the same URL", () => {
    const merged = mergeArticles([
      [article({ id: "aaaaaaaaaaaaaaaa", url: "https://www.example.com/post/", title: "One", publishedAt: "2026-11-02T00:00:00.000Z" })],
      [article({ id: "bbbbbbbbbbbbbbbb", url: "http://example.com/post", title: "One, again", publishedAt: "2026-11-01T00:00:00.000Z", source: "Other", categories: ["company"] })],
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.id).toBe("bbbbbbbbbbbbbbbb");
    expect(merged[0]!.categories).toEqual(["company", "press"]);
  });

  it("mergeArticles() matches titles ignoring case and punctuation", () => {
    const merged = mergeArticles([
      [article({ id: "aaaaaaaaaaaaaaaa", url: "https://a.example/1", title: "GPT-6 is here!" })],
      [article({ id: "bbbbbbbbbbbbbbbb", url: "https://b.example/2", title: "gpt 6 is HERE" })],
    ]);
    expect(merged).toHaveLength(1);
    expect(merged[0]!.id).toBe("aaaaaaaaaaaaaaaa");
  });

  it("mergeArticles() caps to the newest", () => {
    const many = Array.from({ length: 10 }, (_, i) =>
      article({ id: i.toString(16).padStart(16, "0"), url: `https://a.example/${i}`, title: `t${i}`, publishedAt: `2026-11-${String(i + 1).padStart(2, "0")}T00:00:00.000Z` }),
    );
    const merged = mergeArticles([many], 3);
    expect(merged.map((a) => a.title)).toEqual(["t9", "t8", "t7"]);
  });
});
