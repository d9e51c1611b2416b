/**
 * The `papers-ai-trending` snapshot: five fan-out searches on Semantic Scholar (large language models, AI
 * agents, multimodal foundation models, RLHF, diffusion models) over papers from last year on, merged,
 * deduplicated by paperId (the copies' query ids are united), and cut to the 30 most cited.
 *
 * - Requests go one at a time, spaced by `delayMs` (1.1 s live, none in replay) to stay inside the shared
 *   unauthenticated pool; the shared client backs off on 429. SEMANTIC_SCHOLAR_API_KEY, when set, is sent as
 *   `x-api-key`.
 * - A query that fails is reported in source health and a notice; the run fails only when all five fail.
 * - Order: citationCount descending (a paper Semantic Scholar gave no count for has null and comes last), then publicationDate (newest first, undated last), then paperId.
 */
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { semanticScholar, semanticScholarSearchUrl } from "../sources/semantic-scholar.ts";
import { AI_TRENDING_CAP, AI_TRENDING_QUERIES, type PapersAiTrendingSnapshot, papersAiTrendingSnapshotType, type ScholarPaper } from "../contract/snapshots/papers-ai-trending.ts";

export { AI_TRENDING_CAP, AI_TRENDING_QUERIES, type PapersAiTrendingSnapshot, papersAiTrendingSnapshotSchema } from "../contract/snapshots/papers-ai-trending.ts";

/** Pause between two searches in live runs, in ms. */
export const SEMANTIC_SCHOLAR_DELAY_MS = 1100;

/** Thrown when every fan-out query failed. */
export class PapersAiTrendingError extends Error {
  override name = "PapersAiTrendingError";
}

/** The first year searched: last year, so early January still has a year of papers. */
export function sinceYearFor(now: Date): number {
  return now.getUTCFullYear() - 1;
}

/** A count for ordering: an unknown (null) count ranks below every known one, zero included. */
function citationRank(p: ScholarPaper): number {
  return p.citationCount ?? -1;
}

/** citationCount desc (unknown counts last), then newest publicationDate (undated last), then paperId. */
export function byCitations(a: ScholarPaper, b: ScholarPaper): number {
  return (
    citationRank(b) - citationRank(a) ||
    (b.publicationDate ?? "").localeCompare(a.publicationDate ?? "") ||
    a.paperId.localeCompare(b.paperId)
  );
}

/** Merge per-query results: one entry per paperId (query ids united, highest citation count kept), top `cap`. */
export function mergeScholarPapers(lists: ScholarPaper[][], cap = AI_TRENDING_CAP): ScholarPaper[] {
  const byId = new Map<string, ScholarPaper>();
  for (const paper of lists.flat()) {
    const existing = byId.get(paper.paperId);
    if (!existing) {
      byId.set(paper.paperId, { ...paper, queries: [...paper.queries] });
      continue;
    }
    const queries = [...new Set([...existing.queries, ...paper.queries])].sort();
    const winner = citationRank(paper) > citationRank(existing) ? paper : existing;
    byId.set(paper.paperId, { ...winner, queries });
  }
  return [...byId.values()].map((p) => ({ ...p, queries: [...p.queries].sort() })).sort(byCitations).slice(0, cap);
}

export interface PapersAiTrendingOptions {
  /** Pause between searches in live runs (default SEMANTIC_SCHOLAR_DELAY_MS); replay runs never pause. */
  delayMs?: number;
  sleep?: (ms: number) => Promise<void>;
  /** API key sent as x-api-key (default env SEMANTIC_SCHOLAR_API_KEY). */
  apiKey?: string;
}

const defaultSleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Build the snapshot: the five searches in sequence, merged. */
export async function runPapersAiTrending(ctx: FeedContext, options: PapersAiTrendingOptions = {}): Promise<FeedOutput<PapersAiTrendingSnapshot>> {
  const delayMs = ctx.provenance === "replay" ? 0 : (options.delayMs ?? SEMANTIC_SCHOLAR_DELAY_MS);
  const sleep = options.sleep ?? defaultSleep;
  const apiKey = options.apiKey ?? process.env.SEMANTIC_SCHOLAR_API_KEY;
  const headers: Record<string, string> = { accept: "application/json", ...(apiKey ? { "x-api-key": apiKey } : {}) };
  const sinceYear = sinceYearFor(ctx.now);

  const lists: ScholarPaper[][] = [];
  const health: SourceHealth[] = [];
  for (const [i, q] of AI_TRENDING_QUERIES.entries()) {
    if (i > 0 && delayMs > 0) await sleep(delayMs);
    const url = semanticScholarSearchUrl(q.query, sinceYear);
    try {
      const { body } = await ctx.http.getText(url, { headers });
      const parsed = semanticScholar.parse(body);
      const rows = semanticScholar.normalize(parsed, { now: ctx.now, meta: { queryId: q.id } });
      if (parsed.skipped > 0) ctx.notice(`papers-ai-trending: ${q.id} skipped ${parsed.skipped} unreadable results`);
      lists.push(rows);
      health.push({ id: `semantic-scholar:${q.id}`, ok: true, rows: rows.length });
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      health.push({ id: `semantic-scholar:${q.id}`, ok: false, error });
      ctx.notice(`papers-ai-trending: query ${q.id} (${JSON.stringify(q.query)}) failed: ${error}`);
    }
  }
  if (health.every((h) => !h.ok)) {
    throw new PapersAiTrendingError(`papers-ai-trending: every query failed (${health.map((h) => `${h.id}: ${h.error}`).join("; ")})`);
  }
  const papers = mergeScholarPapers(lists);
  return {
    data: { sinceYear, queries: AI_TRENDING_QUERIES.map((q) => ({ id: q.id, query: q.query })), papers },
    rows: papers.length,
    sources: health,
  };
}

/** A papers-ai-trending feed with the given pacing options (tests inject a recorder). */
export function createPapersAiTrendingFeed(options: PapersAiTrendingOptions = {}): Feed<PapersAiTrendingSnapshot> {
  return {
    ...papersAiTrendingSnapshotType,
    // --list-urls has no run clock: the URLs a run started now would request.
    urls: (now = new Date()) => AI_TRENDING_QUERIES.map((q) => semanticScholarSearchUrl(q.query, sinceYearFor(now))),
    run: (ctx) => runPapersAiTrending(ctx, options),
  };
}

/** The `papers-ai-trending` snapshot type. */
export const papersAiTrendingFeed = createPapersAiTrendingFeed();
