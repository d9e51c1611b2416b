/**
 * Premium news search: keyword relevance over the news snapshot with date, provider and category filters.
 * Pure over the snapshot and a reference time.
 *
 * Choices where the spec is silent:
 * - Terms: q is NFKC-normalized, lower-cased and split on anything but Unicode letters and digits; English
 *   stop words (STOP_WORDS) are dropped and repeated terms kept once. A q of stop words only is a 400; an
 *   empty q means browse.
 * - Hits: a term hits a field when it equals one of the field's tokens (whole-token match, tokenized the same
 *   way). A term counts once per field, however often it occurs: title hit 3, snippet hit 1.
 * - Recency boost: 2^(−age_days / 7), i.e. +1 for an article published at the reference time, halving every 7
 *   days; age is measured from the snapshot's last successful run (not the request clock, so the answer is a
 *   function of the snapshot) and is never negative. relevance = 3 × title hits + snippet hits + boost, rounded
 *   to 4 decimals. With q, articles without any hit are excluded.
 * - Browse (no q): relevance is the recency boost alone and matched_terms is empty; newest first.
 * - Order: relevance descending, then published_at descending, then id ascending.
 * - from / to: inclusive UTC days of publishedAt. provider: case-insensitive substring of the source name or
 *   domain. category: case-insensitive exact match on one of the article's categories.
 */
import { clip } from "../http/clip.ts";
import { ApiError } from "../registry/types.ts";
import type { Article, NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";
import { round } from "./round.ts";

/** Weight of a term found in the title. */
export const TITLE_WEIGHT = 3;
/** Weight of a term found in the snippet. */
export const SNIPPET_WEIGHT = 1;
/** Half-life of the recency boost, in days. */
export const HALF_LIFE_DAYS = 7;
/** Default and maximum `limit` (spec Limits: news search default 25, max 100). */
export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** Words too common to carry meaning in a query. */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  (
    "a an and are as at be been but by can do does for from has have how i in into is it its of on or " +
    "our s that the their then there these this those to was were what when where which who why will with you your"
  ).split(" "),
);

const DAY_MS = 86_400_000;
const SPLIT = /[^\p{L}\p{N}]+/u;

/** Tokens of a text: NFKC, lower case, split on non letters/digits, empties dropped (stop words kept). */
export function tokens(text: string): string[] {
  return text.normalize("NFKC").toLowerCase().split(SPLIT).filter((t) => t.length > 0);
}

/** Query terms: tokens without stop words, each once, in query order. */
export function queryTerms(q: string): string[] {
  return [...new Set(tokens(q).filter((t) => !STOP_WORDS.has(t)))];
}

/** Recency boost of an article `ageDays` old: 1 at age 0, halving every HALF_LIFE_DAYS. */
export function recencyBoost(ageDays: number): number {
  return 2 ** (-Math.max(0, ageDays) / HALF_LIFE_DAYS);
}

export interface NewsSearchOptions {
  q?: string;
  from?: string;
  to?: string;
  provider?: string;
  category?: string;
  limit: number;
}

export interface SearchResult {
  id: string;
  title: string;
  url: string;
  source: string;
  source_domain: string;
  snippet: string;
  categories: string[];
  published_at: string;
  /** When the service first saw the article (the Article's fetchedAt). */
  fetched_at: string;
  relevance: number;
  matched_terms: string[];
}

export interface NewsSearch {
  ok: true;
  query: { q: string | null; terms: string[]; mode: "search" | "browse" };
  filters: { from: string | null; to: string | null; provider: string | null; category: string | null; limit: number };
  total_corpus: number;
  matched: number;
  returned: number;
  results: SearchResult[];
}

/** Score one article against the terms: hits and matched terms (query order). */
export function scoreArticle(article: Pick<Article, "title" | "snippet">, terms: readonly string[]): { hits: number; matched: string[] } {
  const title = new Set(tokens(article.title));
  const snippet = new Set(tokens(article.snippet));
  let hits = 0;
  const matched: string[] = [];
  for (const t of terms) {
    const inTitle = title.has(t);
    const inSnippet = snippet.has(t);
    hits += (inTitle ? TITLE_WEIGHT : 0) + (inSnippet ? SNIPPET_WEIGHT : 0);
    if (inTitle || inSnippet) matched.push(t);
  }
  return { hits, matched };
}

/** Keep articles inside the date, provider and category filters. */
export function filterArticles(articles: readonly Article[], options: NewsSearchOptions): Article[] {
  const provider = options.provider?.toLowerCase();
  const category = options.category?.toLowerCase();
  return articles.filter((a) => {
    const day = a.publishedAt.slice(0, 10);
    if (options.from !== undefined && day < options.from) return false;
    if (options.to !== undefined && day > options.to) return false;
    if (provider !== undefined && !a.source.toLowerCase().includes(provider) && !a.sourceDomain.toLowerCase().includes(provider)) return false;
    if (category !== undefined && !a.categories.some((c) => c.toLowerCase() === category)) return false;
    return true;
  });
}

const blank = (s: string | undefined) => (s === undefined || s.trim() === "" ? undefined : s.trim());

/**
 * Search (or browse) the news snapshot. `reference` is the time ages are measured from. Throws ApiError 400
 * `invalid_range` when from > to and `invalid_query` when q holds only stop words.
 */
export function searchNews(news: NewsSnapshot, options: NewsSearchOptions, reference: Date): NewsSearch {
  const q = blank(options.q);
  const opts: NewsSearchOptions = { ...options, q, provider: blank(options.provider), category: blank(options.category) };
  if (opts.from !== undefined && opts.to !== undefined && opts.from > opts.to) {
    throw new ApiError(400, "invalid_range", `from (${opts.from}) is after to (${opts.to})`);
  }
  const terms = q === undefined ? [] : queryTerms(q);
  if (q !== undefined && terms.length === 0) {
    throw new ApiError(400, "invalid_query", `q ${JSON.stringify(clip(q))} holds only stop words or punctuation; give at least one other word, or omit q to browse`);
  }

  const scored = filterArticles(news.articles, opts).flatMap((a) => {
    const { hits, matched } = scoreArticle(a, terms);
    if (q !== undefined && hits === 0) return [];
    const age = (reference.getTime() - Date.parse(a.publishedAt)) / DAY_MS;
    const relevance = round(hits + recencyBoost(age), 4);
    return [{ a, relevance, matched }];
  });
  scored.sort(
    (x, y) =>
      y.relevance - x.relevance ||
      Date.parse(y.a.publishedAt) - Date.parse(x.a.publishedAt) ||
      (x.a.id < y.a.id ? -1 : x.a.id > y.a.id ? 1 : 0),
  );
  const results = scored.slice(0, opts.limit).map(({ a, relevance, matched }) => ({
    id: a.id,
    title: a.title,
    url: a.url,
    source: a.source,
    source_domain: a.sourceDomain,
    snippet: a.snippet,
    categories: a.categories,
    published_at: a.publishedAt,
    fetched_at: a.fetchedAt,
    relevance,
    matched_terms: matched,
  }));
  return {
    ok: true,
    query: { q: q ?? null, terms, mode: q === undefined ? "browse" : "search" },
    filters: { from: opts.from ?? null, to: opts.to ?? null, provider: opts.provider ?? null, category: opts.category ?? null, limit: opts.limit },
    total_corpus: news.articles.length,
    matched: scored.length,
    returned: results.length,
    results,
  };
}
