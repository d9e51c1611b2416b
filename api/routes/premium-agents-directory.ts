/**
 * GET /api/premium/agents/directory: the curated agents directory enriched (api/verdicts/agents-directory.ts)
 * with live status, recent news, this server's agent traffic, flagship pricing and a trending score. Every
 * input is a snapshot no warehouse table holds (agents, the live status page state, news, the catalog's tiers)
 * or the server's own activity tracker, read as /api/agents/activity reads it.
 */
import { z } from "zod";
import { serverActivity } from "../activity/tracker.ts";
import { KNOWN_BOTS } from "../activity/known-bots.ts";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { directoryBase, DIRECTORY_SORTS, finishDirectory, LIVE_STATUSES, TRENDING_WEIGHTS, type DirectoryBaseRow, type DirectoryVerdict } from "../verdicts/agents-directory.ts";
import { RECENT_NEWS_DAYS, RECENT_NEWS_TOP } from "../verdicts/news-mentions.ts";
import { agentCategory, agentsSnapshotSchema, agentsSnapshotType } from "../../pipelines/contract/snapshots/agents.ts";
import { newsSnapshotSchema } from "../../pipelines/contract/snapshots/news.ts";
import { PricingSnapshotSchema } from "../../pipelines/contract/snapshots/pricing.ts";
import { statusSnapshot } from "../../pipelines/contract/snapshots/status.ts";

/** Agents returned by default and at most. */
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

/** Query of GET /api/premium/agents/directory. */
export const PremiumAgentsDirectoryQuery = z.strictObject({
  sort: z.enum(DIRECTORY_SORTS).default("trending").meta({ description: "trending (default), news (recent news count), traffic (agent traffic today), name." }),
  category: agentCategory.optional().meta({ description: "Keep one category (coding, computer-use, research, framework, customer-service, general)." }),
  status: z.enum(LIVE_STATUSES).optional().meta({ description: "Keep one live status (operational, degraded, down, unknown)." }),
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).meta({ description: `Agents to return, 1-${MAX_LIMIT} (default ${DEFAULT_LIMIT}).` }),
});

const Headline = z.strictObject({ title: z.string(), url: z.string(), source: z.string(), published: z.string() });

/** Body of GET /api/premium/agents/directory (the billing wrapper adds billing). */
export const PremiumAgentsDirectoryResponse = z.strictObject({
  ok: z.literal(true),
  total: z.number().int().nonnegative().meta({ description: "Agents matching the filters, before the limit." }),
  returned: z.number().int().nonnegative(),
  sort: z.enum(DIRECTORY_SORTS),
  filters_applied: z.strictObject({ category: agentCategory.nullable(), status: z.enum(LIVE_STATUSES).nullable() }),
  agents: z.array(
    z.strictObject({
      id: z.string(),
      name: z.string(),
      provider: z.string(),
      category: agentCategory,
      live_status: z.enum(LIVE_STATUSES).meta({ description: "State of the status page watching the agent (its own, else its provider's); unknown when none is tracked." }),
      status_page_url: z.string().nullable(),
      recent_news_count: z.number().int().nonnegative(),
      recent_news: z.array(Headline).max(RECENT_NEWS_TOP),
      agent_traffic_24h: z.number().int().nonnegative().nullable().meta({ description: "Requests this server answered today (UTC) from the provider's user-driven agent bots; null when the provider operates none we recognise." }),
      flagship_pricing: z
        .strictObject({ model: z.string(), input: z.number().nonnegative(), output: z.number().nonnegative(), blended: z.number().nonnegative() })
        .nullable()
        .meta({ description: "The provider's newest flagship-tier catalog model, USD per 1M tokens; null when the provider has none in the catalog." }),
      trending_score: z.number().int().min(0).max(100),
    }),
  ),
  notes: z.array(z.string()),
});

/** The base rows of the last call, reused while the four snapshot bodies are the same objects and the UTC day has not changed. */
let cached: { bodies: readonly object[]; day: string; rows: DirectoryBaseRow[] } | undefined;

/** The snapshot-derived part of the directory (status, news, flagship, bots), computed once per snapshot load and UTC day. */
function baseRows(ctx: RenderContext): DirectoryBaseRow[] {
  const agents = readSnapshot(ctx.snapshots, "agents", agentsSnapshotSchema).data;
  const status = readSnapshot(ctx.snapshots, "status", statusSnapshot).data;
  const news = readSnapshot(ctx.snapshots, "news", newsSnapshotSchema).data;
  const pricing = readSnapshot(ctx.snapshots, "pricing", PricingSnapshotSchema).data;
  const bodies = [agents, status, news, pricing];
  const day = ctx.now.toISOString().slice(0, 10);
  if (cached && cached.day === day && cached.bodies.every((b, i) => b === bodies[i])) return cached.rows;
  const rows = directoryBase({
    agents: agents.agents,
    services: status.services,
    articles: news.articles,
    pricing: pricing.providers.map((p) => ({
      id: p.id,
      name: p.name,
      models: p.models.map((m) => ({ id: m.id, tier: m.tier, releaseDate: m.releaseDate, input: m.inputCostPer1M, output: m.outputCostPer1M })),
    })),
    bots: KNOWN_BOTS,
    now: ctx.now,
  });
  cached = { bodies, day, rows };
  return rows;
}

/** Render GET /api/premium/agents/directory. */
export function renderPremiumAgentsDirectory(ctx: RenderContext, query: z.infer<typeof PremiumAgentsDirectoryQuery>): DirectoryVerdict {
  const activity = serverActivity.report(ctx.now);
  return finishDirectory(baseRows(ctx), activity.by_bot, {
    sort: query.sort,
    limit: query.limit,
    ...(query.category ? { category: query.category } : {}),
    ...(query.status ? { status: query.status } : {}),
  });
}

/** The premium agents directory route. */
export const premiumAgentsDirectoryRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/agents/directory",
    tier: "premium",
    cost: 1,
    summary: "The agents directory with live status, recent news, agent traffic seen by this server, flagship model pricing and a trending score; filter, sort, limit.",
    description: [
      `Query: sort (trending default, news, traffic, name), category, status (live_status), limit (1-${MAX_LIMIT}, default ${DEFAULT_LIMIT}). total counts the agents after filters, returned those after the limit.`,
      "Agents: the curated agents snapshot. live_status: the status snapshot's page at the agent's own status page host, else its provider's page (same name or first word); unknown when none is tracked.",
      `recent_news: articles published since 00:00 UTC ${RECENT_NEWS_DAYS} days before today in the news snapshot naming the agent (whole phrase, case-insensitive), newest first, top ${RECENT_NEWS_TOP}.`,
      "agent_traffic_24h: requests this server answered today (current UTC day, this process, as /api/agents/activity counts them) from the user-driven agent bots (kind agent in api/activity/known-bots.ts) its provider operates; null when the provider operates none we recognise.",
      "flagship_pricing: the provider's newest flagship-tier model in the pricing snapshot (the catalog's tiers; no warehouse table holds them), tie to the higher blended price; blended = (3 × input + output) / 4.",
      `trending_score = round(100 × (${TRENDING_WEIGHTS.news} × news share + ${TRENDING_WEIGHTS.traffic} × traffic share)), each share the agent's figure over the directory's largest (before filters); with no traffic recorded today the news share alone (× 100).`,
      "Orders: trending and news by that figure descending, traffic descending (null last), name ascending; ties by trending score, then name. A filter that keeps no agent is answered 200 and not charged (no_match); so is any call while the agents, status, news or pricing snapshot is older than 2 days.",
    ].join(" "),
    tags: ["premium", "agents"],
    query: PremiumAgentsDirectoryQuery,
    response: PremiumAgentsDirectoryResponse,
    snapshots: ["agents", "status", "news", "pricing"],
    freshness: { cadence: `${agentsSnapshotType.cadence} (agents), every 10 minutes (news)`, slaSeconds: agentsSnapshotType.slaSeconds },
    example: "/api/premium/agents/directory?category=coding&limit=5",
    noCharge: {
      outcomes: { no_match: "no agent matches the category and status filters (total 0)" },
      check: (body) => (body.total === 0 ? "no_match" : null),
    },
    render: (ctx, { query }) => renderPremiumAgentsDirectory(ctx, query),
  }),
];
