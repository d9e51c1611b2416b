/**
 * The news routes over the `news` snapshot: GET /api/news (JSON), GET /api/feed.xml (RSS 2.0, written with
 * fast-xml-parser's XMLBuilder, which escapes every text and attribute) and GET /api/feed.json (JSON Feed 1.1).
 * Titles and snippets were sanitized by the pipeline (pipelines/lib/sanitize.ts); both feeds still drop what
 * their format cannot carry (characters XML 1.0 forbids, lone surrogates), whoever wrote the snapshot.
 */
import { XMLBuilder } from "fast-xml-parser";
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { LoadedSnapshot, RawBody, RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { type Article, articleSchema, NEWS_CATEGORIES, newsCategorySchema, type NewsSnapshot, newsSnapshotSchema, newsSnapshotType } from "../../pipelines/contract/snapshots/news.ts";

/** Items in /api/feed.xml and /api/feed.json. */
export const FEED_ITEMS = 100;
const FEED_TITLE = "agentfeed: AI news";
const FEED_DESCRIPTION = "AI news from company blogs, research labs, the tech press and newsletters; titles and snippets sanitized.";
const FRESHNESS = { cadence: newsSnapshotType.cadence, slaSeconds: newsSnapshotType.slaSeconds };

/** Query of GET /api/news. */
export const NewsQuery = z.strictObject({
  category: newsCategorySchema.optional().meta({ description: `Source category: ${NEWS_CATEGORIES.join(", ")}.` }),
  limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: "Articles to return, 1-200 (default 50)." }),
});
export type NewsQueryInput = z.infer<typeof NewsQuery>;

/** Body of GET /api/news. */
export const NewsResponse = z.strictObject({
  ok: z.literal(true),
  count: z.number().int().min(0),
  articles: z.array(articleSchema),
  sanitization: z.literal("enabled"),
  source: z.string().meta({ description: "What the articles were built from, and whether from live upstreams or recorded replay." }),
  updated: z.iso.datetime().nullable().meta({ description: "Last successful pipeline run (manifest lastSuccess)." }),
});
export type NewsBody = z.infer<typeof NewsResponse>;

/** The JSON Feed 1.1 document served at /api/feed.json (https://www.jsonfeed.org/version/1.1/). */
export const JsonFeedSchema = z.strictObject({
  version: z.literal("https://jsonfeed.org/version/1.1"),
  title: z.string(),
  home_page_url: z.url(),
  feed_url: z.url(),
  description: z.string(),
  language: z.string(),
  items: z.array(
    z.strictObject({
      id: z.string(),
      url: z.url(),
      title: z.string(),
      content_text: z.string(),
      summary: z.string().optional(),
      date_published: z.iso.datetime(),
      tags: z.array(z.string()),
      authors: z.array(z.strictObject({ name: z.string() })),
    }),
  ),
});
export type JsonFeed = z.infer<typeof JsonFeedSchema>;

function describeSource(snapshot: LoadedSnapshot<NewsSnapshot>): string {
  return `${snapshot.data.sources.length} RSS/Atom feeds of AI company blogs, labs, press and newsletters (${snapshot.meta.provenance})`;
}

/** The articles of GET /api/news for a query: newest first, optionally one source category, at most `limit`. */
export function selectArticles(data: NewsSnapshot, query: NewsQueryInput): Article[] {
  let articles = data.articles;
  if (query.category !== undefined) {
    const names = new Set(data.sources.filter((s) => s.categories.includes(query.category!)).map((s) => s.name));
    articles = articles.filter((a) => names.has(a.source));
  }
  return articles.slice(0, query.limit);
}

/** Render GET /api/news. */
export function renderNews(ctx: RenderContext, query: NewsQueryInput): NewsBody {
  const snapshot = readSnapshot(ctx.snapshots, "news", newsSnapshotSchema);
  const articles = selectArticles(snapshot.data, query);
  return { ok: true, count: articles.length, articles, sanitization: "enabled", source: describeSource(snapshot), updated: snapshot.meta.lastSuccess };
}

function feedUpdated(snapshot: LoadedSnapshot<NewsSnapshot>): Date {
  const stamp = snapshot.meta.lastChanged ?? snapshot.data.articles[0]?.publishedAt ?? "1970-01-01T00:00:00.000Z";
  return new Date(stamp);
}

/** Lone surrogates, no character at all: both feeds drop them (strict JSON parsers and XML refuse them). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Characters XML 1.0 cannot hold even escaped (C0 controls but tab, newline and return; U+FFFE, U+FFFF): the RSS drops them. */
const XML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** `text` as an XML 1.0 document can carry it (the builder escapes the markup characters). */
export function xmlText(text: string): string {
  return wellFormed(text).replace(XML_FORBIDDEN, "");
}

/** `text` without lone surrogates, which strict JSON parsers refuse. */
function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, "");
}

const rssBuilder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, suppressEmptyNode: true });

/**
 * Render GET /api/feed.xml: RSS 2.0 of the newest FEED_ITEMS articles. Each item's publisher is its
 * `dc:creator` (RSS's own `<author>` must be an e-mail address), its categories its source's categories.
 */
export function renderRss(ctx: RenderContext): RawBody {
  const snapshot = readSnapshot(ctx.snapshots, "news", newsSnapshotSchema);
  const items = snapshot.data.articles.slice(0, FEED_ITEMS).map((a) => ({
    title: xmlText(a.title),
    link: xmlText(a.url),
    guid: { "@_isPermaLink": "false", "#text": a.id },
    pubDate: new Date(a.publishedAt).toUTCString(),
    ...(a.snippet ? { description: xmlText(a.snippet) } : {}),
    ...(a.categories.length > 0 ? { category: a.categories.map(xmlText) } : {}),
    "dc:creator": xmlText(a.source),
  }));
  const doc = {
    "?xml": { "@_version": "1.0", "@_encoding": "utf-8" },
    rss: {
      "@_version": "2.0",
      "@_xmlns:atom": "http://www.w3.org/2005/Atom",
      "@_xmlns:dc": "http://purl.org/dc/elements/1.1/",
      channel: {
        title: FEED_TITLE,
        link: `${ctx.baseUrl}/api/news`,
        description: FEED_DESCRIPTION,
        language: "en",
        copyright: "Titles and snippets belong to their publishers; every item links to the original article.",
        lastBuildDate: feedUpdated(snapshot).toUTCString(),
        docs: "https://www.rssboard.org/rss-specification",
        generator: "agentfeed",
        "atom:link": { "@_href": `${ctx.baseUrl}/api/feed.xml`, "@_rel": "self", "@_type": "application/rss+xml" },
        ...(items.length > 0 ? { item: items } : {}),
      },
    },
  };
  return { contentType: "application/rss+xml; charset=utf-8", body: rssBuilder.build(doc) };
}

/** Build the JSON Feed 1.1 document of the newest FEED_ITEMS articles. */
export function buildJsonFeed(ctx: RenderContext): JsonFeed {
  const snapshot = readSnapshot(ctx.snapshots, "news", newsSnapshotSchema);
  return JsonFeedSchema.parse({
    version: "https://jsonfeed.org/version/1.1",
    title: FEED_TITLE,
    home_page_url: `${ctx.baseUrl}/api/news`,
    feed_url: `${ctx.baseUrl}/api/feed.json`,
    description: FEED_DESCRIPTION,
    language: "en",
    items: snapshot.data.articles.slice(0, FEED_ITEMS).map((a) => {
      const title = wellFormed(a.title);
      const snippet = wellFormed(a.snippet);
      return {
        id: a.id,
        url: a.url,
        title,
        content_text: snippet || title || a.id,
        ...(a.snippet ? { summary: snippet } : {}),
        date_published: a.publishedAt,
        tags: a.categories.map(wellFormed),
        authors: [{ name: wellFormed(a.source) }],
      };
    }),
  });
}

/** Render GET /api/feed.json. */
export function renderJsonFeed(ctx: RenderContext): RawBody {
  return { contentType: "application/feed+json; charset=utf-8", body: JSON.stringify(buildJsonFeed(ctx), null, 2) + "\n" };
}

/** The news route family. */
export const newsRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/news",
    tier: "free",
    summary: "Latest AI news articles from company blogs, labs, the tech press and newsletters, sanitized.",
    description:
      "Newest first. Deduplicated by canonical URL (tracking parameters dropped) and by normalized title; the earliest published copy is kept. category filters on the source's category (company, research, press, newsletter, community). Titles and snippets are sanitized: HTML removed, entities decoded, invisible and bidi control characters removed, prompt-injection phrases replaced by [filtered]. Snippets are clipped to 200 characters. fetchedAt is when the service first saw the article.",
    tags: ["news"],
    query: NewsQuery,
    response: NewsResponse,
    snapshots: ["news"],
    freshness: FRESHNESS,
    render: (ctx, input): NewsBody => renderNews(ctx, input.query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/feed.xml",
    tier: "free",
    summary: "The latest AI news as an RSS 2.0 feed.",
    description: `The ${FEED_ITEMS} newest articles of /api/news as RSS 2.0; guid is the article id, link the original article.`,
    tags: ["news"],
    response: z.string().meta({ description: "RSS 2.0 document." }),
    contentType: "application/rss+xml; charset=utf-8",
    snapshots: ["news"],
    freshness: FRESHNESS,
    render: (ctx): RawBody => renderRss(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/api/feed.json",
    tier: "free",
    summary: "The latest AI news as a JSON Feed 1.1.",
    description: `The ${FEED_ITEMS} newest articles of /api/news as JSON Feed 1.1 (https://www.jsonfeed.org/version/1.1/).`,
    tags: ["news"],
    response: JsonFeedSchema,
    contentType: "application/feed+json; charset=utf-8",
    snapshots: ["news"],
    freshness: FRESHNESS,
    render: (ctx): RawBody => renderJsonFeed(ctx),
  }),
];
