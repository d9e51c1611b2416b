/**
 * The free aggregates of the web-readiness crawl: GET /api/ai-crawler-access/summary.json and
 * GET /api/agent-ready/summary.json. Aggregates only; the per-domain answers are the premium routes
 * (api/routes/premium-web-readiness.ts).
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { agentReady, READINESS_TIERS, readinessSummary } from "../verdicts/agent-ready.ts";
import { botCounts, crawlerStats } from "../verdicts/crawler-access.ts";
import { webReadinessSnapshotSchema, webReadinessSnapshotType } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { POLICY_NOTE, USER_FETCH_BOTS, WEB_READINESS_ATTRIBUTION } from "./premium-web-readiness.ts";

const pctField = z.number().min(0).max(100).nullable();
const count = z.int().nonnegative();

/** Body of GET /api/ai-crawler-access/summary.json. */
export const CrawlerAccessSummaryResponse = z.strictObject({
  ok: z.literal(true),
  captured_at: z.iso.datetime(),
  stats: z.strictObject({ domains: count, domainsWithData: count, botBlockedPct: pctField, botAllowedPct: pctField, llmsTxtAdoptionPct: pctField, aiTxtAdoptionPct: pctField }),
  bots: z.record(z.string(), z.strictObject({ allowed: count, blocked: count, partial: count, unknown: count })).meta({ description: "Per AI crawler, how many domains allow, block, partly allow or leave unknown its access." }),
  note: z.string(),
  premium: z.string(),
  source_attribution: z.string(),
});

/** Body of GET /api/agent-ready/summary.json. */
export const AgentReadySummaryResponse = z.strictObject({
  ok: z.literal(true),
  captured_at: z.iso.datetime(),
  domains: count.meta({ description: "Scored domains (robots.txt read)." }),
  unscored: count,
  meanScore: z.number().min(0).max(100).nullable(),
  tiers: z.strictObject(Object.fromEntries(READINESS_TIERS.map((t) => [t, count])) as Record<(typeof READINESS_TIERS)[number], typeof count>),
  surfaces: z.strictObject({ x402: count, agentJson: count, openapi: count, llmsTxt: count, crawlable: count, aiTxt: count }).meta({ description: "Scored domains with each surface." }),
  bySector: z.record(z.string(), z.strictObject({ domains: count, meanScore: z.number().min(0).max(100) })),
  premium: z.string(),
  source_attribution: z.string(),
});

/** Render GET /api/ai-crawler-access/summary.json. */
export function renderCrawlerAccessSummary(ctx: RenderContext): z.infer<typeof CrawlerAccessSummaryResponse> {
  const snapshot = readSnapshot(ctx.snapshots, "web-readiness", webReadinessSnapshotSchema);
  const domains = snapshot.data.domains;
  return {
    ok: true,
    captured_at: lastSuccessOf(snapshot),
    stats: crawlerStats(domains),
    bots: botCounts(domains),
    note: POLICY_NOTE,
    premium: "/api/premium/ai-crawler-access/full",
    source_attribution: WEB_READINESS_ATTRIBUTION,
  };
}

/** Render GET /api/agent-ready/summary.json. */
export function renderAgentReadySummary(ctx: RenderContext): z.infer<typeof AgentReadySummaryResponse> {
  const snapshot = readSnapshot(ctx.snapshots, "web-readiness", webReadinessSnapshotSchema);
  const v = agentReady(snapshot.data.domains, USER_FETCH_BOTS);
  return { ok: true, captured_at: lastSuccessOf(snapshot), ...readinessSummary(v.domains), unscored: v.unscored, premium: "/api/premium/agent-ready/full", source_attribution: WEB_READINESS_ATTRIBUTION };
}

const freshness = { cadence: webReadinessSnapshotType.cadence, slaSeconds: webReadinessSnapshotType.slaSeconds };

/** The two free web-readiness summaries. */
export const webReadinessSummaryRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/ai-crawler-access/summary.json",
    tier: "free",
    summary: "Aggregate AI-crawler access over the curated domains: blocked and allowed shares, llms.txt and ai.txt adoption, counts per crawler.",
    description: "Aggregates of the weekly crawl only (per-domain answers: /api/premium/ai-crawler-access/full). Stated robots.txt policy, not enforcement; percentages are over known values, null when none is known.",
    tags: ["web-readiness"],
    response: CrawlerAccessSummaryResponse,
    snapshots: ["web-readiness"],
    freshness,
    render: (ctx) => renderCrawlerAccessSummary(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/api/agent-ready/summary.json",
    tier: "free",
    summary: "Aggregate agent readiness over the curated domains: mean score, tiers, surface adoption, mean score by sector.",
    description: "Aggregates of the weekly crawl only (per-domain scores: /api/premium/agent-ready/full, which documents the weights and tiers).",
    tags: ["web-readiness"],
    response: AgentReadySummaryResponse,
    snapshots: ["web-readiness"],
    freshness,
    render: (ctx) => renderAgentReadySummary(ctx),
  }),
];
