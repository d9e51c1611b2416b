/**
 * Semantic Scholar Graph API paper search — `GET https://api.semanticscholar.org/graph/v1/paper/search`
 * (docs: https://api.semanticscholar.org/api-docs/graph#tag/Paper-Data/operation/get_graph_paper_relevance_search).
 * Rate limit: unauthenticated callers share one pool (about 1 request per second, 429 when it is busy); an
 * API key (`x-api-key`, env SEMANTIC_SCHOLAR_API_KEY) gets a dedicated 1 request per second. Read once a day
 * by the papers-ai-trending feed, five queries in sequence, spaced apart.
 * Body: `{ total, offset, next?, data: [{ paperId, title, year, citationCount, authors, url, externalIds,
 * publicationDate, venue }] }` for the fields we request.
 */
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import { pastDay } from "../lib/time.ts";
import type { Source } from "../lib/types.ts";
import { PAPER_AUTHORS_MAX, PAPER_TITLE_MAX, type ScholarPaper, scholarPaperSchema } from "../contract/snapshots/papers-ai-trending.ts";

export { PAPER_AUTHORS_MAX, PAPER_TITLE_MAX, type ScholarPaper, scholarPaperSchema } from "../contract/snapshots/papers-ai-trending.ts";

/** The search endpoint. */
export const SEMANTIC_SCHOLAR_SEARCH_URL = "https://api.semanticscholar.org/graph/v1/paper/search";
/** Fields we ask for on every search. */
export const SEMANTIC_SCHOLAR_FIELDS = "title,year,citationCount,authors,url,externalIds,publicationDate,venue";
/** Results per query (the endpoint's maximum is 100). */
export const SEMANTIC_SCHOLAR_LIMIT = 100;

/** The search URL for `query`, restricted to papers from `sinceYear` on. */
export function semanticScholarSearchUrl(query: string, sinceYear: number): string {
  const params = new URLSearchParams({
    query,
    year: `${sinceYear}-`,
    fields: SEMANTIC_SCHOLAR_FIELDS,
    limit: String(SEMANTIC_SCHOLAR_LIMIT),
  });
  return `${SEMANTIC_SCHOLAR_SEARCH_URL}?${params}`;
}

const UpstreamAuthor = z.looseObject({ authorId: z.string().nullish(), name: z.string().nullish() });
const UpstreamPaper = z.looseObject({
  paperId: z.string().min(1),
  title: z.string().nullish(),
  year: z.number().int().nullish(),
  citationCount: z.number().int().nonnegative().nullish(),
  authors: z.array(UpstreamAuthor).nullish(),
  url: z.string().nullish(),
  externalIds: z.record(z.string(), z.union([z.string(), z.number()]).nullish()).nullish(),
  publicationDate: z.string().nullish(),
  venue: z.string().nullish(),
});
type UpstreamPaper = z.infer<typeof UpstreamPaper>;
const UpstreamBody = z.looseObject({
  total: z.number().int().nonnegative(),
  offset: z.number().int().nonnegative().optional(),
  next: z.number().int().optional(),
  data: z.array(z.unknown()).default([]),
});

/** What `parse` returns: the papers it could read, how many it skipped, and the upstream total. */
export interface SemanticScholarParsed {
  total: number;
  papers: UpstreamPaper[];
  skipped: number;
}

/** Thrown when a body is not a paper search response (an error object, HTML, …). */
export class SemanticScholarParseError extends Error {
  override name = "SemanticScholarParseError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Which fan-out query a body answers. */
export interface ScholarMeta {
  queryId: string;
}

/**
 * The error an upstream body states instead of results: `{ "error": … }` for a bad request, `{ "message": …,
 * "code": "429" }` when the shared pool is busy. Sanitized and clipped (it is outside text in an error line).
 */
function upstreamMessage(json: unknown): string | null {
  if (!json || typeof json !== "object") return null;
  const o = json as Record<string, unknown>;
  const text = typeof o["error"] === "string" ? o["error"] : typeof o["message"] === "string" ? o["message"] : null;
  if (text === null) return null;
  const code = typeof o["code"] === "string" || typeof o["code"] === "number" ? ` (code ${sanitize(String(o["code"]), { maxLength: 20, format: "plain" })})` : "";
  return `${sanitize(text, { maxLength: 300, format: "plain" })}${code}`;
}

/** Parse a search body; throws SemanticScholarParseError when it is not one (e.g. `{ "error": … }`). */
export function parseSearch(body: string): SemanticScholarParsed {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (cause) {
    throw new SemanticScholarParseError(`semantic-scholar: body is not JSON; it starts ${JSON.stringify(body.slice(0, 80))}`, { cause });
  }
  const parsed = UpstreamBody.safeParse(json);
  if (!parsed.success) {
    const message = upstreamMessage(json) ?? z.prettifyError(parsed.error);
    throw new SemanticScholarParseError(`semantic-scholar: not a paper search response: ${message}`, { cause: parsed.error });
  }
  const papers: UpstreamPaper[] = [];
  let skipped = 0;
  for (const item of parsed.data.data) {
    const paper = UpstreamPaper.safeParse(item);
    if (paper.success) papers.push(paper.data);
    else skipped++;
  }
  return { total: parsed.data.total, papers, skipped };
}

function externalId(paper: UpstreamPaper, key: string): string | null {
  const value = paper.externalIds?.[key];
  return value === undefined || value === null || value === "" ? null : String(value);
}

/** An arXiv identifier: new style `2401.12345` (4 or 5 digits), or old style `cs.CL/0612345`, without version. */
const ARXIV_ID = /^(?:\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?\/\d{7})$/;

/** The paper's arXiv id when it is one; anything else (markup, a URL, an overlong string) is dropped. */
function arxivIdOf(paper: UpstreamPaper): string | null {
  const id = externalId(paper, "ArXiv")?.trim().replace(/v\d+$/, "") ?? null;
  return id !== null && ARXIV_ID.test(id) ? id : null;
}

/**
 * Normalize search results fetched at `ctx.now`; papers without a usable id or title are dropped, upstream order
 * kept. `publicationDate` is null unless it is a real day between 1990 and a day after the fetch (the paper is kept).
 */
export function normalizeSearch(parsed: SemanticScholarParsed, ctx: { now: Date; meta: ScholarMeta }): ScholarPaper[] {
  const out: ScholarPaper[] = [];
  for (const p of parsed.papers) {
    const paperId = p.paperId.toLowerCase();
    const title = sanitize(p.title ?? "", { maxLength: PAPER_TITLE_MAX });
    if (!/^[0-9a-f]{40}$/.test(paperId) || title === "") continue;
    const authors = (p.authors ?? []).map((a) => sanitize(a.name ?? "", { maxLength: 120 })).filter((n) => n !== "");
    const venue = sanitize(p.venue ?? "", { maxLength: 200 });
    const date = pastDay(p.publicationDate, ctx.now);
    const year = p.year !== null && p.year !== undefined && p.year >= 1900 && p.year <= 2100 ? p.year : null;
    out.push({
      paperId,
      title,
      year,
      publicationDate: date,
      venue: venue === "" ? null : venue,
      // No count is unknown, not zero: a search answered without citationCount must not rank papers as uncited.
      citationCount: p.citationCount ?? null,
      authors: authors.slice(0, PAPER_AUTHORS_MAX),
      authorCount: authors.length,
      url: `https://www.semanticscholar.org/paper/${paperId}`,
      arxivId: arxivIdOf(p),
      doi: externalId(p, "DOI"),
      queries: [ctx.meta.queryId],
    });
  }
  return out;
}

/** The Semantic Scholar paper search source. */
export const semanticScholar = {
  id: "semantic-scholar",
  description: "Semantic Scholar Graph API paper search (api.semanticscholar.org/graph/v1); shared unauthenticated pool ~1 req/s, optional x-api-key; five queries daily.",
  parse: parseSearch,
  normalize: normalizeSearch,
  row: scholarPaperSchema,
} satisfies Source<SemanticScholarParsed, ScholarPaper, ScholarMeta>;
