/**
 * GET /api/premium/compare/models: 2 to 5 models side by side (api/verdicts/compare-models.ts). Prices and
 * benchmark scores come from the warehouse (model_prices, benchmark_scores; newest day each); the catalog facts
 * no table holds (name, tier, context window, capabilities), the providers' live status and the news come from
 * the latest pricing, status and news snapshots.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { compareModels, type CatalogModel, type CompareVerdict, type LiveStatus } from "../verdicts/compare-models.ts";
import { RECENT_NEWS_DAYS, RECENT_NEWS_TOP } from "../verdicts/news-mentions.ts";
import { newsSnapshotSchema } from "../../pipelines/contract/snapshots/news.ts";
import { PricingSnapshotSchema, type PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import { serviceStatus, statusSnapshot } from "../../pipelines/contract/snapshots/status.ts";
import { MAX_COMPARE_IDS, newestDay, readPrices, readScores } from "./premium-market-reads.ts";

/** Fewest ids per comparison. */
export const MIN_COMPARE_IDS = 2;
const ID = /^[\w.:/@+-]{1,100}$/;

/** Query of GET /api/premium/compare/models. */
export const CompareModelsQuery = z.strictObject({
  ids: z
    .string()
    .max(600, "ids is at most 600 characters")
    .transform((s) => s.split(",").map((id) => id.trim()).filter((id) => id.length > 0))
    .refine((ids) => ids.every((id) => ID.test(id)), "each id may hold 1-100 letters, digits and . _ : / @ + - only")
    .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, "ids must not repeat (case-insensitive)")
    .refine((ids) => ids.length >= MIN_COMPARE_IDS && ids.length <= MAX_COMPARE_IDS, `ids must list ${MIN_COMPARE_IDS} to ${MAX_COMPARE_IDS} model ids`)
    .meta({ description: `Comma-separated model ids as /api/models serves them, ${MIN_COMPARE_IDS} to ${MAX_COMPARE_IDS}, case-insensitive, no repeats, e.g. gpt-4o,claude-sonnet-4.` }),
});

const Headline = z.strictObject({ title: z.string(), url: z.string(), source: z.string(), published: z.string() });

/** Body of GET /api/premium/compare/models (the billing wrapper adds billing). */
export const CompareModelsResponse = z.strictObject({
  ok: z.literal(true),
  benchmark_keys: z.array(z.string()).meta({ description: "Union of the benchmarks any compared model has a score on, sorted." }),
  models: z.array(
    z.strictObject({
      matched: z.boolean().meta({ description: "False when the id is not in the catalog: every other figure is then null or empty." }),
      id: z.string(),
      name: z.string().nullable(),
      provider: z.string().nullable(),
      tier: z.string().nullable().meta({ description: "flagship, mid or small, as the catalog ranks the model within its provider." }),
      pricing: z
        .strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative(), blended: z.number().nonnegative().meta({ description: "(3 × input + output) / 4, 4 decimals." }) })
        .nullable()
        .meta({ description: "USD per 1M tokens; null when the warehouse holds no price for the model." }),
      context_window: z.number().int().positive().nullable(),
      status: serviceStatus.nullable().meta({ description: "The provider's live status page state (unknown when its page is not tracked)." }),
      benchmarks: z.record(z.string(), z.number().nullable()).meta({ description: "Every key of benchmark_keys; null where the model has no score." }),
      capabilities: z.array(z.string()),
      recent_news_count: z.number().int().nonnegative(),
      recent_news: z.array(Headline).max(RECENT_NEWS_TOP),
    }),
  ),
  rankings: z.strictObject({
    cheapest_blended: z.array(z.strictObject({ name: z.string(), blended: z.number().nonnegative() })),
    most_context: z.array(z.strictObject({ name: z.string(), context_window: z.number().int().positive() })),
    by_benchmark: z.record(z.string(), z.array(z.strictObject({ name: z.string(), score: z.number() }))),
  }),
  matched_count: z.number().int().nonnegative(),
  as_of: z.strictObject({ prices: z.string().nullable(), benchmarks: z.string().nullable() }).meta({ description: "The warehouse days read." }),
  notes: z.array(z.string()),
});

function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** lower-case id → catalog model, from the pricing snapshot. */
function catalogOf(pricing: PricingSnapshot): Map<string, CatalogModel> {
  const out = new Map<string, CatalogModel>();
  for (const p of pricing.providers) {
    for (const m of p.models) out.set(m.id.toLowerCase(), { id: m.id, name: m.name, provider: m.provider, tier: m.tier, context_window: m.contextWindow, capabilities: m.capabilities });
  }
  return out;
}

/** Render GET /api/premium/compare/models. */
export async function renderCompareModels(ctx: RenderContext, query: z.infer<typeof CompareModelsQuery>): Promise<CompareVerdict> {
  const warehouse = warehouseOf(ctx);
  const catalog = catalogOf(readSnapshot(ctx.snapshots, "pricing", PricingSnapshotSchema).data);
  const status = new Map<string, LiveStatus>(readSnapshot(ctx.snapshots, "status", statusSnapshot).data.services.map((s) => [s.provider, s.status]));
  const articles = readSnapshot(ctx.snapshots, "news", newsSnapshotSchema).data.articles;
  const today = ctx.now.toISOString().slice(0, 10);
  const ids = query.ids.map((id) => catalog.get(id.toLowerCase())?.id).filter((id): id is string => id !== undefined);
  const priceDay = newestDay(warehouse, "model_prices", today);
  const scoreDay = newestDay(warehouse, "benchmark_scores", today);
  const [prices, scores] = await Promise.all([
    priceDay && ids.length > 0 ? readPrices(warehouse, priceDay, ids) : new Map<string, { input: number; output: number }>(),
    scoreDay && ids.length > 0 ? readScores(warehouse, scoreDay, ids) : [],
  ]);
  return compareModels({ ids: query.ids, catalog, prices, scores, status, articles, now: ctx.now, as_of: { prices: priceDay, benchmarks: scoreDay } });
}

/** The premium model comparison route. */
export const premiumCompareRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/compare/models",
    tier: "premium",
    cost: 1,
    summary: "Compare 2 to 5 models side by side: price, context, tier, capabilities, live status, every benchmark any of them has, recent news, and rankings.",
    description: [
      `ids: ${MIN_COMPARE_IDS} to ${MAX_COMPARE_IDS} comma-separated model ids (case-insensitive, no repeats); fewer, more or repeated ids are 400 invalid_query after payment, not charged.`,
      "Prices: warehouse table model_prices, newest day on or before today, the newest observation among the sources (curated on a tie); blended = (3 × input + output) / 4. Benchmarks: warehouse table benchmark_scores, newest day; benchmark_keys is the union of the compared models' benchmarks, null where a model lacks one.",
      "Name, provider, tier, context window and capabilities: the pricing snapshot (the catalog; no table holds them). status: the provider's status page in the latest status snapshot, unknown when untracked.",
      `recent_news: articles published since 00:00 UTC ${RECENT_NEWS_DAYS} days before today in the news snapshot whose title or snippet names the model (its id or name as a whole phrase, case-insensitive), newest first, top ${RECENT_NEWS_TOP}; recent_news_count counts them all.`,
      "Rankings over the matched models: cheapest_blended ascending, most_context descending, by_benchmark descending per key (models without the score left out); ties by name.",
      "An id not in the catalog is answered as { matched: false, id } with null figures. When no id matches, the call is answered 200 and not charged (no_model_matched); so is any call while the pricing, benchmarks, status or news snapshot is older than 2 days.",
    ].join(" "),
    tags: ["premium", "models"],
    query: CompareModelsQuery,
    response: CompareModelsResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["pricing", "benchmarks", "status", "news"],
    freshness: { cadence: "hourly (prices), daily (benchmarks), every 2 minutes (status), every 10 minutes (news)", slaSeconds: 2 * 86_400 },
    example: "/api/premium/compare/models?ids=gpt-4o,claude-3.5-sonnet,gemini-2.0-flash",
    answerMemo: true,
    noCharge: {
      outcomes: { no_model_matched: "none of the ids is in the catalog (every entry has matched false)" },
      check: (body) => (body.matched_count === 0 ? "no_model_matched" : null),
    },
    render: (ctx, { query }) => renderCompareModels(ctx, query),
  }),
];
