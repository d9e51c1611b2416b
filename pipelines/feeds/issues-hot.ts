/**
 * The `issues-hot` snapshot (GET /api/issues/hot, daily 12:30 UTC): open code-hosting issues of the AI
 * ecosystem with 10 or more comments, updated in the last 7 days, deduplicated by URL, top 30 by comments.
 *
 * Queries (ISSUE_QUERIES) are date-free — `is:issue is:open comments:>=10 <scope>`, sorted by `updated`,
 * 100 per page — and the rules are applied here, on our side:
 * - pull requests (items carrying `pull_request`) are dropped, as are closed items and items under 10
 *   comments, whatever the upstream query said;
 * - the 7-day window ends at the run time, or at the newest `updated_at` the upstream reported when that is
 *   earlier (so a recorded response replays as of its capture instead of emptying as days pass; live, the
 *   newest update of these busy queries is minutes old and the two agree);
 * - duplicates (the same html_url from two queries) are merged: one entry, every matching query id listed;
 * - ranking: comments desc, then updated_at desc, then URL; the first 30 are kept.
 * A date-free query keeps URLs (and so fixture names) stable from day to day, and makes each rule testable.
 * A query that fails is skipped with a notice; the run fails only when every query fails.
 */
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { withSourceHealth } from "../lib/types.ts";
import { type IssueHit, githubHeaders, githubIssueSearch, githubSearchUrl } from "../sources/github-search.ts";
import { type HotIssue, ISSUES_MIN_COMMENTS, ISSUES_TOP, ISSUES_WINDOW_DAYS, type IssuesHotSnapshot, IssuesHotSnapshotSchema, issuesHotSnapshotType } from "../contract/snapshots/issues-hot.ts";

export { type HotIssue, HotIssueSchema, ISSUES_MIN_COMMENTS, ISSUES_TOP, ISSUES_WINDOW_DAYS, type IssuesHotSnapshot, IssuesHotSnapshotSchema } from "../contract/snapshots/issues-hot.ts";

const BASE = `is:issue is:open comments:>=${ISSUES_MIN_COMMENTS}`;

/** The search queries: id, what it covers, and the scope appended to the base qualifiers. */
export const ISSUE_QUERIES = [
  { id: "llm-bugs", label: "bug-labelled issues mentioning LLMs, any repository", scope: "label:bug llm" },
  {
    id: "inference-engines",
    label: "inference engines and local runners",
    scope: "repo:vllm-project/vllm repo:ggml-org/llama.cpp repo:ollama/ollama repo:sgl-project/sglang",
  },
  {
    id: "model-frameworks",
    label: "model and application frameworks",
    scope: "repo:huggingface/transformers repo:langchain-ai/langchain repo:run-llama/llama_index repo:pytorch/pytorch",
  },
  {
    id: "coding-agents",
    label: "coding agents and official SDKs",
    scope: "repo:anthropics/claude-code repo:openai/codex repo:google-gemini/gemini-cli repo:openai/openai-python",
  },
] as const;

export type IssueQueryId = (typeof ISSUE_QUERIES)[number]["id"];

/** The search URL of one query. */
export function issueQueryUrl(scope: string): string {
  return githubSearchUrl("issues", `${BASE} ${scope}`, { sort: "updated", order: "desc", perPage: 100 });
}

/** Every query failed. */
export class IssuesHotFeedError extends Error {
  override name = "IssuesHotFeedError";
}

/** Hits of one query, tagged with its id. */
export interface QueryHits {
  query: string;
  hits: IssueHit[];
}

/** Where the 7-day window ends: the run time, or the newest reported update when that is earlier. */
export function windowEnd(now: Date, results: readonly QueryHits[]): Date {
  let newest = Number.NEGATIVE_INFINITY;
  for (const r of results) for (const h of r.hits) newest = Math.max(newest, Date.parse(h.updated_at));
  return Number.isFinite(newest) && newest < now.getTime() ? new Date(newest) : now;
}

/** Apply the rules (drop PRs, closed, <10 comments, outside the window; merge by URL; top 30 by comments). */
export function selectHotIssues(results: readonly QueryHits[], end: Date, top = ISSUES_TOP): HotIssue[] {
  const from = end.getTime() - ISSUES_WINDOW_DAYS * 86_400_000;
  const byUrl = new Map<string, HotIssue>();
  for (const { query, hits } of results) {
    for (const h of hits) {
      if (h.is_pull_request || h.state !== "open" || h.comments < ISSUES_MIN_COMMENTS) continue;
      const updated = Date.parse(h.updated_at);
      if (updated < from || updated > end.getTime()) continue;
      const existing = byUrl.get(h.url);
      if (existing) {
        if (!existing.queries.includes(query)) existing.queries.push(query);
        // Keep the freshest copy's counts (queries may be answered a moment apart).
        if (h.updated_at > existing.updated_at) Object.assign(existing, { comments: h.comments, reactions: h.reactions, updated_at: h.updated_at, title: h.title, labels: h.labels });
        continue;
      }
      byUrl.set(h.url, {
        url: h.url,
        repository: h.repository,
        number: h.number,
        title: h.title,
        comments: h.comments,
        reactions: h.reactions,
        labels: h.labels,
        author: h.author,
        created_at: h.created_at,
        updated_at: h.updated_at,
        queries: [query],
      });
    }
  }
  return [...byUrl.values()]
    .sort((a, b) => b.comments - a.comments || b.updated_at.localeCompare(a.updated_at) || a.url.localeCompare(b.url))
    .slice(0, top)
    .map((i) => ({ ...i, queries: [...i.queries].sort() }));
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Build the snapshot. */
export async function runIssuesHot(ctx: FeedContext): Promise<FeedOutput<IssuesHotSnapshot>> {
  const headers = githubHeaders();
  const settled = await Promise.allSettled(
    ISSUE_QUERIES.map(async (q) => {
      const url = issueQueryUrl(q.scope);
      const res = await ctx.http.getText(url, { headers, expectContentType: ["json"] });
      const parsed = githubIssueSearch.parse(res.body);
      if (parsed.skipped > 0) ctx.notice(`issues-hot: ${q.id} had ${parsed.skipped} unreadable items (skipped)`);
      if (parsed.incomplete) ctx.notice(`issues-hot: ${q.id} results were incomplete (search timed out upstream)`);
      const hits = githubIssueSearch.normalize(parsed, { now: ctx.now });
      const dropped = parsed.items.length - hits.length;
      if (dropped > 0) ctx.notice(`issues-hot: ${q.id} had ${dropped} items without a usable date, repository or URL (skipped)`);
      return hits;
    }),
  );
  const results: QueryHits[] = [];
  const sources: SourceHealth[] = [];
  settled.forEach((s, i) => {
    const q = ISSUE_QUERIES[i]!;
    if (s.status === "fulfilled") {
      results.push({ query: q.id, hits: s.value });
      sources.push({ id: `github:${q.id}`, ok: true, rows: s.value.length });
    } else {
      const error = describe(s.reason);
      sources.push({ id: `github:${q.id}`, ok: false, error });
      ctx.notice(`issues-hot: query ${q.id} failed (${error}); skipped`);
    }
  });
  if (results.length === 0) {
    throw withSourceHealth(new IssuesHotFeedError(`issues-hot: every query failed (${sources.map((s) => `${s.id}: ${s.error}`).join("; ")})`), sources);
  }
  const end = windowEnd(ctx.now, results);
  const issues = selectHotIssues(results, end);
  const data = IssuesHotSnapshotSchema.parse({
    window_days: ISSUES_WINDOW_DAYS,
    min_comments: ISSUES_MIN_COMMENTS,
    window_end: end.toISOString(),
    queries: ISSUE_QUERIES.map((q) => ({ id: q.id, label: q.label, q: `${BASE} ${q.scope}` })),
    issues,
  });
  return { data, rows: issues.length, sources };
}

/** The hot-issues feed (API: GET /api/issues/hot). */
export const issuesHotFeed: Feed<IssuesHotSnapshot> = {
  ...issuesHotSnapshotType,
  urls: () => ISSUE_QUERIES.map((q) => issueQueryUrl(q.scope)),
  run: (ctx) => runIssuesHot(ctx),
};
