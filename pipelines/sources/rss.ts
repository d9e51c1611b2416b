/**
 * RSS / Atom / RDF news feeds (any site in pipelines/catalog/news-sources.ts).
 * Formats: RSS 2.0 (https://www.rssboard.org/rss-specification, with content:encoded and dc:date),
 * Atom 1.0 (RFC 4287), RSS 1.0 / RDF (https://web.resource.org/rss/1.0/spec).
 * Rate limit: none published; polled every 10 minutes, one request per feed per run.
 */
import { createHash } from "node:crypto";
import { XMLParser } from "fast-xml-parser";
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import type { Source } from "../lib/types.ts";
import { SNIPPET_MAX, TITLE_MAX, articleSchema, type Article } from "../contract/snapshots/news.ts";

export { SNIPPET_MAX, TITLE_MAX, articleSchema, type Article } from "../contract/snapshots/news.ts";

const MAX_ITEM_CATEGORIES = 8;

/** What normalize needs to know about the feed being read. */
export interface RssMeta {
  /** Display name of the source (Article.source). */
  name: string;
  /** The source's categories from the catalog; every article carries them first. */
  categories: string[];
}

/** A feed item reduced to the fields we use, still raw (not sanitized). */
export interface RawItem {
  title?: string;
  link?: string;
  summary?: string;
  date?: string;
  categories: string[];
}

export interface ParsedFeed {
  format: "rss" | "atom" | "rdf";
  /** The channel's own link, the base for relative item links. */
  link?: string;
  items: RawItem[];
}

/** Thrown when a body is not an RSS, Atom or RDF document. */
export class FeedParseError extends Error {
  override name = "FeedParseError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  htmlEntities: true,
  trimValues: true,
  isArray: (name) => ["item", "entry", "link", "category", "atom:link", "dc:subject"].includes(name),
});

// Tolerant upstream schemas: only the shape we walk is checked; every other field passes through.
const node = z.unknown();
/** Tolerant schema of one RSS 2.0 / RDF item as the shared XML parser reads it (podcast sources extend it). */
export const rssItem = z.looseObject({
  title: node.optional(),
  link: z.array(node).optional(),
  guid: node.optional(),
  description: node.optional(),
  "content:encoded": node.optional(),
  pubDate: node.optional(),
  "dc:date": node.optional(),
  category: z.array(node).optional(),
  "dc:subject": z.array(node).optional(),
});
const rssDoc = z.looseObject({
  rss: z.looseObject({
    channel: z.looseObject({ link: z.array(node).optional(), item: z.array(rssItem).default([]) }),
  }),
});
const atomEntry = z.looseObject({
  title: node.optional(),
  link: z.array(node).optional(),
  id: node.optional(),
  summary: node.optional(),
  content: node.optional(),
  published: node.optional(),
  updated: node.optional(),
  category: z.array(node).optional(),
});
const atomDoc = z.looseObject({
  feed: z.looseObject({ link: z.array(node).optional(), entry: z.array(atomEntry).default([]) }),
});
const rdfDoc = z.looseObject({
  "rdf:RDF": z.looseObject({
    channel: z.looseObject({ link: z.array(node).optional() }).optional(),
    item: z.array(rssItem).default([]),
  }),
});

/** Parse an XML body with the shared feed parser settings; the root elements by name. Throws FeedParseError. */
export function parseXml(body: string): Record<string, unknown> {
  let doc: unknown;
  try {
    doc = xml.parse(body);
  } catch (cause) {
    throw new FeedParseError(`rss: body is not well-formed XML (${(cause as Error).message})`, { cause });
  }
  return doc && typeof doc === "object" ? (doc as Record<string, unknown>) : {};
}

/** Parse an RSS 2.0, Atom 1.0 or RDF body into raw items; throws FeedParseError on anything else. */
export function parseFeed(body: string): ParsedFeed {
  const root = parseXml(body);
  try {
    if ("rss" in root) {
      const { channel } = rssDoc.parse(root).rss;
      return { format: "rss", link: firstLink(channel.link), items: channel.item.map(rssRawItem) };
    }
    if ("feed" in root) {
      const { feed } = atomDoc.parse(root);
      return { format: "atom", link: atomLink(feed.link), items: feed.entry.map(atomRawItem) };
    }
    if ("rdf:RDF" in root) {
      const rdf = rdfDoc.parse(root)["rdf:RDF"];
      return { format: "rdf", link: firstLink(rdf.channel?.link), items: rdf.item.map(rssRawItem) };
    }
  } catch (cause) {
    if (cause instanceof z.ZodError) {
      throw new FeedParseError(`rss: feed structure not understood: ${z.prettifyError(cause)}`, { cause });
    }
    throw cause;
  }
  const roots = Object.keys(root).filter((k) => !k.startsWith("?"));
  throw new FeedParseError(
    `rss: body is not an RSS, Atom or RDF feed (root elements: ${roots.join(", ") || "none"}; starts ${JSON.stringify(body.slice(0, 60))})`,
  );
}

/** The common fields of an RSS item (title, link or permalink guid, summary, date, categories), still raw. */
export function rssRawItem(item: z.infer<typeof rssItem>): RawItem {
  const guid = item.guid;
  const guidIsLink =
    guid !== undefined && !(typeof guid === "object" && guid !== null && attr(guid, "isPermaLink") === "false");
  return {
    title: textOf(item.title),
    link: firstLink(item.link) ?? (guidIsLink ? httpUrlOrUndefined(textOf(guid)) : undefined),
    summary: textOf(item.description) || textOf(item["content:encoded"]) || undefined,
    date: textOf(item.pubDate) || textOf(item["dc:date"]) || undefined,
    categories: [...(item.category ?? []), ...(item["dc:subject"] ?? [])].map(textOf).filter((c) => c !== ""),
  };
}

function atomRawItem(entry: z.infer<typeof atomEntry>): RawItem {
  return {
    title: textOf(entry.title),
    link: atomLink(entry.link) ?? httpUrlOrUndefined(textOf(entry.id)),
    summary: textOf(entry.summary) || textOf(entry.content) || undefined,
    date: textOf(entry.published) || textOf(entry.updated) || undefined,
    categories: (entry.category ?? []).map((c) => attr(c, "term") ?? textOf(c)).filter((c) => c !== ""),
  };
}

/** Text of an XML node: a string, `#text` of an element with attributes, or all text below (xhtml content). */
export function textOf(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return value.map(textOf).join(" ");
  if (typeof value === "object") {
    return Object.entries(value)
      .filter(([k]) => !k.startsWith("@_"))
      .map(([, v]) => textOf(v))
      .join(" ");
  }
  return "";
}

/** An attribute of a parsed XML element (`@_name`), when it is a string. */
export function attr(value: unknown, name: string): string | undefined {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = (value as Record<string, unknown>)[`@_${name}`];
    return typeof v === "string" ? v : undefined;
  }
  return undefined;
}

/** RSS <link>: the first text value (an atom:link with href is a different element). */
function firstLink(links: unknown[] | undefined): string | undefined {
  for (const l of links ?? []) {
    const text = typeof l === "string" ? l : (attr(l, "href") ?? textOf(l));
    if (text.trim() !== "") return text.trim();
  }
  return undefined;
}

/** Atom <link>: rel="alternate" (or no rel), preferring type text/html. */
function atomLink(links: unknown[] | undefined): string | undefined {
  const candidates = (links ?? [])
    .map((l) => ({ href: attr(l, "href") ?? (typeof l === "string" ? l : ""), rel: attr(l, "rel") ?? "alternate", type: attr(l, "type") }))
    .filter((l) => l.href.trim() !== "" && l.rel === "alternate");
  const html = candidates.find((l) => l.type === undefined || l.type.includes("html"));
  return (html ?? candidates[0])?.href.trim();
}

function httpUrlOrUndefined(s: string): string | undefined {
  return /^https?:\/\//i.test(s.trim()) ? s.trim() : undefined;
}

const TRACKING_PARAMS = new Set([
  "fbclid", "gclid", "dclid", "msclkid", "mc_cid", "mc_eid", "_hsenc", "_hsmi", "wt_mc", "ncid", "cmpid", "guccounter",
]);

/**
 * The canonical form of an article URL: resolved against `base`, http(s) only, no fragment, no tracking
 * parameters (utm_* and the TRACKING_PARAMS list); undefined when it is not a usable URL.
 */
export function canonicalUrl(link: string, base?: string): string | undefined {
  let url: URL;
  try {
    url = new URL(link.trim(), base);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  url.hash = "";
  for (const key of [...url.searchParams.keys()]) {
    if (key.toLowerCase().startsWith("utm_") || TRACKING_PARAMS.has(key.toLowerCase())) url.searchParams.delete(key);
  }
  return url.toString();
}

/** Stable article id: the first 16 hex digits of SHA-256 over the canonical URL. */
export function articleId(canonical: string): string {
  return createHash("sha256").update(canonical).digest("hex").slice(0, 16);
}

/**
 * An item's publication date as ISO 8601 UTC (RFC 822 and ISO 8601 both accepted), or undefined when it does not
 * parse, is before 1990 or is more than a day after `now`, the fetch time (pipelines/lib/time.ts): a feed's
 * `9999-12-31` must not sit first in a newest-first list forever.
 */
export function parseDate(value: string | undefined, now: Date): string | undefined {
  return pastTime(value, now) ?? undefined;
}

/** Normalize raw items to Articles; items without a usable URL or title are dropped. */
export function normalizeFeed(parsed: ParsedFeed, ctx: { url: string; now: Date; meta: RssMeta }): Article[] {
  const base = parsed.link ? (canonicalUrl(parsed.link, ctx.url) ?? ctx.url) : ctx.url;
  const nowIso = ctx.now.toISOString();
  const out: Article[] = [];
  const seen = new Set<string>();
  for (const item of parsed.items) {
    const url = item.link ? canonicalUrl(item.link, base) : undefined;
    const title = sanitize(item.title ?? "", { maxLength: TITLE_MAX });
    if (!url || title === "" || seen.has(url)) continue;
    seen.add(url);
    const itemCategories = item.categories
      .map((c) => sanitize(c, { maxLength: 60 }).toLowerCase())
      .filter((c) => c !== "");
    out.push({
      id: articleId(url),
      title,
      url,
      source: ctx.meta.name,
      sourceDomain: new URL(url).hostname.replace(/^www\./, ""),
      snippet: sanitize(item.summary ?? "", { maxLength: SNIPPET_MAX }),
      categories: [...new Set([...ctx.meta.categories, ...itemCategories])].slice(0, ctx.meta.categories.length + MAX_ITEM_CATEGORIES),
      // No usable date (absent, unreadable, before 1990, more than a day ahead): the run time, as for an undated item.
      publishedAt: parseDate(item.date, ctx.now) ?? nowIso,
      fetchedAt: nowIso,
    });
  }
  return out;
}

/** The RSS/Atom/RDF source: one feed body in, Articles out. */
export const rss = {
  id: "rss",
  description: "Any RSS 2.0, Atom 1.0 or RSS 1.0 (RDF) news feed; no published rate limit, polled every 10 minutes.",
  parse: parseFeed,
  normalize: normalizeFeed,
  row: articleSchema,
} satisfies Source<ParsedFeed, Article, RssMeta>;
