/**
 * The preprint analytics that are more than a filter: emerging keywords (lift of a term's recent frequency over
 * its smoothed baseline frequency) and lab productivity (papers per affiliation per window). Pure: the route
 * counts in DuckDB, these rank.
 */
import { round } from "./round.ts";

/** Days of the recent window and of the baseline before it. */
export const RECENT_DAYS = 30 as const;
export const BASELINE_DAYS = 90 as const;
/** Keywords answered. */
export const TOP_KEYWORDS = 50;
/** A keyword must appear in at least this many recent preprints to be ranked. */
export const MIN_RECENT_COUNT = 2;
/** Additive smoothing of the baseline: (baseline_count + 1) / (baseline papers + 1), so an unseen term has a finite lift. */
export const SMOOTHING = 1;

export interface KeywordCounts {
  keyword: string;
  recent_count: number;
  baseline_count: number;
  /** Recent preprints that carry the keyword, newest first. */
  examples: readonly string[];
}

export interface EmergingKeyword {
  keyword: string;
  recent_count: number;
  baseline_count: number;
  lift: number;
  example_preprint_ids: string[];
}

/** Lift = (recent_count / recent papers) / ((baseline_count + 1) / (baseline papers + 1)), rounded to 3 decimals. */
export function lift(recentCount: number, recentPapers: number, baselineCount: number, baselinePapers: number): number {
  if (recentPapers === 0) return 0;
  const recent = recentCount / recentPapers;
  const baseline = (baselineCount + SMOOTHING) / (baselinePapers + SMOOTHING);
  return round(recent / baseline, 3);
}

/**
 * The top keywords by lift (then recent count, then keyword): only those in at least MIN_RECENT_COUNT recent
 * preprints; a bigram is dropped when one of its words ranks with the same recent count (the word says it already).
 */
export function emergingKeywords(counts: readonly KeywordCounts[], recentPapers: number, baselinePapers: number, top = TOP_KEYWORDS): EmergingKeyword[] {
  const ranked = counts
    .filter((c) => c.recent_count >= MIN_RECENT_COUNT && c.examples.length >= Math.min(2, c.recent_count))
    .map((c) => ({ keyword: c.keyword, recent_count: c.recent_count, baseline_count: c.baseline_count, lift: lift(c.recent_count, recentPapers, c.baseline_count, baselinePapers), example_preprint_ids: c.examples.slice(0, 5) }))
    .sort((a, b) => b.lift - a.lift || b.recent_count - a.recent_count || a.keyword.localeCompare(b.keyword));
  const out: EmergingKeyword[] = [];
  for (const k of ranked) {
    if (k.keyword.includes(" ")) {
      const parts = k.keyword.split(" ");
      if (parts.some((p) => ranked.some((r) => r.keyword === p && r.recent_count === k.recent_count && r.baseline_count === k.baseline_count))) continue;
    }
    out.push(k);
    if (out.length >= top) break;
  }
  return out;
}

/** The windows of lab productivity, in days. */
export const LAB_WINDOWS = { "30d": 30, "90d": 90, "365d": 365 } as const;
export type LabWindow = keyof typeof LAB_WINDOWS;

export interface AffiliationCounts {
  affiliation: string;
  type: string;
  /** Distinct preprints per window. */
  papers: Record<LabWindow, number>;
}

/** Per window, affiliations by papers (then name), those with none left out, at most `limit`. */
export function labProductivity(rows: readonly AffiliationCounts[], windows: readonly LabWindow[], limit: number): Record<string, { affiliation: string; papers: number; type: string }[]> {
  const out: Record<string, { affiliation: string; papers: number; type: string }[]> = {};
  for (const w of windows) {
    out[w] = rows
      .filter((r) => r.papers[w] > 0)
      .map((r) => ({ affiliation: r.affiliation, papers: r.papers[w], type: r.type }))
      .sort((a, b) => b.papers - a.papers || a.affiliation.localeCompare(b.affiliation))
      .slice(0, limit);
  }
  return out;
}
