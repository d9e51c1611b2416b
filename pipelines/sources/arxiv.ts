/**
 * arXiv API — `GET https://export.arxiv.org/api/query` (docs: https://info.arxiv.org/help/api/user-manual.html),
 * answering Atom 1.0 with the opensearch and arxiv namespaces.
 * Rate limit: arXiv asks for no more than one request every 3 seconds, one connection at a time; the
 * papers-preprint-recent feed sends its four category queries in sequence, spaced 3 s apart, once a day.
 * Awkward answers handled here: an error feed (one entry titled "Error" whose id is an
 * `arxiv.org/api/errors#…` URL) throws ArxivApiError; an empty result (opensearch:totalResults 0) parses to no
 * entries; a truncated or otherwise malformed body throws ArxivParseError.
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { z } from "zod";
import { sanitize } from "../lib/sanitize.ts";
import type { Source } from "../lib/types.ts";
import { parseDate } from "./rss.ts";
import { type Preprint, PREPRINT_AFFILIATIONS_MAX, PREPRINT_AUTHORS_MAX, PREPRINT_SUMMARY_MAX, PREPRINT_TITLE_MAX, preprintSchema } from "../contract/snapshots/papers-preprint-recent.ts";

export { type Preprint, PREPRINT_AUTHORS_MAX, PREPRINT_SUMMARY_MAX, PREPRINT_TITLE_MAX, preprintSchema } from "../contract/snapshots/papers-preprint-recent.ts";

/** The query endpoint. */
export const ARXIV_QUERY_URL = "https://export.arxiv.org/api/query";
/** Results asked for per category query. */
export const ARXIV_MAX_RESULTS = 50;

/** The newest-first listing URL of one arXiv category. */
export function arxivCategoryUrl(category: string): string {
  return `${ARXIV_QUERY_URL}?search_query=cat:${category}&sortBy=submittedDate&sortOrder=descending&max_results=${ARXIV_MAX_RESULTS}`;
}

/** Thrown when a body is not a readable Atom feed (truncated, HTML, …). */
export class ArxivParseError extends Error {
  override name = "ArxivParseError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Thrown when arXiv answers with its error feed; `detail` is the error entry's summary. */
export class ArxivApiError extends Error {
  override name = "ArxivApiError";
  constructor(readonly detail: string) {
    super(`arxiv: the API answered with an error feed: ${detail}`);
  }
}

/** One Atom entry reduced to the fields we use, still raw (not sanitized). */
export interface ArxivRawEntry {
  id: string;
  title: string;
  summary: string;
  published: string;
  updated: string;
  authors: string[];
  /** `arxiv:affiliation` of the authors, in order (an author may list several; most list none). */
  affiliations: string[];
  categories: string[];
  /** `arxiv:primary_category`, when it has the form of an arXiv category (see ARXIV_CATEGORY). */
  primaryCategory?: string;
  /** `arxiv:doi`, when it has the syntax of a DOI (see DOI). */
  doi?: string;
}

export interface ArxivParsed {
  /** opensearch:totalResults (0 for an empty result). */
  totalResults: number;
  entries: ArxivRawEntry[];
  /** Entries without an abs id or a title. */
  skipped: number;
}

/** Which category listing a body answers. */
export interface ArxivMeta {
  category: string;
}

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  textNodeName: "#text",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ["entry", "author", "category", "link", "arxiv:affiliation"].includes(name),
});

const node = z.unknown();
const AtomEntry = z.looseObject({
  id: node.optional(),
  title: node.optional(),
  summary: node.optional(),
  published: node.optional(),
  updated: node.optional(),
  author: z.array(z.looseObject({ name: node.optional(), "arxiv:affiliation": z.array(node).optional() })).optional(),
  category: z.array(node).optional(),
  "arxiv:primary_category": node.optional(),
  "arxiv:doi": node.optional(),
});
const AtomFeed = z.looseObject({
  feed: z.looseObject({
    "opensearch:totalResults": node.optional(),
    entry: z.array(AtomEntry).default([]),
  }),
});

/** Text of an XML node (a string, or `#text` of an element with attributes). */
function text(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string" || typeof value === "number") return String(value);
  if (typeof value === "object" && !Array.isArray(value) && "#text" in value) return text((value as Record<string, unknown>)["#text"]);
  return "";
}

function attr(value: unknown, name: string): string | undefined {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const v = (value as Record<string, unknown>)[`@_${name}`];
    return typeof v === "string" ? v : undefined;
  }
  return undefined;
}

const ERROR_ID = /arxiv\.org\/api\/errors/i;

/**
 * An arXiv category as the API names it: an archive (`cs`, `math`, `hep-th`, `q-bio`, `cond-mat`), optionally
 * a subject class, two capitals or a hyphenated lowercase word (`cs.AI`, `stat.ML`, `physics.comp-ph`,
 * `cond-mat.mes-hall`). The term is an attribute we store and link by, so markup or prose in it is not a category.
 */
export const ARXIV_CATEGORY = /^[a-z]+(?:-[a-z]+)?(?:\.(?:[A-Z]{2}|[a-z]+(?:-[a-z]+)?))?$/;
const ARXIV_CATEGORY_MAX = 40;

/**
 * A DOI (`10.<registrant>/<suffix>`, the Crossref syntax): 4–9 digit registrant, a suffix of visible ASCII without
 * spaces (old SICI DOIs carry `<`, `>`, `;`, so those stay), at most 200 characters in all.
 */
export const DOI = /^10\.\d{4,9}\/[\x21-\x7e]+$/;
const DOI_MAX = 200;

/** `term` when it has the form of an arXiv category, else undefined. */
export function arxivCategory(term: string | undefined): string | undefined {
  const t = term?.trim();
  return t && t.length <= ARXIV_CATEGORY_MAX && ARXIV_CATEGORY.test(t) ? t : undefined;
}

/** `value` when it has the syntax of a DOI, else undefined. */
export function doiOf(value: string): string | undefined {
  const v = value.trim();
  return v.length <= DOI_MAX && DOI.test(v) ? v : undefined;
}

/** Parse an arXiv API Atom body; throws ArxivApiError for an error feed and ArxivParseError for a bad body. */
export function parseArxiv(body: string): ArxivParsed {
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    throw new ArxivParseError(`arxiv: body is not well-formed XML (${msg} at line ${line}, column ${col}); it is ${body.length} characters long`);
  }
  const parsed = AtomFeed.safeParse(xml.parse(body));
  if (!parsed.success) {
    throw new ArxivParseError(`arxiv: body is not an Atom feed; it starts ${JSON.stringify(body.slice(0, 80))}`, { cause: parsed.error });
  }
  const { feed } = parsed.data;
  const errorEntry = feed.entry.find((e) => ERROR_ID.test(text(e.id)));
  if (errorEntry) throw new ArxivApiError(text(errorEntry.summary) || text(errorEntry.id));

  const totalText = text(feed["opensearch:totalResults"]);
  const totalResults = /^\d+$/.test(totalText) ? Number(totalText) : feed.entry.length;
  const entries: ArxivRawEntry[] = [];
  let skipped = 0;
  for (const e of feed.entry) {
    const id = text(e.id);
    const title = text(e.title);
    if (!/arxiv\.org\/abs\//i.test(id) || title === "") {
      skipped++;
      continue;
    }
    // Both are kept only in their own syntax: an entry with a malformed one loses that field, not the entry
    // (the primary category then falls back on the listed categories in normalize).
    const primary = arxivCategory(attr(e["arxiv:primary_category"], "term"));
    const doi = doiOf(text(e["arxiv:doi"]));
    entries.push({
      id,
      title,
      summary: text(e.summary),
      published: text(e.published),
      updated: text(e.updated),
      authors: (e.author ?? []).map((a) => text(a.name)).filter((n) => n !== ""),
      affiliations: (e.author ?? []).flatMap((a) => (a["arxiv:affiliation"] ?? []).map(text)).filter((n) => n !== ""),
      categories: (e.category ?? []).map((c) => attr(c, "term") ?? "").filter((c) => c !== ""),
      ...(primary ? { primaryCategory: primary } : {}),
      ...(doi ? { doi } : {}),
    });
  }
  return { totalResults, entries, skipped };
}

/** Split an abs URL (`http://arxiv.org/abs/2611.01234v2`) into the bare id and its version (1 when absent). */
export function splitArxivId(absUrl: string): { id: string; version: number } | undefined {
  const m = /arxiv\.org\/abs\/(.+?)(?:v(\d+))?$/i.exec(absUrl.trim());
  if (!m) return undefined;
  const id = m[1]!;
  if (!/^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})$/.test(id)) return undefined;
  return { id, version: m[2] ? Number(m[2]) : 1 };
}

/**
 * Normalize entries fetched at `ctx.now` to preprints; entries without a usable id, title or `published` date are
 * dropped (a date is usable between 1990 and a day after the fetch time); an unusable `updated` falls back to
 * `published`.
 */
export function normalizeArxiv(parsed: ArxivParsed, ctx: { now: Date; meta: ArxivMeta }): Preprint[] {
  const out: Preprint[] = [];
  for (const e of parsed.entries) {
    const split = splitArxivId(e.id);
    const title = sanitize(e.title, { maxLength: PREPRINT_TITLE_MAX });
    const publishedAt = parseDate(e.published, ctx.now);
    if (!split || title === "" || !publishedAt) continue;
    const authors = e.authors.map((a) => sanitize(a, { maxLength: 120 })).filter((a) => a !== "");
    const categories = [...new Set(e.categories)];
    // parse() kept primaryCategory and doi only in their own syntax; the listed categories are not checked there.
    const primaryCategory = e.primaryCategory ?? categories.find((c) => arxivCategory(c) !== undefined) ?? ctx.meta.category;
    const versioned = `${split.id}v${split.version}`;
    out.push({
      id: split.id,
      version: split.version,
      title,
      summary: sanitize(e.summary, { maxLength: PREPRINT_SUMMARY_MAX }),
      authors: authors.slice(0, PREPRINT_AUTHORS_MAX),
      authorCount: authors.length,
      affiliations: [...new Set(e.affiliations.map((a) => sanitize(a, { maxLength: 200 })).filter((a) => a !== ""))].slice(0, PREPRINT_AFFILIATIONS_MAX),
      primaryCategory,
      categories: categories.length > 0 ? categories : [primaryCategory],
      publishedAt,
      updatedAt: parseDate(e.updated, ctx.now) ?? publishedAt,
      url: `https://arxiv.org/abs/${versioned}`,
      pdfUrl: `https://arxiv.org/pdf/${versioned}`,
      doi: e.doi ?? null,
      listedIn: [ctx.meta.category],
    });
  }
  return out;
}

/** The arXiv API source. */
export const arxiv = {
  id: "arxiv",
  description: "arXiv API (export.arxiv.org/api/query, Atom); at most one request every 3 s; four category listings daily.",
  parse: parseArxiv,
  normalize: normalizeArxiv,
  row: preprintSchema,
} satisfies Source<ArxivParsed, Preprint, ArxivMeta>;
