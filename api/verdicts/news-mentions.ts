/**
 * Recent news that mentions a subject (a model, an agent): articles published within a window before `now`
 * whose title or snippet holds one of the subject's names as a whole phrase, case-insensitively.
 */
import type { Article } from "../../pipelines/contract/snapshots/news.ts";

/** Days before now an article counts as recent. */
export const RECENT_NEWS_DAYS = 30;
/** Headlines returned per subject. */
export const RECENT_NEWS_TOP = 3;

/** A headline as the premium answers show it. */
export interface Headline {
  title: string;
  url: string;
  source: string;
  published: string;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A whole-phrase, case-insensitive pattern over `names` (names shorter than 3 characters are left out: too ambiguous). */
export function mentionPattern(names: readonly string[]): RegExp | null {
  const usable = [...new Set(names.map((n) => n.trim()).filter((n) => n.length >= 3))];
  if (usable.length === 0) return null;
  // Not inside a longer name: "GPT-4o" does not match "GPT-4o-mini", "gpt-4" does not match "gpt-4.1".
  return new RegExp(`(?<![A-Za-z0-9]|[A-Za-z0-9][-.])(?:${usable.map(escape).join("|")})(?![A-Za-z0-9]|[-.][A-Za-z0-9])`, "i");
}

/**
 * Articles published since 00:00 UTC RECENT_NEWS_DAYS days before `now`'s day mentioning one of `names`, newest
 * first (the window moves by whole days, so an answer is the same all day for the same news).
 */
export function recentMentions(articles: readonly Article[], names: readonly string[], now: Date): Article[] {
  const pattern = mentionPattern(names);
  if (!pattern) return [];
  const from = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`) - RECENT_NEWS_DAYS * 86_400_000;
  return articles
    .filter((a) => Date.parse(a.publishedAt) >= from && (pattern.test(a.title) || pattern.test(a.snippet)))
    .sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : a.id < b.id ? -1 : 1));
}

/** The top headlines of a mention list. */
export function headlines(articles: readonly Article[], top = RECENT_NEWS_TOP): Headline[] {
  return articles.slice(0, top).map((a) => ({ title: a.title, url: a.url, source: a.source, published: a.publishedAt }));
}
