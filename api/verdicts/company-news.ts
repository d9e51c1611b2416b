/**
 * News about a public company: articles whose title or snippet names one of its aliases as a whole phrase
 * (case-insensitive; "Arm Holdings", never a bare "arm"), newest first, each with the aliases it matched.
 */
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { mentionPattern } from "./news-mentions.ts";

/** One matched article. */
export interface CompanyNewsItem {
  id: string;
  title: string;
  url: string;
  source: string;
  publishedAt: string;
  matched_aliases: string[];
}

/** The newest `limit` articles naming one of `aliases`, and how many matched in all. */
export function companyNews(articles: readonly Article[], aliases: readonly string[], limit: number): { count: number; items: CompanyNewsItem[] } {
  const patterns = aliases.map((alias) => ({ alias, pattern: mentionPattern([alias]) })).filter((p): p is { alias: string; pattern: RegExp } => p.pattern !== null);
  const matched: CompanyNewsItem[] = [];
  for (const a of articles) {
    const hits = patterns.filter((p) => p.pattern.test(a.title) || p.pattern.test(a.snippet)).map((p) => p.alias);
    if (hits.length > 0) matched.push({ id: a.id, title: a.title, url: a.url, source: a.source, publishedAt: a.publishedAt, matched_aliases: hits });
  }
  matched.sort((x, y) => (x.publishedAt < y.publishedAt ? 1 : x.publishedAt > y.publishedAt ? -1 : x.id.localeCompare(y.id)));
  return { count: matched.length, items: matched.slice(0, limit) };
}
