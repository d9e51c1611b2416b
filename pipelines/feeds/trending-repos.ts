/**
 * The `trending-repos` snapshot (GET /api/trending-repos, daily 15:00 UTC): AI repositories ranked by star
 * velocity.
 *
 * - Candidates: GitHub repository searches of AI topics sorted by stars (pipelines/catalog/repo-topics.ts),
 *   plus `topic:llm created:>=<first day of the previous month>` sorted by stars, for new repositories. The
 *   month-aligned date keeps that URL the same for a month (stable fixtures) while covering 30-61 days.
 *   Archived repositories are skipped; duplicates across queries are one repository.
 * - Velocity, measured: stars now minus stars in the most recent earlier dated snapshot of this type
 *   (`ctx.dates` / `ctx.dated`, strictly before today's UTC date), divided by the days between the two dates.
 * - Velocity, estimated: a repository absent from that snapshot (or every repository on the first run) gets
 *   stars since creation divided by its age in whole days (at least 1), labelled `estimated`.
 * - Ranking: measured repositories first (stars_per_day desc), then estimated ones (stars_per_day desc);
 *   ties by stars desc, then full_name. The top 30 are served; the first 200 of the same order are kept in
 *   `tracked` ({ full_name, stars }) so the next run can measure them.
 * A query that fails is skipped with a notice; the run fails only when every query fails.
 */
import { RECENT_REPO_QUERY, REPO_TOPIC_QUERIES } from "../catalog/repo-topics.ts";
import type { Feed, FeedContext, FeedOutput, SourceHealth } from "../lib/types.ts";
import { type RepoHit, githubHeaders, githubRepoSearch, githubSearchUrl } from "../sources/github-search.ts";
import { TRENDING_TOP, TRENDING_TRACKED, type TrendingRepo, type TrendingReposSnapshot, TrendingReposSnapshotSchema, trendingReposSnapshotType } from "../contract/snapshots/trending-repos.ts";

export { TRENDING_TOP, TRENDING_TRACKED, type TrendingRepo, TrendingRepoSchema, type TrendingReposSnapshot, TrendingReposSnapshotSchema } from "../contract/snapshots/trending-repos.ts";

const DAY_MS = 86_400_000;

/** Every query failed. */
export class TrendingReposFeedError extends Error {
  override name = "TrendingReposFeedError";
}

/** The `created:>=` date of the recent-creation query: the first day of the month before `now` (UTC). */
export function recentSince(now: Date): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 10);
}

/** Every search of a run at `now`: id and URL. */
export function repoQueries(now: Date): { id: string; url: string }[] {
  return [
    ...REPO_TOPIC_QUERIES.map((q) => ({ id: q.id, url: githubSearchUrl("repositories", q.q, { sort: "stars", perPage: 100 }) })),
    {
      id: RECENT_REPO_QUERY.id,
      url: githubSearchUrl("repositories", `${RECENT_REPO_QUERY.q} created:>=${recentSince(now)}`, { sort: "stars", perPage: 100 }),
    },
  ];
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** Whole days from UTC date `a` to UTC date `b` (YYYY-MM-DD). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / DAY_MS);
}

/** The previous run to compare with: stars per repository and how many days ago. */
export interface Baseline {
  date: string;
  days: number;
  stars: ReadonlyMap<string, number>;
}

/** Rank candidates by velocity against `baseline` (or estimate every one without it). */
export function rankRepos(hits: readonly RepoHit[], now: Date, baseline: Baseline | null): TrendingRepo[] {
  const seen = new Set<string>();
  const ranked: TrendingRepo[] = [];
  for (const h of hits) {
    if (h.archived || seen.has(h.full_name)) continue;
    seen.add(h.full_name);
    const before = baseline?.stars.get(h.full_name);
    const base = { full_name: h.full_name, url: h.url, description: h.description, language: h.language, stars: h.stars };
    if (baseline && before !== undefined) {
      const delta = h.stars - before;
      ranked.push({ ...base, stars_delta: delta, days: baseline.days, stars_per_day: round2(delta / baseline.days), velocity_basis: "measured" });
    } else {
      const days = Math.max(1, Math.floor((now.getTime() - Date.parse(h.created_at)) / DAY_MS));
      ranked.push({ ...base, stars_delta: h.stars, days, stars_per_day: round2(h.stars / days), velocity_basis: "estimated" });
    }
  }
  const basisRank = (r: TrendingRepo) => (r.velocity_basis === "measured" ? 0 : 1);
  return ranked.sort(
    (a, b) =>
      basisRank(a) - basisRank(b) ||
      b.stars_per_day - a.stars_per_day ||
      b.stars - a.stars ||
      (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : 0),
  );
}

/** Find the most recent dated snapshot strictly before `today` that reads as this type. */
export async function loadBaseline(ctx: FeedContext, today: string): Promise<Baseline | null> {
  const earlier = (await ctx.dates("trending-repos")).filter((d) => d < today);
  for (const date of earlier.reverse()) {
    const parsed = TrendingReposSnapshotSchema.safeParse(await ctx.dated("trending-repos", date));
    if (!parsed.success) {
      ctx.notice(`trending-repos: snapshot of ${date} does not match the schema; looking further back`);
      continue;
    }
    return { date, days: daysBetween(date, today), stars: new Map(parsed.data.tracked.map((t) => [t.full_name, t.stars])) };
  }
  return null;
}

function describe(err: unknown): string {
  return err instanceof Error ? `${err.name}: ${err.message}` : String(err);
}

/** Build the snapshot. */
export async function runTrendingRepos(ctx: FeedContext): Promise<FeedOutput<TrendingReposSnapshot>> {
  const today = ctx.now.toISOString().slice(0, 10);
  const queries = repoQueries(ctx.now);
  const headers = githubHeaders();
  const settled = await Promise.allSettled(
    queries.map(async (q) => {
      const res = await ctx.http.getText(q.url, { headers, expectContentType: ["json"] });
      const parsed = githubRepoSearch.parse(res.body);
      if (parsed.skipped > 0) ctx.notice(`trending-repos: ${q.id} had ${parsed.skipped} unreadable items (skipped)`);
      const hits = githubRepoSearch.normalize(parsed, { now: ctx.now });
      const dropped = parsed.items.length - hits.length;
      if (dropped > 0) ctx.notice(`trending-repos: ${q.id} had ${dropped} items without a usable created_at or URL (skipped)`);
      return hits;
    }),
  );
  const hits: RepoHit[] = [];
  const sources: SourceHealth[] = [];
  settled.forEach((s, i) => {
    const q = queries[i]!;
    if (s.status === "fulfilled") {
      hits.push(...s.value);
      sources.push({ id: `github:${q.id}`, ok: true, rows: s.value.length });
    } else {
      const error = describe(s.reason);
      sources.push({ id: `github:${q.id}`, ok: false, error });
      ctx.notice(`trending-repos: query ${q.id} failed (${error}); skipped`);
    }
  });
  if (sources.every((s) => !s.ok)) {
    throw new TrendingReposFeedError(`trending-repos: every query failed (${sources.map((s) => `${s.id}: ${s.error}`).join("; ")})`);
  }
  const baseline = await loadBaseline(ctx, today);
  const ranked = rankRepos(hits, ctx.now, baseline);
  const data = TrendingReposSnapshotSchema.parse({
    compared_with: baseline?.date ?? null,
    window_days: baseline?.days ?? null,
    repos: ranked.slice(0, TRENDING_TOP),
    tracked: ranked
      .slice(0, TRENDING_TRACKED)
      .map((r) => ({ full_name: r.full_name, stars: r.stars }))
      .sort((a, b) => (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : 0)),
  });
  return { data, rows: data.repos.length, sources };
}

/** The trending repositories feed (API: GET /api/trending-repos). */
export const trendingReposFeed: Feed<TrendingReposSnapshot> = {
  ...trendingReposSnapshotType,
  // --list-urls has no run clock; it lists the URLs a run started now would request.
  urls: (now = new Date()) => repoQueries(now).map((q) => q.url),
  run: (ctx) => runTrendingRepos(ctx),
};
