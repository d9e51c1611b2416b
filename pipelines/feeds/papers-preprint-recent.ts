/**
 * The `papers-preprint-recent` snapshot: the newest arXiv submissions in cs.AI, cs.LG, cs.CL and cs.CV (50 per
 * category listing), deduplicated by arXiv id with the version stripped, and cut to the 50 most recent.
 *
 * - Requests go one at a time, `delayMs` apart (3 s live as arXiv asks; none in replay).
 * - A duplicate keeps its highest version (the newest metadata) and unites the listings it appeared in.
 * - A listing that fails (HTTP error, arXiv's error feed, a truncated or malformed body) is reported in source
 *   health and a notice; an empty listing counts as a success with 0 rows. The run fails only when all four
 *   listings fail.
 * - Order: publishedAt (first submission) newest first, then id descending.
 */
import { classifyPreprint } from "../lib/research/classify.ts";
import { preprintKeywords } from "../lib/research/keywords.ts";
import { utcDate } from "../lib/store/snapshot-store.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth, WarehouseBatch } from "../lib/types.ts";
import { arxiv, arxivCategoryUrl } from "../sources/arxiv.ts";
import { type PapersPreprintRecentSnapshot, papersPreprintRecentSnapshotType, type Preprint, PREPRINT_CAP, PREPRINT_CATEGORIES } from "../contract/snapshots/papers-preprint-recent.ts";

export { type PapersPreprintRecentSnapshot, papersPreprintRecentSnapshotSchema, PREPRINT_CAP, PREPRINT_CATEGORIES } from "../contract/snapshots/papers-preprint-recent.ts";

/** Pause between two arXiv requests in live runs, in ms (arXiv asks for at least 3 s). */
export const ARXIV_DELAY_MS = 3000;

/** Thrown when every category listing failed. */
export class PapersPreprintRecentError extends Error {
  override name = "PapersPreprintRecentError";
}

/** Newest first submission first, then id descending (newer ids sort later). */
export function byRecency(a: Preprint, b: Preprint): number {
  return b.publishedAt.localeCompare(a.publishedAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** Merge category listings: one entry per arXiv id (highest version kept, listings united), newest `cap`. */
export function mergePreprints(lists: Preprint[][], cap = PREPRINT_CAP): Preprint[] {
  const byId = new Map<string, Preprint>();
  for (const p of lists.flat()) {
    const existing = byId.get(p.id);
    if (!existing) {
      byId.set(p.id, { ...p, listedIn: [...p.listedIn] });
      continue;
    }
    const winner = p.version > existing.version ? p : existing;
    byId.set(p.id, { ...winner, listedIn: [...new Set([...existing.listedIn, ...p.listedIn])] });
  }
  return [...byId.values()].map((p) => ({ ...p, listedIn: [...p.listedIn].sort() })).sort(byRecency).slice(0, cap);
}

export interface PapersPreprintRecentOptions {
  /** Pause between requests in live runs (default ARXIV_DELAY_MS); replay runs never pause. */
  delayMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));
const ACCEPT = "application/atom+xml, application/xml;q=0.9, text/xml;q=0.8";

/** Build the snapshot: the four listings in sequence, merged. */
export async function runPapersPreprintRecent(ctx: FeedContext, options: PapersPreprintRecentOptions = {}): Promise<FeedOutput<PapersPreprintRecentSnapshot>> {
  const delayMs = ctx.provenance === "replay" ? 0 : (options.delayMs ?? ARXIV_DELAY_MS);
  const sleep = options.sleep ?? defaultSleep;
  const lists: Preprint[][] = [];
  const health: SourceHealth[] = [];
  for (const [i, category] of PREPRINT_CATEGORIES.entries()) {
    if (i > 0 && delayMs > 0) await sleep(delayMs);
    const url = arxivCategoryUrl(category);
    try {
      const { body } = await ctx.http.getText(url, { headers: { accept: ACCEPT } });
      const parsed = arxiv.parse(body);
      const rows = arxiv.normalize(parsed, { now: ctx.now, meta: { category } });
      if (parsed.totalResults === 0) ctx.notice(`papers-preprint-recent: ${category} listing is empty`);
      if (parsed.skipped > 0) ctx.notice(`papers-preprint-recent: ${category} skipped ${parsed.skipped} entries without an id or title`);
      const dropped = parsed.entries.length - rows.length;
      if (dropped > 0) ctx.notice(`papers-preprint-recent: ${category} skipped ${dropped} entries without a usable arXiv id, title or published date`);
      lists.push(rows);
      health.push({ id: `arxiv:${category}`, ok: true, rows: rows.length });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      health.push({ id: `arxiv:${category}`, ok: false, error });
      ctx.notice(`papers-preprint-recent: ${category} failed: ${error}`);
    }
  }
  if (health.every((h) => !h.ok)) {
    throw new PapersPreprintRecentError(`papers-preprint-recent: every listing failed (${health.map((h) => `${h.id}: ${h.error}`).join("; ")})`);
  }
  const all = mergePreprints(lists, Number.MAX_SAFE_INTEGER);
  const preprints = all.slice(0, PREPRINT_CAP);
  return { data: { categories: [...PREPRINT_CATEGORIES], preprints }, rows: preprints.length, sources: health, warehouse: [preprintRows(all, utcDate(ctx.now))] };
}

/** The `preprints_daily` rows of a day: every preprint given, classified (pipelines/lib/research/classify.ts). */
export function preprintRows(preprints: readonly Preprint[], date: string): WarehouseBatch {
  return {
    table: "preprints_daily",
    key: ["date", "preprint_id"],
    rows: preprints.map((p) => {
      const c = classifyPreprint({ title: p.title, summary: p.summary, primaryCategory: p.primaryCategory, affiliations: p.affiliations });
      return {
        date,
        preprint_id: p.id,
        published: p.publishedAt.slice(0, 10),
        title: p.title,
        summary: p.summary,
        primary_category: p.primaryCategory,
        authors: p.authors.join("; "),
        affiliations: p.affiliations.join("; "),
        affiliation_types: c.affiliation_types.join("; "),
        affiliation_type: c.affiliation_type,
        subfield_tag: c.subfield_tag,
        subfield_rule: c.subfield_rule,
        methodology_bucket: c.methodology_bucket,
        methodology_rule: c.methodology_rule,
        milestone: c.is_milestone_candidate,
        milestone_reasoning: c.milestone_reasoning,
        keywords: preprintKeywords(p.title, p.summary).join("|"),
        url: p.url,
      };
    }),
  };
}

/** A papers-preprint-recent feed with the given pacing options (tests inject a recorder). */
export function createPapersPreprintRecentFeed(options: PapersPreprintRecentOptions = {}): Feed<PapersPreprintRecentSnapshot> {
  return {
    ...papersPreprintRecentSnapshotType,
    urls: () => PREPRINT_CATEGORIES.map(arxivCategoryUrl),
    run: (ctx) => runPapersPreprintRecent(ctx, options),
    historyRows: (data, at) => [preprintRows(data.preprints, at.date)],
  };
}

/** The `papers-preprint-recent` snapshot type. */
export const papersPreprintRecentFeed = createPapersPreprintRecentFeed();
