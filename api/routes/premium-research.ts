/**
 * The preprint analytics: GET /api/premium/research/milestones, /research/emerging-keywords, /research/topic-search
 * and /research/lab-productivity, over a year of the warehouse table preprints_daily (every preprint of the
 * daily cs.AI, cs.LG, cs.CL and cs.CV listings, classified when it was written: pipelines/lib/research/). Each
 * preprint counts once, as its newest row; its day is its first submission. Windows end on the newest captured
 * day. Rankings are the pure functions of api/verdicts/research.ts.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { BASELINE_DAYS, emergingKeywords, LAB_WINDOWS, labProductivity, MIN_RECENT_COUNT, RECENT_DAYS, SMOOTHING, TOP_KEYWORDS, type AffiliationCounts, type LabWindow } from "../verdicts/research.ts";
import { perVersion } from "../warehouse/per-version.ts";
import { addDays } from "../verdicts/history-range.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { warehouseOf } from "./premium-model-reads.ts";
import { calendarDay } from "./query-fields.ts";
import { papersPreprintRecentSnapshotType } from "../../pipelines/contract/snapshots/papers-preprint-recent.ts";
import { AFFILIATION_TYPES, METHODOLOGY_BUCKETS, SUBFIELD_TAGS } from "../../pipelines/contract/vocabularies/research.ts";

/** Where the preprints come from. */
export const RESEARCH_ATTRIBUTION = {
  source: "arXiv API (export.arxiv.org), newest submissions of cs.AI, cs.LG, cs.CL and cs.CV, read daily",
  classification: "deterministic rules of this service (pipelines/lib/research/classify.ts); each label carries the rule and phrases that chose it",
  measured: "npm run eval:research: precision and recall per label on 128 hand-labelled preprints",
  license: "arXiv metadata is CC0; abstracts remain their authors'",
};

const Attribution = z.strictObject({ source: z.string(), classification: z.string(), measured: z.string(), license: z.string() });
const list = (s: unknown) => (typeof s === "string" && s !== "" ? s.split("; ") : []);

/** The newest captured day of preprints_daily (the end of every window), or null when the table is empty. */
function anchorOf(warehouse: WarehouseReader): string | null {
  return warehouse.dates("preprints_daily").at(-1) ?? null;
}

/**
 * The newest row of each preprint first submitted in (from, to] (the `?` pair), read from the day files of that
 * range only: a preprint is listed on or after its first submission, so no earlier file can hold it.
 */
function latest(warehouse: WarehouseReader, from: string, to: string): string {
  const days = warehouse.dates("preprints_daily").filter((d) => d > from && d <= to);
  return `WITH p AS (SELECT * FROM ${warehouse.daysOf("preprints_daily", days)} WHERE published > CAST(? AS DATE) AND published <= CAST(? AS DATE)
  QUALIFY row_number() OVER (PARTITION BY preprint_id ORDER BY date DESC) = 1)`;
}

const paperFields = {
  preprint_id: z.string(),
  date: z.string().meta({ description: "Day of first submission (YYYY-MM-DD)." }),
  title: z.string(),
  subfield_tag: z.enum(SUBFIELD_TAGS),
  methodology_bucket: z.enum(METHODOLOGY_BUCKETS),
  affiliations: z.array(z.string()).meta({ description: "Author affiliations as arXiv lists them (empty when the authors gave none)." }),
  summary: z.string(),
};

/** Body of GET /api/premium/research/milestones. */
export const MilestonesResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable().meta({ description: "Newest captured day of the preprint table; null when it is empty." }),
  window_days: z.literal(RECENT_DAYS),
  total: z.int().nonnegative(),
  papers: z.array(z.strictObject({ ...paperFields, milestone_reasoning: z.string() })),
  attribution: Attribution,
});

/** Body of GET /api/premium/research/emerging-keywords. */
export const KeywordsResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable(),
  recent_window_days: z.literal(RECENT_DAYS),
  baseline_window_days: z.literal(BASELINE_DAYS),
  recent_papers: z.int().nonnegative(),
  baseline_papers: z.int().nonnegative(),
  total: z.int().nonnegative(),
  keywords: z.array(z.strictObject({ keyword: z.string(), recent_count: z.int(), baseline_count: z.int(), lift: z.number(), example_preprint_ids: z.array(z.string()) })),
  attribution: Attribution,
});

/** Query of GET /api/premium/research/topic-search. */
export const TopicSearchQuery = z.strictObject({
  subfield_tag: z.enum(SUBFIELD_TAGS).optional(),
  methodology_bucket: z.enum(METHODOLOGY_BUCKETS).optional(),
  since: calendarDay("since").optional().meta({ description: "First submission day from (inclusive); default a year before the newest captured day." }),
  until: calendarDay("until").optional().meta({ description: "First submission day to (inclusive); default the newest captured day." }),
  milestone_only: z.enum(["1", "0"]).default("0").meta({ description: "1: milestone candidates only." }),
  limit: z.coerce.number().int("limit is a whole number").min(1).max(100).default(25),
  offset: z.coerce.number().int("offset is a whole number").min(0).max(100_000).default(0),
});

/** Body of GET /api/premium/research/topic-search. */
export const TopicSearchResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable(),
  query: z.strictObject({ subfield_tag: z.string().nullable(), methodology_bucket: z.string().nullable(), since: z.string(), until: z.string(), milestone_only: z.boolean(), limit: z.int(), offset: z.int() }),
  total_matches: z.int().nonnegative(),
  returned: z.int().nonnegative(),
  papers: z.array(
    z.strictObject({
      ...paperFields,
      is_milestone_candidate: z.boolean(),
      subfield_rule: z.string().meta({ description: "The rule and the phrases that chose the subfield tag." }),
      methodology_rule: z.string().meta({ description: "The rule and the phrases that chose the methodology bucket." }),
    }),
  ),
  has_data: z.boolean().meta({ description: "False when the range holds no preprint at all; such a call is not charged." }),
  attribution: Attribution,
});

/** Query of GET /api/premium/research/lab-productivity. */
export const LabQuery = z.strictObject({
  window: z.enum(Object.keys(LAB_WINDOWS) as [LabWindow, ...LabWindow[]]).optional().meta({ description: "30d, 90d or 365d; omitted, all three." }),
  affiliation_type: z.enum(AFFILIATION_TYPES).optional().meta({ description: "Only affiliations of this type (mixed: affiliations of papers whose authors span several types)." }),
  limit: z.coerce.number().int("limit is a whole number").min(1).max(50).default(25),
});

/** Body of GET /api/premium/research/lab-productivity. */
export const LabResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable(),
  query: z.strictObject({ window: z.string().nullable(), affiliation_type: z.string().nullable(), limit: z.int() }),
  windows: z.record(z.string(), z.array(z.strictObject({ affiliation: z.string(), papers: z.int(), type: z.string() }))),
  has_data: z.boolean(),
  attribution: Attribution,
});

const paper = (r: Record<string, unknown>) => ({
  preprint_id: String(r["preprint_id"]),
  date: String(r["published"]),
  title: String(r["title"]),
  subfield_tag: r["subfield_tag"] as (typeof SUBFIELD_TAGS)[number],
  methodology_bucket: r["methodology_bucket"] as (typeof METHODOLOGY_BUCKETS)[number],
  affiliations: list(r["affiliations"]),
  summary: String(r["summary"]),
});

/** Render GET /api/premium/research/milestones. */
export async function renderMilestones(ctx: RenderContext): Promise<z.infer<typeof MilestonesResponse>> {
  const warehouse = warehouseOf(ctx);
  const anchor = anchorOf(warehouse);
  const base = { ok: true as const, capturedAt: anchor, window_days: RECENT_DAYS, attribution: RESEARCH_ATTRIBUTION };
  if (anchor === null) return { ...base, total: 0, papers: [] };
  // Once per warehouse version (the warmer computes it after a data change): a month of day files is read.
  const papers = await perVersion(warehouse, "research.milestones", async () => {
    const rows = await warehouse.query<Record<string, string | boolean | null>>(
      `${latest(warehouse, addDays(anchor, -RECENT_DAYS), anchor)} SELECT preprint_id, CAST(published AS VARCHAR) AS published, title, subfield_tag, methodology_bucket, affiliations, summary, milestone_reasoning FROM p WHERE milestone ORDER BY published DESC, preprint_id DESC`,
      [addDays(anchor, -RECENT_DAYS), anchor],
    );
    return rows.map((r) => ({ ...paper(r), milestone_reasoning: String(r["milestone_reasoning"] ?? "") }));
  });
  return { ...base, total: papers.length, papers };
}

/** Render GET /api/premium/research/emerging-keywords. */
export async function renderKeywords(ctx: RenderContext): Promise<z.infer<typeof KeywordsResponse>> {
  const warehouse = warehouseOf(ctx);
  const anchor = anchorOf(warehouse);
  const base = { ok: true as const, capturedAt: anchor, recent_window_days: RECENT_DAYS, baseline_window_days: BASELINE_DAYS, attribution: RESEARCH_ATTRIBUTION };
  if (anchor === null) return { ...base, recent_papers: 0, baseline_papers: 0, total: 0, keywords: [] };
  const cut = addDays(anchor, -RECENT_DAYS);
  const start = addDays(anchor, -(RECENT_DAYS + BASELINE_DAYS));
  const sql = `${latest(warehouse, start, anchor)},
  flags AS (SELECT preprint_id, published, keywords, published > CAST(? AS DATE) AS recent FROM p),
  k AS (SELECT preprint_id, published, recent, unnest(string_split(keywords, '|')) AS keyword FROM flags WHERE keywords <> ''),
  c AS (SELECT keyword, count(*) FILTER (WHERE recent) AS recent_count, count(*) FILTER (WHERE NOT recent) AS baseline_count,
    list(preprint_id ORDER BY published DESC, preprint_id DESC) FILTER (WHERE recent) AS examples
    FROM k GROUP BY keyword HAVING count(*) FILTER (WHERE recent) >= ${MIN_RECENT_COUNT} ORDER BY recent_count DESC, keyword LIMIT 5000)
  SELECT keyword, recent_count, baseline_count, array_to_string(examples[1:5], ',') AS examples,
    (SELECT count(*) FILTER (WHERE recent) FROM flags) AS recent_n, (SELECT count(*) FILTER (WHERE NOT recent) FROM flags) AS baseline_n
  FROM c UNION ALL SELECT NULL, NULL, NULL, NULL, (SELECT count(*) FILTER (WHERE recent) FROM flags), (SELECT count(*) FILTER (WHERE NOT recent) FROM flags)`;
  // Once per warehouse version (the warmer computes it after a data change): four months of keywords are counted.
  const rows = await perVersion(warehouse, "research.keywords", () => warehouse.query<Record<string, string | number | null>>(sql, [start, anchor, cut]));
  const totals = rows.find((r) => r["keyword"] === null)!;
  const recentN = Number(totals["recent_n"]);
  const baselineN = Number(totals["baseline_n"]);
  const counts = rows
    .filter((r) => r["keyword"] !== null)
    .map((r) => ({ keyword: String(r["keyword"]), recent_count: Number(r["recent_count"]), baseline_count: Number(r["baseline_count"]), examples: typeof r["examples"] === "string" && r["examples"] !== "" ? r["examples"].split(",") : [] }));
  const keywords = emergingKeywords(counts, recentN, baselineN, TOP_KEYWORDS);
  return { ...base, recent_papers: recentN, baseline_papers: baselineN, total: keywords.length, keywords };
}

/** One preprint of the year, as the topic search filters it (its text is read only for the page answered). */
interface IndexRow {
  id: string;
  published: string;
  /** The day file of its newest row. */
  date: string;
  subfield: string;
  methodology: string;
  milestone: boolean;
}

/** Every preprint of the year up to the anchor, newest first: once per warehouse version, a few MB. */
function preprintIndex(warehouse: WarehouseReader, anchor: string): Promise<IndexRow[]> {
  return perVersion(warehouse, "research.index", async () => {
    const rows = await warehouse.query<Record<string, string | boolean>>(
      `${latest(warehouse, addDays(anchor, -366), anchor)} SELECT preprint_id, CAST(published AS VARCHAR) AS published, CAST(date AS VARCHAR) AS date, subfield_tag, methodology_bucket, milestone FROM p ORDER BY published DESC, preprint_id DESC`,
      [addDays(anchor, -366), anchor],
    );
    // Days and labels repeat across a year of rows: one string each, shared.
    const shared = new Map<string, string>();
    const one = (v: unknown) => {
      const k = String(v);
      let hit = shared.get(k);
      if (hit === undefined) shared.set(k, (hit = k));
      return hit;
    };
    return rows.map((r) => ({ id: String(r["preprint_id"]), published: one(r["published"]), date: one(r["date"]), subfield: one(r["subfield_tag"]), methodology: one(r["methodology_bucket"]), milestone: r["milestone"] === true }));
  });
}

/** Render GET /api/premium/research/topic-search. */
export async function renderTopicSearch(ctx: RenderContext, q: z.infer<typeof TopicSearchQuery>): Promise<z.infer<typeof TopicSearchResponse>> {
  const warehouse = warehouseOf(ctx);
  const anchor = anchorOf(warehouse);
  const until = q.until ?? anchor ?? ctx.now.toISOString().slice(0, 10);
  const since = q.since ?? addDays(until, -365);
  if (since > until) throw new ApiError(400, "invalid_range", "since must not be after until");
  const milestoneOnly = q.milestone_only === "1";
  const echo = { subfield_tag: q.subfield_tag ?? null, methodology_bucket: q.methodology_bucket ?? null, since, until, milestone_only: milestoneOnly, limit: q.limit, offset: q.offset };
  const base = { ok: true as const, capturedAt: anchor, query: echo, attribution: RESEARCH_ATTRIBUTION };
  if (anchor === null) return { ...base, total_matches: 0, returned: 0, papers: [], has_data: false };
  const inRange = (await preprintIndex(warehouse, anchor)).filter((r) => r.published >= since && r.published <= until);
  const matches = inRange.filter((r) => (!q.subfield_tag || r.subfield === q.subfield_tag) && (!q.methodology_bucket || r.methodology === q.methodology_bucket) && (!milestoneOnly || r.milestone));
  const page = matches.slice(q.offset, q.offset + q.limit);
  let papers: z.infer<typeof TopicSearchResponse>["papers"] = [];
  if (page.length > 0) {
    // The page's text, from the day files of its rows only.
    const dates = [...new Set(page.map((r) => r.date))];
    const rows = await warehouse.query<Record<string, string | boolean | null>>(
      `SELECT preprint_id, CAST(date AS VARCHAR) AS date, CAST(published AS VARCHAR) AS published, title, subfield_tag, methodology_bucket, affiliations, summary, milestone, subfield_rule, methodology_rule
       FROM ${warehouse.daysOf("preprints_daily", dates)} WHERE preprint_id IN (${page.map(() => "?").join(", ")})`,
      page.map((r) => r.id),
    );
    const byKey = new Map(rows.map((r) => [`${r["preprint_id"]}@${r["date"]}`, r]));
    papers = page.flatMap((ix) => {
      const r = byKey.get(`${ix.id}@${ix.date}`);
      return r ? [{ ...paper(r), is_milestone_candidate: r["milestone"] === true, subfield_rule: String(r["subfield_rule"]), methodology_rule: String(r["methodology_rule"]) }] : [];
    });
  }
  return { ...base, total_matches: matches.length, returned: papers.length, papers, has_data: inRange.length > 0 };
}

/** Papers per affiliation and type in each window, and the same restricted to papers of mixed authorship. */
interface LabRow extends AffiliationCounts {
  mixed: Record<LabWindow, number>;
}

/** Render GET /api/premium/research/lab-productivity. */
export async function renderLabs(ctx: RenderContext, q: z.infer<typeof LabQuery>): Promise<z.infer<typeof LabResponse>> {
  const warehouse = warehouseOf(ctx);
  const anchor = anchorOf(warehouse);
  const windows = q.window ? [q.window] : (Object.keys(LAB_WINDOWS) as LabWindow[]);
  const base = { ok: true as const, capturedAt: anchor, query: { window: q.window ?? null, affiliation_type: q.affiliation_type ?? null, limit: q.limit }, attribution: RESEARCH_ATTRIBUTION };
  if (anchor === null) return { ...base, windows: Object.fromEntries(windows.map((w) => [w, []])), has_data: false };
  // Once per warehouse version (the warmer computes it after a data change): a year of affiliations is counted.
  const { rows, seen } = await perVersion(warehouse, "research.labs", async () => {
    // One row per (preprint, affiliation name, type): a preprint counts once per affiliation.
    const yearStart = addDays(anchor, -365);
    const year = latest(warehouse, yearStart, anchor);
    const sql = `${year},
    a AS (SELECT DISTINCT preprint_id, published, paper_type, trim(split_part(aff, ',', 1)) AS affiliation, type FROM (
      SELECT preprint_id, published, affiliation_type AS paper_type, unnest(string_split(affiliations, '; ')) AS aff, unnest(string_split(affiliation_types, '; ')) AS type FROM p WHERE affiliations <> ''))
    SELECT affiliation, type,
      count(*) FILTER (WHERE published > CAST(? AS DATE)) AS d30,
      count(*) FILTER (WHERE published > CAST(? AS DATE)) AS d90,
      count(*) AS d365,
      count(*) FILTER (WHERE published > CAST(? AS DATE) AND paper_type = 'mixed') AS m30,
      count(*) FILTER (WHERE published > CAST(? AS DATE) AND paper_type = 'mixed') AS m90,
      count(*) FILTER (WHERE paper_type = 'mixed') AS m365
    FROM a GROUP BY 1, 2`;
    const d30 = addDays(anchor, -30);
    const d90 = addDays(anchor, -90);
    const [counted, n] = await Promise.all([
      warehouse.query<Record<string, string | number>>(sql, [yearStart, anchor, d30, d90, d30, d90]),
      warehouse.query<Record<string, number>>(`${year} SELECT count(*) AS n FROM p`, [yearStart, anchor]),
    ]);
    const rows: LabRow[] = counted.map((r) => ({
      affiliation: String(r["affiliation"]),
      type: String(r["type"]),
      papers: { "30d": Number(r["d30"]), "90d": Number(r["d90"]), "365d": Number(r["d365"]) },
      mixed: { "30d": Number(r["m30"]), "90d": Number(r["m90"]), "365d": Number(r["m365"]) },
    }));
    return { rows, seen: Number(n[0]?.["n"] ?? 0) };
  });
  const t = q.affiliation_type;
  const selected: AffiliationCounts[] = t === undefined ? rows : t === "mixed" ? rows.map((r) => ({ ...r, papers: r.mixed })) : rows.filter((r) => r.type === t);
  return { ...base, windows: labProductivity(selected, windows, q.limit), has_data: seen > 0 };
}

const freshness = { cadence: `${papersPreprintRecentSnapshotType.cadence} (listings)`, slaSeconds: 8 * 24 * 60 * 60 };
const common = { tier: "premium" as const, cost: 1, answerMemo: true, snapshots: ["papers-preprint-recent"], freshness, errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" } };
const HOW = "Read from the warehouse table preprints_daily (a year of daily listings; each preprint once, its newest row; its day is its first submission); windows end on the newest captured day (capturedAt). Freshness SLA 8 days on the listing feed: older data is served and not charged.";

/** The four research routes. */
export const premiumResearchRoutes = [
  defineRoute({
    ...common,
    method: "GET",
    path: "/api/premium/research/milestones",
    summary: `Preprints of the last ${RECENT_DAYS} days flagged as milestone candidates, each with the rule that flagged it.`,
    description: [
      "A preprint is a milestone candidate when its title announces a technical report, model card or system card; when an author of a frontier lab (OpenAI, Anthropic, Google DeepMind, Meta, Microsoft, NVIDIA, Alibaba/Qwen, DeepSeek, Mistral …) introduces a model of a named family or a new model; or when it claims the state of the art and releases the work openly. milestone_reasoning states which, with the phrase.",
      HOW,
      "A window without any milestone candidate is answered (total 0) and not charged (no_milestones).",
    ].join(" "),
    tags: ["premium", "research"],
    response: MilestonesResponse,
    example: "/api/premium/research/milestones",
    noCharge: { outcomes: { no_milestones: "no milestone candidate in the window" }, check: (b) => (b.total === 0 ? "no_milestones" : null) },
    render: (ctx) => renderMilestones(ctx),
  }),
  defineRoute({
    ...common,
    method: "GET",
    path: "/api/premium/research/emerging-keywords",
    summary: `Up to ${TOP_KEYWORDS} terms whose share of preprints rose most: last ${RECENT_DAYS} days against the ${BASELINE_DAYS} days before.`,
    description: [
      "Terms are the distinct words (3+ characters, stopwords and generic ML vocabulary out) and adjacent word pairs of each preprint's title and abstract (pipelines/lib/research/keywords.ts).",
      `lift = (recent_count / recent_papers) / ((baseline_count + ${SMOOTHING}) / (baseline_papers + ${SMOOTHING})): the recent frequency over the smoothed baseline frequency, so a term never seen before has a finite lift. Only terms in at least ${MIN_RECENT_COUNT} recent preprints rank; a word pair is left out when one of its words ranks with the same counts. Sorted by lift, then recent_count, then keyword; 2-5 recent example preprint ids each. total is the number listed: ${TOP_KEYWORDS}, or fewer when fewer terms qualify (no term is listed to make up the count).`,
      HOW,
      "A recent window without preprints is answered (total 0) and not charged (no_preprints_in_window).",
    ].join(" "),
    tags: ["premium", "research"],
    response: KeywordsResponse,
    example: "/api/premium/research/emerging-keywords",
    noCharge: { outcomes: { no_preprints_in_window: "the recent window holds no preprint" }, check: (b) => (b.recent_papers === 0 ? "no_preprints_in_window" : null) },
    render: (ctx) => renderKeywords(ctx),
  }),
  defineRoute({
    ...common,
    method: "GET",
    path: "/api/premium/research/topic-search",
    summary: "Preprints by subfield tag, methodology bucket, submission range and milestone flag, newest first, with the rules behind their labels.",
    description: [
      `subfield_tag: ${SUBFIELD_TAGS.join(", ")}. methodology_bucket: ${METHODOLOGY_BUCKETS.join(", ")}.`,
      "Labels come from deterministic rules: phrases in the title (3 points) and abstract (1), the rule with most points wins, ties to the more specific rule; rules about language models need a language-model context. subfield_rule and methodology_rule name the rule and the phrases. Precision per label: npm run eval:research.",
      "since and until (YYYY-MM-DD, inclusive) bound the first-submission day; default the year up to the newest captured day; since after until is 400 invalid_range. Sorted by date descending, then id.",
      HOW,
      "A range that holds no preprint at all is answered with has_data false and not charged (no_data_in_range).",
    ].join(" "),
    tags: ["premium", "research"],
    query: TopicSearchQuery,
    response: TopicSearchResponse,
    example: "/api/premium/research/topic-search?subfield_tag=agents&limit=10",
    noCharge: { outcomes: { no_data_in_range: "the range holds no preprint at all (has_data false)" }, check: (b) => (b.has_data ? null : "no_data_in_range") },
    render: (ctx, { query }) => renderTopicSearch(ctx, query),
  }),
  defineRoute({
    ...common,
    method: "GET",
    path: "/api/premium/research/lab-productivity",
    summary: "Preprints per affiliation over the last 30, 90 and 365 days, with each affiliation's type.",
    description: [
      "Affiliations are those arXiv lists for the authors (arxiv:affiliation; many preprints give none and are not counted), named by their first comma-separated part; a preprint counts once per affiliation.",
      "type is industry, academia, government or nonprofit by a documented lexicon (pipelines/lib/research/classify.ts), unknown otherwise; affiliation_type filters on it, and mixed selects the affiliations of preprints whose authors span several types.",
      HOW,
      "A year without any preprint is answered with has_data false and not charged (no_data_in_range).",
    ].join(" "),
    tags: ["premium", "research"],
    query: LabQuery,
    response: LabResponse,
    example: "/api/premium/research/lab-productivity",
    noCharge: { outcomes: { no_data_in_range: "the last year holds no preprint (has_data false)" }, check: (b) => (b.has_data ? null : "no_data_in_range") },
    render: (ctx, { query }) => renderLabs(ctx, query),
  }),
];
