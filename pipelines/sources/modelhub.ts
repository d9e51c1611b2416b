/**
 * Hugging Face Hub API (docs: https://huggingface.co/docs/hub/api) — the model and dataset hub behind the
 * neutral `modelhub` paths:
 * - `GET /api/models|datasets?sort=downloads&direction=-1&limit=30` and `GET /api/spaces?sort=likes…`: repo
 *   listings (JSON arrays). Older listings name a model by `modelId` (no `id`) and carry `lastModified`
 *   instead of `createdAt`; both shapes are read.
 * - `GET /api/daily_papers`: the editor-curated daily papers (array of { paper: { id, title, summary, upvotes,
 *   authors, publishedAt }, numComments, … }); older entries may lack the counters (read as 0).
 * Rate limit: anonymous API calls are limited per IP (a few hundred per 5 minutes); we send four requests a day.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastTime } from "../lib/time.ts";
import type { Source } from "../lib/types.ts";
import { HUB_PAPER_AUTHORS_MAX, HUB_PAPER_SUMMARY_MAX, HUB_PAPER_TITLE_MAX, type HubPaper, hubPaperSchema } from "../contract/snapshots/papers-modelhub-daily.ts";
import { type HubDataset, hubDatasetSchema, type HubModel, hubModelSchema, type HubSpace, hubSpaceSchema, MODELHUB_LIMIT, REPO_ID } from "../contract/snapshots/modelhub-trending.ts";

export { HUB_PAPER_AUTHORS_MAX, HUB_PAPER_SUMMARY_MAX, HUB_PAPER_TITLE_MAX, type HubPaper, hubPaperSchema } from "../contract/snapshots/papers-modelhub-daily.ts";

export { type HubDataset, hubDatasetSchema, type HubModel, hubModelSchema, type HubSpace, hubSpaceSchema, MODELHUB_LIMIT } from "../contract/snapshots/modelhub-trending.ts";

export const MODELHUB_BASE = "https://huggingface.co";
export const MODELHUB_MODELS_URL = `${MODELHUB_BASE}/api/models?sort=downloads&direction=-1&limit=${MODELHUB_LIMIT}`;
export const MODELHUB_DATASETS_URL = `${MODELHUB_BASE}/api/datasets?sort=downloads&direction=-1&limit=${MODELHUB_LIMIT}`;
export const MODELHUB_SPACES_URL = `${MODELHUB_BASE}/api/spaces?sort=likes&direction=-1&limit=${MODELHUB_LIMIT}`;
export const MODELHUB_DAILY_PAPERS_URL = `${MODELHUB_BASE}/api/daily_papers`;

/** Thrown when a body is not the JSON array a hub endpoint answers. */
export class ModelhubParseError extends Error {
  override name = "ModelhubParseError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

const UpstreamRepo = z.looseObject({
  id: z.string().optional(),
  modelId: z.string().optional(),
  author: z.string().nullish(),
  downloads: z.number().nullish(),
  likes: z.number().nullish(),
  pipeline_tag: z.string().nullish(),
  library_name: z.string().nullish(),
  sdk: z.string().nullish(),
  createdAt: z.string().nullish(),
  lastModified: z.string().nullish(),
  private: z.boolean().nullish(),
  disabled: z.boolean().nullish(),
});
type UpstreamRepo = z.infer<typeof UpstreamRepo>;

/** A hub listing as parsed: the entries it could read, and how many it skipped. */
export interface RepoListParsed {
  repos: UpstreamRepo[];
  skipped: number;
}

function parseArray(body: string, what: string): unknown[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (cause) {
    throw new ModelhubParseError(`modelhub: ${what} body is not JSON; it starts ${JSON.stringify(body.slice(0, 80))}`, { cause });
  }
  if (!Array.isArray(json)) {
    const error = json && typeof json === "object" && "error" in json ? `: ${String((json as { error: unknown }).error)}` : "";
    throw new ModelhubParseError(`modelhub: ${what} body is not a JSON array${error}`);
  }
  return json;
}

/** Parse a models, datasets or spaces listing. */
export function parseRepoList(body: string): RepoListParsed {
  const repos: UpstreamRepo[] = [];
  let skipped = 0;
  for (const item of parseArray(body, "listing")) {
    const r = UpstreamRepo.safeParse(item);
    if (r.success) repos.push(r.data);
    else skipped++;
  }
  return { repos, skipped };
}


function intOrZero(value: number | null | undefined): number {
  return value !== null && value !== undefined && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
}

function tagOrNull(value: string | null | undefined): string | null {
  return value && /^[\w.+-]+$/.test(value) && value.length <= 80 ? value : null;
}

/** The fields every listing row shares. */
interface RepoBase {
  id: string;
  author: string | null;
  likes: number;
  createdAt: string | null;
  lastModified: string | null;
  url: string;
}

/**
 * Usable public repos of a listing fetched at `now` with the shared fields, first copy of an id kept. `createdAt`
 * and `lastModified` are null when unreadable, before 1990 or more than a day after `now` (the repo is kept).
 */
function baseRows(parsed: RepoListParsed, urlPrefix: string, now: Date): { repo: UpstreamRepo; base: RepoBase }[] {
  const seen = new Set<string>();
  const out: { repo: UpstreamRepo; base: RepoBase }[] = [];
  for (const repo of parsed.repos) {
    const id = (repo.id ?? repo.modelId ?? "").trim();
    if (!REPO_ID.test(id) || id.length > 200 || repo.private === true || repo.disabled === true || seen.has(id)) continue;
    seen.add(id);
    const owner = id.includes("/") ? id.slice(0, id.indexOf("/")) : null;
    out.push({
      repo,
      base: {
        id,
        author: owner ?? (repo.author && REPO_ID.test(repo.author) ? repo.author : null),
        likes: intOrZero(repo.likes),
        createdAt: pastTime(repo.createdAt, now),
        lastModified: pastTime(repo.lastModified, now),
        url: `${MODELHUB_BASE}${urlPrefix}/${id}`,
      },
    });
  }
  return out;
}

/** Most downloads first; ties by id. */
export function byDownloads<T extends { id: string; downloads: number }>(a: T, b: T): number {
  return b.downloads - a.downloads || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
/** Most likes first; ties by id. */
export function byLikes<T extends { id: string; likes: number }>(a: T, b: T): number {
  return b.likes - a.likes || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** Models: sorted by downloads, top MODELHUB_LIMIT. */
export const modelhubModels = {
  id: "modelhub-models",
  description: "Hugging Face Hub model listing by downloads (huggingface.co/api/models); anonymous per-IP limit; daily.",
  parse: parseRepoList,
  normalize: (parsed: RepoListParsed, ctx: { now: Date }): HubModel[] =>
    baseRows(parsed, "", ctx.now)
      .map(({ repo, base }) => ({ ...base, downloads: intOrZero(repo.downloads), pipelineTag: tagOrNull(repo.pipeline_tag), libraryName: tagOrNull(repo.library_name) }))
      .sort(byDownloads)
      .slice(0, MODELHUB_LIMIT),
  row: hubModelSchema,
} satisfies Source<RepoListParsed, HubModel>;

/** Datasets: sorted by downloads, top MODELHUB_LIMIT. */
export const modelhubDatasets = {
  id: "modelhub-datasets",
  description: "Hugging Face Hub dataset listing by downloads (huggingface.co/api/datasets); anonymous per-IP limit; daily.",
  parse: parseRepoList,
  normalize: (parsed: RepoListParsed, ctx: { now: Date }): HubDataset[] =>
    baseRows(parsed, "/datasets", ctx.now)
      .map(({ repo, base }) => ({ ...base, downloads: intOrZero(repo.downloads) }))
      .sort(byDownloads)
      .slice(0, MODELHUB_LIMIT),
  row: hubDatasetSchema,
} satisfies Source<RepoListParsed, HubDataset>;

/** Spaces: sorted by likes, top MODELHUB_LIMIT. */
export const modelhubSpaces = {
  id: "modelhub-spaces",
  description: "Hugging Face Hub Spaces listing by likes (huggingface.co/api/spaces); anonymous per-IP limit; daily.",
  parse: parseRepoList,
  normalize: (parsed: RepoListParsed, ctx: { now: Date }): HubSpace[] =>
    baseRows(parsed, "/spaces", ctx.now)
      .map(({ repo, base }) => ({ ...base, sdk: tagOrNull(repo.sdk) }))
      .sort(byLikes)
      .slice(0, MODELHUB_LIMIT),
  row: hubSpaceSchema,
} satisfies Source<RepoListParsed, HubSpace>;

// ---- daily papers ----

const UpstreamDailyPaper = z.looseObject({
  paper: z.looseObject({
    id: z.string().min(1),
    title: z.string().nullish(),
    summary: z.string().nullish(),
    upvotes: z.number().nullish(),
    publishedAt: z.string().nullish(),
    authors: z.array(z.looseObject({ name: z.string().nullish(), hidden: z.boolean().nullish() })).nullish(),
  }),
  title: z.string().nullish(),
  numComments: z.number().nullish(),
  publishedAt: z.string().nullish(),
});
type UpstreamDailyPaper = z.infer<typeof UpstreamDailyPaper>;

export interface DailyPapersParsed {
  entries: UpstreamDailyPaper[];
  skipped: number;
}

/** Parse the daily papers array. */
export function parseDailyPapers(body: string): DailyPapersParsed {
  const entries: UpstreamDailyPaper[] = [];
  let skipped = 0;
  for (const item of parseArray(body, "daily_papers")) {
    const r = UpstreamDailyPaper.safeParse(item);
    if (r.success) entries.push(r.data);
    else skipped++;
  }
  return { entries, skipped };
}

/** Most upvotes first, then most comments, then id. */
export function byUpvotes(a: HubPaper, b: HubPaper): number {
  return b.upvotes - a.upvotes || b.comments - a.comments || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * Normalize daily papers fetched at `ctx.now`: sanitized, deduplicated by paper id (first copy kept), sorted by
 * upvotes. `publishedAt` is null when unreadable, before 1990 or more than a day after the fetch (the paper is kept).
 */
export function normalizeDailyPapers(parsed: DailyPapersParsed, ctx: { now: Date }): HubPaper[] {
  const seen = new Set<string>();
  const out: HubPaper[] = [];
  for (const entry of parsed.entries) {
    const id = entry.paper.id.trim();
    const title = sanitize(entry.paper.title ?? entry.title ?? "", { maxLength: HUB_PAPER_TITLE_MAX });
    if (!/^\d{4}\.\d{4,5}$/.test(id) || title === "" || seen.has(id)) continue;
    seen.add(id);
    const authors = (entry.paper.authors ?? []).map((a) => sanitize(a.name ?? "", { maxLength: 120 })).filter((n) => n !== "");
    out.push({
      id,
      title,
      summary: sanitize(entry.paper.summary ?? "", { maxLength: HUB_PAPER_SUMMARY_MAX }),
      authors: authors.slice(0, HUB_PAPER_AUTHORS_MAX),
      authorCount: authors.length,
      upvotes: intOrZero(entry.paper.upvotes),
      comments: intOrZero(entry.numComments),
      publishedAt: pastTime(entry.paper.publishedAt ?? entry.publishedAt, ctx.now),
      url: `${MODELHUB_BASE}/papers/${id}`,
      arxivUrl: `https://arxiv.org/abs/${id}`,
    });
  }
  return out.sort(byUpvotes);
}

/** The daily papers source. */
export const modelhubDailyPapers = {
  id: "modelhub-daily-papers",
  description: "Hugging Face daily papers (huggingface.co/api/daily_papers), editor-curated with upvotes and comments; daily.",
  parse: parseDailyPapers,
  normalize: normalizeDailyPapers,
  row: hubPaperSchema,
} satisfies Source<DailyPapersParsed, HubPaper>;
