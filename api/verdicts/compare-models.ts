/**
 * Side-by-side comparison of 2 to 5 models: catalog facts (name, provider, tier, context, capabilities), the
 * served price and its 3:1 blend, the provider's live status, the union of benchmark keys (null where a model
 * has no score), recent news, and rankings by price, context and each benchmark. Ids not in the catalog come
 * back as `matched: false` entries.
 */
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { headlines, recentMentions, type Headline } from "./news-mentions.ts";
import { blended } from "./price.ts";

/** A catalog model as the comparison needs it. */
export interface CatalogModel {
  id: string;
  name: string;
  provider: string;
  tier: string;
  context_window: number;
  capabilities: string[];
}

export type LiveStatus = "operational" | "degraded" | "down" | "unknown";

/** What the verdict decides over. */
export interface CompareInput {
  /** The ids asked, deduplicated, in the caller's order. */
  ids: readonly string[];
  /** Catalog models by lower-case id. */
  catalog: ReadonlyMap<string, CatalogModel>;
  /** Served prices by model id (newest observation of the newest warehouse day). */
  prices: ReadonlyMap<string, { input: number; output: number }>;
  /** Benchmark scores of the compared models (newest warehouse day). */
  scores: readonly { model_id: string; benchmark: string; score: number }[];
  /** Provider id → live status. */
  status: ReadonlyMap<string, LiveStatus>;
  articles: readonly Article[];
  now: Date;
  as_of: { prices: string | null; benchmarks: string | null };
}

export interface ComparedModel {
  matched: boolean;
  id: string;
  name: string | null;
  provider: string | null;
  tier: string | null;
  pricing: { input: number; output: number; blended: number } | null;
  context_window: number | null;
  status: LiveStatus | null;
  benchmarks: Record<string, number | null>;
  capabilities: string[];
  recent_news_count: number;
  recent_news: Headline[];
}

export interface CompareVerdict {
  ok: true;
  benchmark_keys: string[];
  models: ComparedModel[];
  rankings: {
    cheapest_blended: { name: string; blended: number }[];
    most_context: { name: string; context_window: number }[];
    by_benchmark: Record<string, { name: string; score: number }[]>;
  };
  matched_count: number;
  as_of: { prices: string | null; benchmarks: string | null };
  notes: string[];
}

const byName = (a: { name: string }, b: { name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** Compare the models. */
export function compareModels(input: CompareInput): CompareVerdict {
  const matchedIds = input.ids.map((id) => input.catalog.get(id.toLowerCase())?.id).filter((id): id is string => id !== undefined);
  const wanted = new Set(matchedIds);
  const scores = new Map<string, Map<string, number>>();
  for (const s of input.scores) {
    if (!wanted.has(s.model_id)) continue;
    const m = scores.get(s.model_id) ?? new Map<string, number>();
    m.set(s.benchmark, s.score);
    scores.set(s.model_id, m);
  }
  const keys = [...new Set([...scores.values()].flatMap((m) => [...m.keys()]))].sort();
  const notes: string[] = [];
  const models: ComparedModel[] = input.ids.map((asked) => {
    const m = input.catalog.get(asked.toLowerCase());
    const benchmarks = Object.fromEntries(keys.map((k) => [k, m ? (scores.get(m.id)?.get(k) ?? null) : null]));
    if (!m) {
      return { matched: false, id: asked, name: null, provider: null, tier: null, pricing: null, context_window: null, status: null, benchmarks, capabilities: [], recent_news_count: 0, recent_news: [] };
    }
    const price = input.prices.get(m.id);
    if (!price) notes.push(`${m.id} has no price in the warehouse${input.as_of.prices ? ` on ${input.as_of.prices}` : ""}: pricing is null.`);
    const news = recentMentions(input.articles, [m.id, m.name], input.now);
    return {
      matched: true,
      id: m.id,
      name: m.name,
      provider: m.provider,
      tier: m.tier,
      pricing: price ? { input: price.input, output: price.output, blended: blended(price.input, price.output) } : null,
      context_window: m.context_window,
      status: input.status.get(m.provider) ?? "unknown",
      benchmarks,
      capabilities: [...m.capabilities].sort(),
      recent_news_count: news.length,
      recent_news: headlines(news),
    };
  });
  const matched = models.filter((m) => m.matched);
  const unmatched = models.filter((m) => !m.matched).map((m) => m.id);
  if (unmatched.length > 0) notes.push(`Not in the catalog (see /api/models): ${unmatched.join(", ")}.`);
  const named = (m: ComparedModel) => m.name ?? m.id;
  const by_benchmark: Record<string, { name: string; score: number }[]> = {};
  for (const k of keys) {
    by_benchmark[k] = matched
      .filter((m) => m.benchmarks[k] !== null)
      .map((m) => ({ name: named(m), score: m.benchmarks[k]! }))
      .sort((a, b) => b.score - a.score || byName(a, b));
  }
  return {
    ok: true,
    benchmark_keys: keys,
    models,
    rankings: {
      cheapest_blended: matched
        .filter((m) => m.pricing !== null)
        .map((m) => ({ name: named(m), blended: m.pricing!.blended }))
        .sort((a, b) => a.blended - b.blended || byName(a, b)),
      most_context: matched.map((m) => ({ name: named(m), context_window: m.context_window! })).sort((a, b) => b.context_window - a.context_window || byName(a, b)),
      by_benchmark,
    },
    matched_count: matched.length,
    as_of: input.as_of,
    notes,
  };
}
