/**
 * The news feed: every catalog source (pipelines/catalog/news-sources.ts) read through the RSS/Atom source,
 * merged, deduplicated and sorted newest first.
 *
 * - Sources are fetched concurrently; a source that fails keeps its articles from the previous snapshot and is
 *   reported unhealthy. The run fails only when every source fails.
 * - Dedup: two articles are one when their canonical URLs match (scheme, `www.` and a trailing slash ignored)
 *   or their normalized titles match (NFKC, case-folded, punctuation and spacing collapsed). The earliest
 *   published copy is kept (ties: catalog order) and takes the union of both copies' categories.
 * - `fetchedAt` is when the article was first seen (carried over from the previous snapshot), so an unchanged
 *   upstream gives an unchanged body.
 * - `publishedAt` is the item's own date when it lies between 1990 and a day after the run (sources/rss.ts),
 *   else the time the article was first seen. A date held from before that rule (a feed's `9999-12-31`) is
 *   replaced the same way, whether the source answered or its previous articles are kept.
 */
import { NEWS_SOURCES, type NewsSource } from "../catalog/news-sources.ts";
import { NEWS_CAP, newsSnapshotSchema, newsSnapshotType, type Article, type NewsSnapshot } from "../contract/snapshots/news.ts";
import { rss } from "../sources/rss.ts";
import { pastTime } from "../lib/time.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";

export { NEWS_CAP, newsSnapshotSchema, newsSourceEntrySchema, type NewsSnapshot } from "../contract/snapshots/news.ts";

const ACCEPT = "application/rss+xml, application/atom+xml, application/rdf+xml;q=0.9, application/xml;q=0.8, text/xml;q=0.8, */*;q=0.5";

/** Thrown when no source could be read. */
export class NewsFeedError extends Error {
  override name = "NewsFeedError";
}

/** The dedup key of a canonical URL: no scheme, no leading `www.`, no trailing slash. */
export function urlKey(url: string): string {
  return url.replace(/^https?:\/\//i, "").replace(/^www\./i, "").replace(/\/+(?=$|\?)/, "");
}

/** The dedup key of a title. */
export function titleKey(title: string): string {
  return title.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** Merge article lists (in priority order) into one deduplicated list, newest first, capped. */
export function mergeArticles(lists: Article[][], cap = NEWS_CAP): Article[] {
  const all = lists.flat();
  // Earliest published first (stable: catalog order breaks ties) so the original copy wins.
  const ordered = all.map((a, i) => ({ a, i })).sort((x, y) => x.a.publishedAt.localeCompare(y.a.publishedAt) || x.i - y.i);
  const kept: Article[] = [];
  const byUrl = new Map<string, Article>();
  const byTitle = new Map<string, Article>();
  for (const { a } of ordered) {
    const u = urlKey(a.url);
    const t = titleKey(a.title);
    const existing = byUrl.get(u) ?? (t === "" ? undefined : byTitle.get(t));
    if (existing) {
      for (const c of a.categories) if (!existing.categories.includes(c)) existing.categories.push(c);
      byUrl.set(u, existing);
      continue;
    }
    const copy = { ...a, categories: [...a.categories] };
    kept.push(copy);
    byUrl.set(u, copy);
    if (t !== "") byTitle.set(t, copy);
  }
  kept.sort((x, y) => y.publishedAt.localeCompare(x.publishedAt) || x.id.localeCompare(y.id));
  return kept.slice(0, cap);
}

/** A held article's date, or its first-seen time when that date is out of range at `now` (before 1990, more than a day ahead). */
function heldDate(a: Article, now: Date): string {
  return pastTime(a.publishedAt, now) === null ? a.fetchedAt : a.publishedAt;
}

/** Carry first-seen times over from the previous snapshot (and the date of an undated article). */
function carryOver(articles: Article[], previous: Map<string, Article>, now: Date): Article[] {
  const nowIso = now.toISOString();
  return articles.map((a) => {
    const prev = previous.get(a.id);
    if (!prev) return a;
    return { ...a, fetchedAt: prev.fetchedAt, publishedAt: a.publishedAt === nowIso ? heldDate(prev, now) : a.publishedAt };
  });
}

async function readPrevious(ctx: FeedContext): Promise<NewsSnapshot | undefined> {
  const raw = await ctx.previous("news");
  if (raw === undefined) return undefined;
  const parsed = newsSnapshotSchema.safeParse(raw);
  if (!parsed.success) {
    ctx.notice("news: previous snapshot does not match the schema; starting fresh");
    return undefined;
  }
  return parsed.data;
}

async function fetchSource(ctx: FeedContext, source: NewsSource): Promise<Article[]> {
  const response = await ctx.http.getText(source.url, { headers: { Accept: ACCEPT } });
  const parsed = rss.parse(response.body);
  return rss.normalize(parsed, { url: source.url, now: ctx.now, meta: { name: source.name, categories: [...source.categories] } });
}

/** Build the news snapshot from `sources` (the catalog by default). */
export async function runNews(ctx: FeedContext, sources: readonly NewsSource[] = NEWS_SOURCES): Promise<FeedOutput<NewsSnapshot>> {
  const previous = await readPrevious(ctx);
  const previousById = new Map((previous?.articles ?? []).map((a) => [a.id, a]));
  const settled = await Promise.allSettled(sources.map((s) => fetchSource(ctx, s)));

  const lists: Article[][] = [];
  const health: SourceHealth[] = [];
  settled.forEach((result, i) => {
    const source = sources[i]!;
    if (result.status === "fulfilled") {
      lists.push(carryOver(result.value, previousById, ctx.now));
      health.push({ id: source.id, ok: true, rows: result.value.length });
    } else {
      const error = result.reason instanceof Error ? result.reason.message : String(result.reason);
      const kept = (previous?.articles ?? []).filter((a) => a.source === source.name).map((a) => ({ ...a, publishedAt: heldDate(a, ctx.now) }));
      lists.push(kept);
      health.push({ id: source.id, ok: false, error, rows: kept.length });
      ctx.notice(`news: ${source.id} failed (${error}); kept ${kept.length} previous articles`);
    }
  });
  if (sources.length > 0 && health.every((h) => !h.ok)) {
    throw withSourceHealth(new NewsFeedError(`news: every source failed (${health.map((h) => `${h.id}: ${h.error}`).join("; ")})`), health);
  }

  const articles = mergeArticles(lists);
  const data: NewsSnapshot = {
    articles,
    sources: sources.map((s) => ({ id: s.id, name: s.name, homepage: s.homepage, categories: [...s.categories], official: s.official })),
  };
  return { data, rows: articles.length, sources: health };
}

/** The `news` snapshot type. */
export const newsFeed: Feed<NewsSnapshot> = {
  ...newsSnapshotType,
  urls: () => NEWS_SOURCES.map((s) => s.url),
  run: (ctx) => runNews(ctx),
};
