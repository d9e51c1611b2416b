/**
 * Compact views for agents with small context budgets: /api/agents/news (the newest headlines),
 * /api/agents/pricing (one flat line per model) and /api/agents/activity (requests from known AI agents and
 * crawlers, counted by this server).
 */
import { z } from "zod";
import { serverActivity, type ActivityTracker } from "../activity/tracker.ts";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import type { NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import { blended } from "../verdicts/price.ts";

/** Headlines in /api/agents/news. */
export const COMPACT_NEWS_COUNT = 20;

export const CompactNewsResponse = z.strictObject({
  ok: z.literal(true),
  updated: z.string().nullable().meta({ description: "last successful news run (manifest lastSuccess)" }),
  count: z.number().int().nonnegative(),
  items: z.array(
    z.strictObject({
      title: z.string(),
      url: z.url(),
      source: z.string(),
      published: z.string(),
    }),
  ),
  full: z.string().meta({ description: "where the full articles are" }),
});

export const CompactPricingResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.iso.date().meta({ description: "UTC day of the newest price observation served (each model's own is observed_at)" }),
  unit: z.literal("USD per 1M tokens"),
  count: z.number().int().nonnegative(),
  models: z.array(
    z.strictObject({
      id: z.string(),
      provider: z.string(),
      input: z.number().nonnegative(),
      output: z.number().nonnegative(),
      blended: z.number().nonnegative().meta({ description: "3:1 input:output blend, rounded to 4 decimals" }),
      context: z.number().int().positive(),
      source: z.enum(["curated", "aggregator"]).meta({ description: "where the served price comes from (see /api/models priceObservations)" }),
      observed_at: z.string().meta({ description: "when that source stated the price (ISO 8601)" }),
    }),
  ),
  full: z.string(),
});

export const ActivityResponse = z.strictObject({
  ok: z.literal(true),
  today_count: z.number().int().nonnegative(),
  day: z.iso.date(),
  last_updated: z.string().nullable(),
  by_bot: z.record(z.string(), z.number().int().positive()),
  verified_count: z.number().int().nonnegative().meta({ description: "of today_count, requests from an address inside the bot's published ranges" }),
  recent: z.array(
    z.strictObject({
      bot: z.string().meta({ description: "product token from the fixed list in api/activity/known-bots.ts" }),
      endpoint: z.string().meta({ description: "route template that answered (never the raw request path)" }),
      timestamp: z.string(),
      verified: z.boolean().meta({ description: "false: the bot name is only claimed by the User-Agent" }),
    }),
  ),
  verification: z.strictObject({
    method: z.string(),
    verified_bots: z.array(z.string()),
    sources: z.record(z.string(), z.strictObject({ source: z.string(), fetched: z.string() })),
    published_range_files: z.record(z.string(), z.string()),
  }),
  scope: z.string(),
});

/** Pure render of /api/agents/news. */
export function renderCompactNews(ctx: RenderContext): z.infer<typeof CompactNewsResponse> {
  const news = readSnapshot<NewsSnapshot>(ctx.snapshots, "news");
  const items = news.data.articles.slice(0, COMPACT_NEWS_COUNT).map((a) => ({
    title: a.title,
    url: a.url,
    source: a.source,
    published: a.publishedAt,
  }));
  return { ok: true, updated: news.meta.lastSuccess, count: items.length, items, full: `${ctx.baseUrl}/api/news` };
}

/** Pure render of /api/agents/pricing: every model, cheapest blended first. */
export function renderCompactPricing(ctx: RenderContext): z.infer<typeof CompactPricingResponse> {
  const pricing = readSnapshot<PricingSnapshot>(ctx.snapshots, "pricing");
  const models = pricing.data.providers
    .flatMap((p) => p.models)
    .map((m) => ({
      id: m.id,
      provider: m.provider,
      input: m.inputCostPer1M,
      output: m.outputCostPer1M,
      blended: blended(m.inputCostPer1M, m.outputCostPer1M),
      context: m.contextWindow,
      source: m.priceServed,
      observed_at: m.priceObservedAt,
    }))
    .sort((a, b) => a.blended - b.blended || (a.id < b.id ? -1 : 1));
  const newest = models.reduce((max, m) => (m.observed_at > max ? m.observed_at : max), "");
  return {
    ok: true,
    lastUpdated: newest ? newest.slice(0, 10) : pricing.data.lastUpdated,
    unit: "USD per 1M tokens",
    count: models.length,
    models,
    full: `${ctx.baseUrl}/api/models`,
  };
}

/** Render of /api/agents/activity from a tracker. */
export function renderActivity(tracker: ActivityTracker, now: Date): z.infer<typeof ActivityResponse> {
  return {
    ok: true,
    ...tracker.report(now),
    scope: "answered requests (status below 400) to this server whose User-Agent names a known AI agent or crawler, since the process started, recorded by route template; today_count and by_bot cover the current UTC day",
  };
}

/** The three compact agent views. */
export const agentsCompactRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/agents/news",
    tier: "free",
    summary: "Compact news: the 20 newest headlines with URL, source and publication time.",
    description: "The same articles as /api/news (deduplicated, sanitized), reduced to title, url, source and published for small context budgets.",
    tags: ["news", "agents"],
    response: CompactNewsResponse,
    snapshots: ["news"],
    freshness: { cadence: "every 10 minutes", slaSeconds: 1800 },
    render: (ctx) => renderCompactNews(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/api/agents/pricing",
    tier: "free",
    summary: "Compact pricing: one line per model with input, output and blended USD per 1M tokens and context, cheapest first.",
    description: "Flattened from /api/models. blended is (3 × input + output) / 4, the usual 3:1 chat mix, rounded to 4 decimals; sorted by blended, then id. source and observed_at say where each price comes from (curated catalog or aggregator) and when it was stated; lastUpdated is the day of the newest.",
    tags: ["models", "agents"],
    response: CompactPricingResponse,
    snapshots: ["pricing"],
    freshness: { cadence: "hourly", slaSeconds: 7200 },
    render: (ctx) => renderCompactPricing(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/api/agents/activity",
    tier: "free",
    summary: "Requests from known AI agents and crawlers seen by this server today, and the 50 most recent.",
    description:
      "Counted by the server itself from User-Agent product tokens of documented AI crawlers and agents (GPTBot, ChatGPT-User, ClaudeBot, PerplexityBot, …; list in api/activity/known-bots.ts). In memory per process: a restart starts from zero, and several instances count separately. Only answered requests (status below 400) count, recorded by the route template that answered, never the raw path. verified is true only when the client address lies in the ranges the bot's operator publishes (loaded from CRAWLER_RANGES_FILE); otherwise the bot name is claimed by User-Agent only.",
    tags: ["agents"],
    response: ActivityResponse,
    handle: (ctx) => renderActivity(serverActivity, ctx.now),
  }),
];
