/**
 * GitHub search API — `GET https://api.github.com/search/issues` and `GET /search/repositories`
 * (docs: https://docs.github.com/en/rest/search/search). Public; unauthenticated clients get 10 search
 * requests per minute, 30 with a token (`GITHUB_TOKEN`, sent as `Authorization: Bearer …` when set). At most
 * 100 results per page; we read one page per query, once a day (issues 12:30 UTC, repositories 15:00 UTC).
 *
 * Two sources share this file because they share the endpoint family, the headers and the item shapes:
 * `githubIssueSearch` (issues and pull requests: the feed decides what to keep) and `githubRepoSearch`.
 * Titles and descriptions are sanitized here; selection rules live in the feeds.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import type { Source } from "../lib/types.ts";

/** Base of the REST API. */
export const GITHUB_API = "https://api.github.com";

/** Longest title or description kept (UTF-16 units, ellipsis included). */
export const GITHUB_TEXT_MAX = 300;

/** Request headers for the search API; adds the bearer token when one is given (default: GITHUB_TOKEN). */
export function githubHeaders(token: string | undefined = process.env["GITHUB_TOKEN"]): Record<string, string> {
  return {
    Accept: "application/vnd.github+json",
    "X-GitHub-Api-Version": "2022-11-28",
    ...(token ? { Authorization: `Bearer ${token}` } : {}),
  };
}

export interface SearchUrlOptions {
  sort: string;
  order?: "asc" | "desc";
  perPage?: number;
}

/** URL of one search page: `/search/<kind>?q=…&sort=…&order=…&per_page=…` (parameters always in this order). */
export function githubSearchUrl(kind: "issues" | "repositories", q: string, options: SearchUrlOptions): string {
  const perPage = options.perPage ?? 100;
  if (!Number.isInteger(perPage) || perPage < 1 || perPage > 100) {
    throw new RangeError(`githubSearchUrl: per_page must be an integer in 1..100, got ${perPage}`);
  }
  return `${GITHUB_API}/search/${kind}?q=${encodeURIComponent(q)}&sort=${options.sort}&order=${options.order ?? "desc"}&per_page=${perPage}`;
}

/** Error thrown when a body is not a GitHub search result. */
export class GitHubSearchParseError extends Error {
  override name = "GitHubSearchParseError";
}

const SearchBody = z.looseObject({
  total_count: z.number().optional(),
  incomplete_results: z.boolean().optional(),
  items: z.array(z.unknown()),
});

function parseSearch<T extends z.ZodType>(id: string, body: string, item: T): { items: z.infer<T>[]; skipped: number; incomplete: boolean } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (cause) {
    throw new GitHubSearchParseError(`${id}: body is not JSON (starts ${JSON.stringify(body.slice(0, 40))})`, { cause });
  }
  const top = SearchBody.safeParse(json);
  if (!top.success) throw new GitHubSearchParseError(`${id}: body has no items[] array: ${top.error.message}`, { cause: top.error });
  const items: z.infer<T>[] = [];
  let skipped = 0;
  for (const raw of top.data.items) {
    const r = item.safeParse(raw);
    if (r.success) items.push(r.data);
    else skipped++;
  }
  return { items, skipped, incomplete: top.data.incomplete_results === true };
}

/** "https://api.github.com/repos/owner/name" → "owner/name" (null when the URL has another shape). */
export function repoFromApiUrl(url: string): string | null {
  const m = /^https:\/\/api\.github\.com\/repos\/([^/]+\/[^/]+)\/?$/.exec(url);
  return m ? m[1]! : null;
}

// ---------------------------------------------------------------- issues

const UpstreamIssue = z.looseObject({
  html_url: z.string().min(1),
  repository_url: z.string(),
  number: z.number().int(),
  title: z.string(),
  state: z.string(),
  comments: z.number().int().nonnegative(),
  created_at: z.string(),
  updated_at: z.string(),
  user: z.looseObject({ login: z.string() }).nullish(),
  labels: z.array(z.union([z.string(), z.looseObject({ name: z.string().nullish() })])).nullish(),
  pull_request: z.unknown().optional(),
  reactions: z.looseObject({ total_count: z.number().int().nonnegative() }).nullish(),
});

/** What `githubIssueSearch.parse` returns. */
export interface IssueSearchParsed {
  items: z.infer<typeof UpstreamIssue>[];
  skipped: number;
  incomplete: boolean;
}

/** One search hit, normalized. Pull requests are kept and flagged; the feed drops them. */
export const IssueHitSchema = z.strictObject({
  url: z.url(),
  repository: z.string().min(1),
  number: z.number().int().positive(),
  title: z.string(),
  state: z.string(),
  comments: z.number().int().nonnegative(),
  reactions: z.number().int().nonnegative(),
  labels: z.array(z.string()),
  author: z.string().nullable(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
  is_pull_request: z.boolean(),
});
export type IssueHit = z.infer<typeof IssueHitSchema>;


/** The issue search source (`/search/issues`). */
export const githubIssueSearch = {
  id: "github-issue-search",
  description: "GitHub GET /search/issues (https://docs.github.com/en/rest/search/search); 10 req/min anonymous, 30 with a token; daily",
  parse(body: string): IssueSearchParsed {
    return parseSearch("github-issue-search", body, UpstreamIssue);
  },
  /**
   * Hits fetched at `ctx.now`; a hit without a usable `created_at` or `updated_at` (unreadable, before 1990, more
   * than a day after the fetch) is dropped alone, like one without a repository or https URL; the feed counts them.
   */
  normalize(parsed: IssueSearchParsed, ctx: { now: Date }): IssueHit[] {
    const rows: IssueHit[] = [];
    for (const it of parsed.items) {
      const created = pastTime(it.created_at, ctx.now);
      const updated = pastTime(it.updated_at, ctx.now);
      const repository = repoFromApiUrl(it.repository_url);
      if (!created || !updated || !repository || it.number < 1 || !/^https:\/\//.test(it.html_url)) continue;
      rows.push({
        url: it.html_url,
        repository,
        number: it.number,
        title: sanitize(it.title, { maxLength: GITHUB_TEXT_MAX, format: "plain" }),
        state: it.state,
        comments: it.comments,
        reactions: it.reactions?.total_count ?? 0,
        labels: (it.labels ?? [])
          .map((l) => (typeof l === "string" ? l : (l.name ?? "")))
          .map((l) => sanitize(l, { maxLength: 60, format: "plain" }))
          .filter((l) => l !== ""),
        author: it.user?.login ?? null,
        created_at: created,
        updated_at: updated,
        is_pull_request: it.pull_request !== undefined && it.pull_request !== null,
      });
    }
    return rows;
  },
  row: IssueHitSchema,
} satisfies Source<IssueSearchParsed, IssueHit>;

// ---------------------------------------------------------------- repositories

const UpstreamRepo = z.looseObject({
  full_name: z.string().regex(/^[^/]+\/[^/]+$/),
  html_url: z.string().min(1),
  description: z.string().nullish(),
  language: z.string().nullish(),
  stargazers_count: z.number().int().nonnegative(),
  forks_count: z.number().int().nonnegative().optional(),
  topics: z.array(z.string()).nullish(),
  created_at: z.string(),
  pushed_at: z.string().nullish(),
  fork: z.boolean().optional(),
  archived: z.boolean().optional(),
});

/** What `githubRepoSearch.parse` returns. */
export interface RepoSearchParsed {
  items: z.infer<typeof UpstreamRepo>[];
  skipped: number;
  incomplete: boolean;
}

/** One repository hit, normalized. */
export const RepoHitSchema = z.strictObject({
  full_name: z.string().min(3),
  url: z.url(),
  description: z.string(),
  language: z.string().nullable(),
  stars: z.number().int().nonnegative(),
  forks: z.number().int().nonnegative(),
  topics: z.array(z.string()),
  created_at: z.iso.datetime(),
  archived: z.boolean(),
});
export type RepoHit = z.infer<typeof RepoHitSchema>;

/** The repository search source (`/search/repositories`). */
export const githubRepoSearch = {
  id: "github-repo-search",
  description: "GitHub GET /search/repositories (https://docs.github.com/en/rest/search/search); 10 req/min anonymous, 30 with a token; daily",
  parse(body: string): RepoSearchParsed {
    return parseSearch("github-repo-search", body, UpstreamRepo);
  },
  /** Hits fetched at `ctx.now`; one without a usable `created_at` or an https URL is dropped alone (the feed counts it). */
  normalize(parsed: RepoSearchParsed, ctx: { now: Date }): RepoHit[] {
    const rows: RepoHit[] = [];
    for (const r of parsed.items) {
      const created = pastTime(r.created_at, ctx.now);
      if (!created || !/^https:\/\//.test(r.html_url)) continue;
      rows.push({
        full_name: r.full_name,
        url: r.html_url,
        description: sanitize(r.description ?? "", { maxLength: GITHUB_TEXT_MAX }),
        language: r.language ?? null,
        stars: r.stargazers_count,
        forks: r.forks_count ?? 0,
        topics: [...(r.topics ?? [])].sort(),
        created_at: created,
        archived: r.archived === true,
      });
    }
    return rows;
  },
  row: RepoHitSchema,
} satisfies Source<RepoSearchParsed, RepoHit>;
