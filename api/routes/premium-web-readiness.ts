/**
 * GET /api/premium/ai-crawler-access/full and GET /api/premium/agent-ready/full: the weekly web-readiness crawl
 * (snapshot `web-readiness`) judged by api/verdicts/crawler-access.ts and api/verdicts/agent-ready.ts. Billing,
 * the 402 challenge and receipts come from the premium wrapper; the 8-day freshness SLA makes a stale crawl free.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { lastSuccessOf, readSnapshot } from "../serve/read-snapshot.ts";
import { agentReady, READINESS_TIERS } from "../verdicts/agent-ready.ts";
import { crawlerAccess } from "../verdicts/crawler-access.ts";
import { BOT_ACCESS, ROBOTS_STATUSES, USER_FETCH_BOTS, WEB_DOMAINS_SOURCE, webReadinessSnapshotSchema, webReadinessSnapshotType } from "../../pipelines/contract/snapshots/web-readiness.ts";

/** Where the figures come from. */
export const WEB_READINESS_ATTRIBUTION = `This service's own weekly crawl (User-Agent agentfeed, obeying each site's robots.txt) of a curated list of domains by sector (${WEB_DOMAINS_SOURCE}); AI crawler tokens as their operators document them.`;

export { USER_FETCH_BOTS };

const pctField = z.number().min(0).max(100).nullable();
const Stats = z.strictObject({
  domains: z.int().nonnegative(),
  domainsWithData: z.int().nonnegative().meta({ description: "Domains whose robots.txt was read (present or 4xx = no policy)." }),
  botBlockedPct: pctField.meta({ description: "Of every (domain, bot) pair with a known access, the share blocked, %." }),
  botAllowedPct: pctField.meta({ description: "Of every (domain, bot) pair with a known access, the share allowed, %." }),
  llmsTxtAdoptionPct: pctField.meta({ description: "Of the domains where /llms.txt's presence is known, the share with one, %." }),
  aiTxtAdoptionPct: pctField.meta({ description: "Of the domains where /ai.txt's presence is known, the share with one, %." }),
});

/** Body of GET /api/premium/ai-crawler-access/full (the billing wrapper adds billing). */
export const CrawlerAccessResponse = z.strictObject({
  ok: z.literal(true),
  captured_at: z.iso.datetime().meta({ description: "When the crawl ran (the oldest check time across the set)." }),
  domains: z.array(
    z.strictObject({
      domain: z.string(),
      sector: z.string(),
      checkedAt: z.iso.datetime(),
      robotsStatus: z.enum(ROBOTS_STATUSES),
      bots: z.record(z.string(), z.enum(BOT_ACCESS)).meta({ description: "Each known AI crawler's access as robots.txt states it." }),
      hasLlmsTxt: z.boolean().nullable(),
      hasAiTxt: z.boolean().nullable(),
      llmsTxtBytes: z.int().nonnegative().nullable(),
    }),
  ),
  stats: Stats.extend({ bySector: z.record(z.string(), Stats) }),
  note: z.string(),
  source_attribution: z.string(),
});

const Surfaces = z.strictObject({ x402: z.boolean(), agentJson: z.boolean(), openapi: z.boolean(), llmsTxt: z.boolean(), crawlable: z.boolean(), aiTxt: z.boolean() });

/** Body of GET /api/premium/agent-ready/full (the billing wrapper adds billing). */
export const AgentReadyResponse = z.strictObject({
  ok: z.literal(true),
  captured_at: z.iso.datetime(),
  domains: z.array(
    z.strictObject({
      domain: z.string(),
      sector: z.string(),
      readiness: z.strictObject({ score: z.int().min(0).max(100), tier: z.enum(READINESS_TIERS), surfaces: Surfaces }),
    }),
  ),
  unscored: z.int().nonnegative().meta({ description: "Domains left out because their robots.txt could not be read." }),
  source_attribution: z.string(),
});

/** What the crawler-access answer states about policy and enforcement. */
export const POLICY_NOTE = "Stated policy, not enforcement: what each site's robots.txt says to each crawler (RFC 9309), not whether the site blocks or admits it in practice.";

/** Render GET /api/premium/ai-crawler-access/full. */
export function renderCrawlerAccess(ctx: RenderContext): z.infer<typeof CrawlerAccessResponse> {
  const snapshot = readSnapshot(ctx.snapshots, "web-readiness", webReadinessSnapshotSchema);
  const at = lastSuccessOf(snapshot);
  const v = crawlerAccess(snapshot.data.domains, at);
  return { ok: true, captured_at: at, domains: v.domains, stats: v.stats, note: POLICY_NOTE, source_attribution: WEB_READINESS_ATTRIBUTION };
}

/** Render GET /api/premium/agent-ready/full. */
export function renderAgentReady(ctx: RenderContext): z.infer<typeof AgentReadyResponse> {
  const snapshot = readSnapshot(ctx.snapshots, "web-readiness", webReadinessSnapshotSchema);
  const v = agentReady(snapshot.data.domains, USER_FETCH_BOTS);
  return { ok: true, captured_at: lastSuccessOf(snapshot), domains: v.domains, unscored: v.unscored, source_attribution: WEB_READINESS_ATTRIBUTION };
}

const freshness = { cadence: webReadinessSnapshotType.cadence, slaSeconds: webReadinessSnapshotType.slaSeconds };

/** The two premium web-readiness routes. */
export const premiumWebReadinessRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/ai-crawler-access/full",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Per curated domain, each known AI crawler's access as its robots.txt states it (allowed | blocked | partial | unknown), llms.txt and ai.txt presence, and statistics by sector.",
    description: [
      "robots.txt is evaluated per RFC 9309 (user-agent groups merged per token, longest match, Allow over Disallow on ties).",
      "blocked: / disallowed and no Allow opens a path; partial: / disallowed with Allow exceptions, or a group naming the bot disallows some path; allowed otherwise (the * group's housekeeping rules do not count); unknown: robots.txt unreachable (5xx, timeout, network). A 4xx robots.txt is robotsStatus missing: no policy, every bot allowed.",
      "hasLlmsTxt / hasAiTxt: true, false, or null when not known. Stated policy, not enforcement. Freshness SLA 8 days: a staler crawl is served but not charged.",
    ].join(" "),
    tags: ["premium", "web-readiness"],
    response: CrawlerAccessResponse,
    snapshots: ["web-readiness"],
    freshness,
    render: (ctx) => renderCrawlerAccess(ctx),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/agent-ready/full",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Per curated domain, an agent-readiness score 0-100 from the surfaces it publishes (x402 25, agent.json 20, OpenAPI 20, llms.txt 15, crawlable 15, ai.txt 5), with its tier.",
    description: [
      "A surface counts when the crawl found it: /.well-known/x402 (x402Version and an items or resources array), /.well-known/agent.json (JSON with a name), /openapi.json (openapi or swagger version string), /llms.txt (markdown H1), /ai.txt (field lines).",
      `crawlable: robots.txt read and none of the user-fetch crawlers (${USER_FETCH_BOTS.join(", ")}) blocked or unknown. Unknown surfaces count 0.`,
      "Tier: closed 0-19, emerging 20-44, ready 45-69, advanced 70-100. Domains whose robots.txt could not be read are left out (unscored). Freshness SLA 8 days: a staler crawl is served but not charged.",
    ].join(" "),
    tags: ["premium", "web-readiness"],
    response: AgentReadyResponse,
    snapshots: ["web-readiness"],
    freshness,
    render: (ctx) => renderAgentReady(ctx),
  }),
];
