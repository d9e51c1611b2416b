/**
 * GET /api/premium/news/search: keyword search and filtered browse over the news snapshot
 * (api/verdicts/news-search.ts). Billing comes from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { DEFAULT_LIMIT, HALF_LIFE_DAYS, MAX_LIMIT, SNIPPET_WEIGHT, TITLE_WEIGHT, searchNews, type NewsSearch } from "../verdicts/news-search.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { newsSnapshotSchema, newsSnapshotType } from "../../pipelines/contract/snapshots/news.ts";

const day = (what: string) => z.iso.date().optional().meta({ description: `${what} UTC day of publication, YYYY-MM-DD, inclusive.` });

/** Query of GET /api/premium/news/search. */
export const NewsSearchQuery = z.strictObject({
  q: z.string().max(500).optional().meta({ description: "Search words; omit to browse newest first." }),
  from: day("First"),
  to: day("Last"),
  provider: z.string().max(200).optional().meta({ description: "Case-insensitive substring of the source name or domain." }),
  category: z.string().max(200).optional().meta({ description: "One of an article's categories, case-insensitive." }),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).meta({ description: `Results to return, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
});
export type NewsSearchQueryInput = z.infer<typeof NewsSearchQuery>;

const nullableText = z.string().nullable();

/** Body of GET /api/premium/news/search (the billing wrapper adds billing). */
export const NewsSearchResponse = z.strictObject({
  ok: z.literal(true),
  query: z.strictObject({
    q: nullableText,
    terms: z.array(z.string()).meta({ description: "Terms searched: lower-cased, stop words dropped." }),
    mode: z.enum(["search", "browse"]),
  }),
  filters: z.strictObject({ from: nullableText, to: nullableText, provider: nullableText, category: nullableText, limit: z.number().int() }),
  total_corpus: z.number().int().nonnegative().meta({ description: "Articles in the news snapshot." }),
  matched: z.number().int().nonnegative().meta({ description: "Articles passing the filters (and with a hit, when q is given)." }),
  returned: z.number().int().nonnegative(),
  results: z.array(
    z.strictObject({
      id: z.string(),
      title: z.string(),
      url: z.url(),
      source: z.string(),
      source_domain: z.string(),
      snippet: z.string(),
      categories: z.array(z.string()),
      published_at: z.iso.datetime(),
      fetched_at: z.iso.datetime().meta({ description: "When the service first saw the article (fetchedAt of the free news endpoints)." }),
      relevance: z.number().nonnegative(),
      matched_terms: z.array(z.string()),
    }),
  ),
});

/** Render GET /api/premium/news/search; ages are measured from the snapshot's last successful run. */
export function renderNewsSearch(ctx: RenderContext, query: NewsSearchQueryInput): NewsSearch {
  const snapshot = readSnapshot(ctx.snapshots, "news", newsSnapshotSchema);
  const reference = new Date(snapshot.meta.lastSuccess ?? snapshot.data.articles[0]?.publishedAt ?? `${snapshot.meta.date}T00:00:00.000Z`);
  return searchNews(snapshot.data, query, reference);
}

/** The premium news search route. */
export const premiumNewsSearchRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/news/search",
    tier: "premium",
    cost: 1,
    summary: "Search AI news by keywords with relevance ranking, or browse it, filtered by dates, provider and category.",
    description: [
      "Terms: q is NFKC-normalized, lower-cased, split on anything but Unicode letters and digits; English stop words dropped; repeats once. A q of stop words only is a 400 invalid_query; an empty q browses.",
      `relevance = ${TITLE_WEIGHT} × (terms found in the title) + ${SNIPPET_WEIGHT} × (terms found in the snippet) + 2^(−age_days/${HALF_LIFE_DAYS}); a term counts once per field, as a whole token; age is measured from the news snapshot's last successful run; rounded to 4 decimals.`,
      "With q, articles without a hit are excluded. Browse: relevance is the recency boost alone, newest first. Order: relevance desc, published_at desc, id asc.",
      "from / to: inclusive UTC days (from after to → 400 invalid_range). provider: case-insensitive substring of source name or domain. category: case-insensitive exact category.",
    ].join(" "),
    tags: ["premium", "news"],
    query: NewsSearchQuery,
    response: NewsSearchResponse,
    snapshots: ["news"],
    freshness: { cadence: newsSnapshotType.cadence, slaSeconds: newsSnapshotType.slaSeconds },
    example: "/api/premium/news/search?q=gemini&limit=10",
    answerMemo: true,
    render: (ctx, { query }) => renderNewsSearch(ctx, query),
  }),
];
