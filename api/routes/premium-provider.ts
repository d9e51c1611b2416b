/**
 * GET /api/premium/providers/{name}: one AI provider's profile (api/verdicts/provider-profile.ts) from the
 * pricing, status, probe and news snapshots, the newest benchmark scores of the warehouse, and this server's
 * own agent-activity tracker (read as /api/agents/activity reads it).
 */
import { z } from "zod";
import { newsSnapshotSchema, type NewsSnapshot } from "../../pipelines/contract/snapshots/news.ts";
import { PricingSnapshotSchema, type PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import type { ProbeSnapshot } from "../../pipelines/contract/snapshots/probe.ts";
import { statusSnapshot, type StatusSnapshot } from "../../pipelines/contract/snapshots/status.ts";
import { resolveProviderName } from "../../pipelines/contract/vocabularies/provider-aliases.ts";
import { KNOWN_BOTS } from "../activity/known-bots.ts";
import { serverActivity } from "../activity/tracker.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { readOptionalSnapshot, readSnapshot } from "../serve/read-snapshot.ts";
import { NEWS_LIMIT, providerProfile, type ProviderProfile } from "../verdicts/provider-profile.ts";
import { readLatestScores } from "./premium-provider-reads.ts";

/** Path parameters of GET /api/premium/providers/{name}. */
export const ProviderParams = z.strictObject({
  name: z
    .string()
    .trim()
    .min(1, "name is required")
    .max(60, "name is at most 60 characters")
    .regex(/^[\w .+-]+$/, "name may hold letters, digits, spaces and . _ + - only")
    .meta({ description: "Provider id as in /api/status, /api/probe or /api/models (openai, anthropic, google …), case-insensitive; other names (Claude, Gemini, x.ai …) resolve through the alias table." }),
});

const usd = z.number().nonnegative();

/** Body of GET /api/premium/providers/{name} (the billing wrapper adds billing and receipt). */
export const ProviderResponse = z.strictObject({
  ok: z.literal(true),
  provider: z.strictObject({
    id: z.string(),
    name: z.string(),
    url: z.string().nullable().meta({ description: "The provider's site from the model catalog; null when the catalog lists none of its models." }),
  }),
  status: z.strictObject({
    state: z.enum(["operational", "degraded", "down", "unknown"]).meta({ description: "Overall status-page state; unknown when the page is not tracked." }),
    status_page_url: z.string().nullable(),
    last_checked: z.string().nullable().meta({ description: "Last successful status run (manifest lastSuccess); null when the page is not tracked." }),
    components: z.array(z.strictObject({ name: z.string(), status: z.enum(["operational", "degraded", "down", "unknown"]) })),
  }),
  models: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      tier: z.string().meta({ description: "flagship | mid | small." }),
      pricing: z.strictObject({ input: usd, output: usd, blended: usd, currency: z.literal("USD"), unit: z.literal("per 1M tokens") }).meta({ description: "List prices; blended is the 3:1 input:output mix." }),
      context_window: z.number().int().positive(),
      released: z.string(),
      capabilities: z.array(z.string()),
      benchmark_scores: z.record(z.string(), z.number()).meta({ description: "Benchmark id → score, from the newest day of the warehouse table benchmark_scores; empty when none." }),
    }),
  ),
  recent_news: z.array(z.strictObject({ title: z.string(), url: z.string(), published_at: z.string() })).meta({ description: `The ${NEWS_LIMIT} newest matching articles of the news snapshot.` }),
  recent_news_count: z.number().int().nonnegative().meta({ description: "Every matching article of the news snapshot." }),
  agent_traffic_24h: z.strictObject({
    requests: z.number().int().nonnegative().meta({ description: "Requests this server answered today from the provider's bots." }),
    by_bot: z.record(z.string(), z.number().int().positive()),
    day: z.string().meta({ description: "The UTC day counted (at most the last 24 h)." }),
    operator_bots: z.array(z.string()).meta({ description: "Bot tokens the provider operates (api/activity/known-bots.ts); empty when it operates none of them." }),
  }),
});

/** Render GET /api/premium/providers/{name}. */
export async function renderProvider(ctx: RenderContext, params: z.infer<typeof ProviderParams>): Promise<ProviderProfile> {
  const pricing = readSnapshot<PricingSnapshot>(ctx.snapshots, "pricing", PricingSnapshotSchema).data;
  const statusLoaded = readSnapshot<StatusSnapshot>(ctx.snapshots, "status", statusSnapshot);
  const news = readSnapshot<NewsSnapshot>(ctx.snapshots, "news", newsSnapshotSchema).data;
  const probe = readOptionalSnapshot<ProbeSnapshot>(ctx.snapshots, "probe")?.data;
  const known = [...new Set([...pricing.providers.map((p) => p.id), ...statusLoaded.data.services.map((s) => s.provider), ...(probe?.providers ?? []).map((p) => p.provider)])].sort();
  const id = resolveProviderName(params.name, known);
  if (id === undefined || !known.includes(id)) {
    throw new ApiError(404, "unknown_provider", `provider ${JSON.stringify(params.name)} is not tracked; see /api/status and /api/models`, { known });
  }
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  const scores = await readLatestScores(ctx.warehouse);
  const activity = serverActivity.report(ctx.now);
  const probed = probe?.providers.find((p) => p.provider === id);
  return providerProfile({
    id,
    pricing: pricing.providers.find((p) => p.id === id),
    status: statusLoaded.data.services.find((s) => s.provider === id),
    statusCheckedAt: statusLoaded.meta.lastSuccess,
    probe: probed ? { name: probed.name, url: probed.url } : undefined,
    scores,
    articles: news.articles,
    activity: { day: activity.day, by_bot: activity.by_bot },
    bots: KNOWN_BOTS,
  });
}

/** The provider profile route. */
export const premiumProviderRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/providers/:name",
    tier: "premium",
    cost: 1,
    summary: "One AI provider's profile: status page with components, models with prices and benchmark scores, recent news, and today's traffic from its AI agents and crawlers.",
    description: [
      "The provider is any id of the model catalog, the status pages or the probes (case-insensitive; other names resolve through pipelines/contract/vocabularies/provider-aliases.ts); anything else is 404 unknown_provider (not charged).",
      "Read from snapshots, since no warehouse table holds them: name, site, models (name, tier, capabilities, release date, prices: pricing), status-page components (status), news articles (news). Benchmark scores come from the newest day of the warehouse table benchmark_scores.",
      `News: articles of the news snapshot naming the provider (its names and aliases of 3+ characters as whole words, case-sensitive, in title or snippet) or published on its domains, newest first; ${NEWS_LIMIT} shown, recent_news_count counts all.`,
      "agent_traffic_24h: requests this server answered (status below 400) during the current UTC day from the bots the provider operates (api/activity/known-bots.ts), as /api/agents/activity counts them: in memory per process, since its start. Models sort flagship, mid, small, then newest first.",
    ].join(" "),
    tags: ["premium", "providers"],
    params: ProviderParams,
    response: ProviderResponse,
    errors: { 404: "the provider is not tracked (unknown_provider)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["pricing", "status", "news"],
    example: "/api/premium/providers/anthropic",
    render: (ctx, { params }) => renderProvider(ctx, params),
  }),
];
