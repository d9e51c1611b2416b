import { XMLParser, XMLValidator } from "fast-xml-parser";
import { beforeAll, describe, expect, it } from "vitest";
import { newsFeed } from "../../pipelines/feeds/news.ts";
import { createHttpClient } from "../../pipelines/lib/http/client.ts";
import { createApp, type AnyRoute, type ServedSnapshots } from "../app.ts";
import { ApiError, type LoadedSnapshot, type RenderContext } from "../registry/types.ts";
import { JsonFeedSchema, NewsQuery, NewsResponse, newsRoutes, renderJsonFeed, renderNews, renderRss, selectArticles } from "./news.ts";
import { testFeedContext } from "../../pipelines/lib/testing/feed-context.ts";
import type { NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";

let data: NewsSnapshot;

beforeAll(async () => {
  const http = createHttpClient({ replayDir: "pipelines/fixtures", retries: 0 });
  try {
    data = (await newsFeed.run(testFeedContext({ http, now: new Date("2026-11-20T12:00:00Z") }))).data;
  } finally {
    await http.close();
  }
});

function snapshots(body: unknown | undefined): ServedSnapshots {
  const loaded = body === undefined ? undefined : ({
    type: "news",
    data: body,
    meta: {
      type: "news", date: "2026-11-20", lastSuccess: "2026-11-20T12:00:05.000Z", lastAttempt: "2026-11-20T12:00:05.000Z",
      lastChanged: "2026-11-20T12:00:05.000Z", lastError: null, rows: 60, provenance: "replay", slaSeconds: 1800, cadence: "every 10 minutes", sources: [],
    },
  } satisfies LoadedSnapshot);
  return {
    generation: 1,
    get: <T,>(type: string) => (type === "news" ? (loaded as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (loaded ? ["news"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
}

const BASE = "https://agentfeed.example";
const ctx = (body: unknown | undefined): RenderContext => ({ snapshots: snapshots(body), baseUrl: BASE, now: new Date("2026-11-20T12:05:00Z") });

describe("GET /api/news", () => {
  it("renderNews() returns the newest 50 by default with the spec's envelope", () => {
    const body = NewsResponse.parse(renderNews(ctx(data), NewsQuery.parse({})));
    expect(body.count).toBe(50);
    expect(body.articles).toEqual(data.articles.slice(0, 50));
    expect(body.sanitization).toBe("enabled");
    expect(body.updated).toBe("2026-11-20T12:00:05.000Z");
    expect(body.source).toMatch(/replay/);
  });

  it("renderNews() filters by source category and limit", () => {
    const body = renderNews(ctx(data), NewsQuery.parse({ category: "newsletter", limit: "3" }));
    const newsletterNames = new Set(data.sources.filter((s) => s.categories.includes("newsletter")).map((s) => s.name));
    expect(body.count).toBe(3);
    expect(body.articles.every((a) => newsletterNames.has(a.source))).toBe(true);
    expect(selectArticles(data, { category: "research", limit: 200 }).every((a) => a.categories.includes("research"))).toBe(true);
  });

  it("NewsQuery rejects a bad limit, an unknown category and unknown parameters", () => {
    for (const q of [{ limit: "0" }, { limit: "201" }, { limit: "abc" }, { limit: "2.5" }, { category: "gossip" }, { page: "2" }]) {
      expect(NewsQuery.safeParse(q).success, JSON.stringify(q)).toBe(false);
    }
    expect(NewsQuery.parse({ limit: "200" }).limit).toBe(200);
  });

  it("renderNews() throws 503 snapshot_unavailable when the snapshot is missing or malformed", () => {
    for (const body of [undefined, { articles: "nope" }]) {
      let err: unknown;
      try {
        renderNews(ctx(body), { limit: 50 });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 503, code: "snapshot_unavailable" });
    }
  });

  it("the served route answers 400 for a bad limit and 200 otherwise", async () => {
    const { app, dispose } = createApp({ routes: newsRoutes as unknown as readonly AnyRoute[], snapshots: snapshots(data), baseUrl: BASE, rateLimitPerMinute: 0, trustProxy: null });
    try {
      const bad = await app.fetch(new Request("http://localhost/api/news?limit=500"));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ ok: false });
      const good = await app.fetch(new Request("http://localhost/api/news?limit=5&category=press"));
      expect(good.status).toBe(200);
      expect(NewsResponse.parse(await good.json()).count).toBe(5);
      const xml = await app.fetch(new Request("http://localhost/api/feed.xml"));
      expect(xml.headers.get("content-type")).toContain("application/rss+xml");
    } finally {
      await dispose();
    }
  });
});

describe("GET /api/feed.xml", () => {
  it("renderRss() emits RSS 2.0 whose links use the base URL and whose items are the newest articles", () => {
    const out = renderRss(ctx(data));
    expect(out.contentType).toBe("application/rss+xml; charset=utf-8");
    const doc = new XMLParser({ ignoreAttributes: false }).parse(out.body);
    expect(doc.rss["@_version"]).toBe("2.0");
    expect(doc.rss.channel.link).toBe(`${BASE}/api/news`);
    expect(doc.rss.channel["atom:link"]["@_href"]).toBe(`${BASE}/api/feed.xml`);
    const items = doc.rss.channel.item as { title: string; link: string; guid: { "#text": string } }[];
    expect(items).toHaveLength(Math.min(100, data.articles.length));
    expect(items[0]!.link).toBe(data.articles[0]!.url);
    expect(items[0]!.guid["#text"]).toBe(data.articles[0]!.id);
  });

  it("renderRss() stays well-formed RSS whatever text a snapshot holds: every CDATA end, markup, entity and forbidden character", () => {
    const hostile = [
      "Two ends ]]> one ]]> two <script>alert(1)</script> & done",
      "a literal &amp; and &lt;b&gt; stay as written",
      "controls \u0000\u0001\u0008\u000B\u000C\u001F and \uFFFE\uFFFF, lone \uD800 and \uDC00, a pair \uD83D\uDE00",
    ];
    const article = data.articles[0]!;
    const body = {
      ...data,
      articles: hostile.map((title, i) => ({ ...article, id: `${i}`.padStart(16, "0"), title, snippet: `${title}]]>`, source: `Src ]]> <b>${i}</b>`, categories: ["x]]>y", "a\u0001b"] })),
    };
    const out = renderRss(ctx(body));
    expect(XMLValidator.validate(out.body)).toBe(true);
    const items = new XMLParser({ ignoreAttributes: false, htmlEntities: false, isArray: (name) => name === "item" || name === "category" }).parse(out.body).rss.channel.item as Record<string, unknown>[];
    expect(items.map((i) => i.title)).toEqual([
      hostile[0],
      hostile[1],
      "controls  and , lone  and , a pair \uD83D\uDE00",
    ]);
    expect(items[0]!.description).toBe(`${hostile[0]}]]>`);
    expect(items[0]!["dc:creator"]).toBe("Src ]]> <b>0</b>");
    expect(items[0]!.category).toEqual(["x]]>y", "ab"]);
    expect(out.body).not.toContain("<author>");
    // The JSON Feed carries the same text, without the lone surrogates strict JSON parsers refuse.
    const json = renderJsonFeed(ctx(body)).body;
    expect(json).not.toMatch(/\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i);
    expect(JSON.parse(json).items[2].title).toBe("controls \u0000\u0001\u0008\u000B\u000C\u001F and \uFFFE\uFFFF, lone  and , a pair \uD83D\uDE00");
  });

  it("renderRss() is pure: the same snapshot gives the same bytes", () => {
    expect(renderRss(ctx(data)).body).toBe(renderRss(ctx(data)).body);
  });
});

describe("GET /api/feed.json", () => {
  it("renderJsonFeed() emits JSON Feed 1.1 with base-URL links", () => {
    const out = renderJsonFeed(ctx(data));
    expect(out.contentType).toBe("application/feed+json; charset=utf-8");
    const feed = JsonFeedSchema.parse(JSON.parse(out.body));
    expect(feed.version).toBe("https://jsonfeed.org/version/1.1");
    expect(feed.feed_url).toBe(`${BASE}/api/feed.json`);
    expect(feed.home_page_url).toBe(`${BASE}/api/news`);
    expect(feed.items[0]).toMatchObject({ id: data.articles[0]!.id, url: data.articles[0]!.url, date_published: data.articles[0]!.publishedAt });
    expect(feed.items.every((i) => i.content_text.length > 0)).toBe(true);
  });

  it("newsRoutes declares the three paths with news freshness", () => {
    expect(newsRoutes.map((r) => r.path)).toEqual(["/api/news", "/api/feed.xml", "/api/feed.json"]);
    expect(newsRoutes.every((r) => r.freshness?.slaSeconds === 1800)).toBe(true);
  });
});

