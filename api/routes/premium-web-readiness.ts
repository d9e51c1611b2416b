/**
 * GET /api/premium/ai-crawler-access/full and GET /api/premium/agent-ready/full: the weekly web-readiness crawl
 * (snapshot `web-readiness`) judged by api/verdicts/crawler-access.ts and api/verdicts/agent-ready.ts. Billing,
 * the 402 challenge and receipts come from the premium wrapper; the 8-day freshness SLA makes a stale crawl free.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { calendarDay } from "./query-fields.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { fieldChanges, type FieldCapture } from "../verdicts/crawler-access-changes.ts";
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

/** Longest range of the changes route, in days. */
export const MAX_CHANGES_DAYS = 366;

/** Query of GET /api/premium/ai-crawler-access/changes. */
export const CrawlerChangesQuery = z.strictObject({
  from: calendarDay("from").meta({ description: "First day, YYYY-MM-DD (inclusive; required)." }),
  to: calendarDay("to").meta({ description: `Last day, YYYY-MM-DD (inclusive; required); at most ${MAX_CHANGES_DAYS} days after from.` }),
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .max(253)
    .regex(/^[a-z0-9.-]+$/, "domain is a host name such as nytimes.com")
    .optional()
    .meta({ description: "One crawled domain (as in /api/premium/ai-crawler-access/full); omit for every domain." }),
});

/** Body of GET /api/premium/ai-crawler-access/changes (the billing wrapper adds billing). */
export const CrawlerChangesResponse = z.strictObject({
  ok: z.literal(true),
  captured_at: z.string().nullable().meta({ description: "The last crawl day in the range (YYYY-MM-DD), null without one." }),
  domain: z.string().nullable(),
  from: z.string(),
  to: z.string(),
  changes: z.array(z.strictObject({ domain: z.string(), field: z.string().meta({ description: "A bot's product token, llms.txt or ai.txt." }), from: z.string(), to: z.string(), at: z.string() })),
  has_data: z.boolean().meta({ description: "False when the range holds no crawl of the asked domain(s); such a call is not charged." }),
  source_attribution: z.string(),
});
type CrawlerChanges = z.infer<typeof CrawlerChangesResponse>;

/**
 * The captures of the range that can carry a change: per domain and field, the first one and each whose value
 * differs from the one before (dropping a capture equal to its predecessor changes no answer of fieldChanges),
 * plus one summary row (date NULL) with the range's last crawl day. DuckDB does the pass; a year of crawls stays
 * in the database.
 */
const CAPTURES = (oneDomain: boolean) => {
  const where = `WHERE date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)${oneDomain ? " AND domain = ?" : ""}`;
  return `WITH c AS MATERIALIZED (SELECT date, domain, bot AS field, access AS value FROM web_bot_access_daily ${where}
    UNION ALL SELECT date, domain, 'llms.txt', llms_txt FROM web_readiness_daily ${where}
    UNION ALL SELECT date, domain, 'ai.txt', ai_txt FROM web_readiness_daily ${where}),
  t AS (SELECT *, lag(value) OVER (PARTITION BY domain, field ORDER BY date) AS prev FROM c)
  SELECT CAST(date AS VARCHAR) AS date, domain, field, value, NULL AS last_day FROM t WHERE prev IS NULL OR prev <> value
  UNION ALL SELECT NULL, NULL, NULL, NULL, CAST(max(date) AS VARCHAR) FROM c`;
};

/** Render GET /api/premium/ai-crawler-access/changes. */
export async function renderCrawlerChanges(ctx: RenderContext, query: z.infer<typeof CrawlerChangesQuery>): Promise<CrawlerChanges> {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  if (query.from > query.to) throw new ApiError(400, "invalid_range", "from must not be after to");
  const days = (Date.parse(`${query.to}T00:00:00Z`) - Date.parse(`${query.from}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > MAX_CHANGES_DAYS) throw new ApiError(400, "range_too_long", `the range is at most ${MAX_CHANGES_DAYS} days`);
  const one = query.domain !== undefined;
  const params = one ? [query.from, query.to, query.domain!] : [query.from, query.to];
  const rows = await ctx.warehouse.query<Record<string, string | null>>(CAPTURES(one), [...params, ...params, ...params]);
  const lastDay = rows.find((r) => r["date"] === null)?.["last_day"] ?? null;
  const captures = rows.filter((r) => r["date"] !== null) as unknown as FieldCapture[];
  return { ok: true, captured_at: lastDay, domain: query.domain ?? null, from: query.from, to: query.to, changes: fieldChanges(captures), has_data: lastDay !== null, source_attribution: WEB_READINESS_ATTRIBUTION };
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
  defineRoute({
    method: "GET",
    path: "/api/premium/ai-crawler-access/changes",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Changes of AI-crawler access (each bot's robots.txt access), llms.txt and ai.txt presence between successive weekly crawls, per domain.",
    description: [
      `Read from the warehouse tables web_bot_access_daily and web_readiness_daily. from and to are required (YYYY-MM-DD, inclusive, at most ${MAX_CHANGES_DAYS} days; from after to is 400 invalid_range). The 402 challenge precedes the parameter check.`,
      "The range's first crawl of a domain is the baseline; each later crawl whose value differs from the previous one is a change, at the day it was first seen.",
      "has_data false (no crawl in the range, or an unknown domain) is answered 200 and not charged (no_data_in_range).",
    ].join(" "),
    tags: ["premium", "web-readiness", "history"],
    query: CrawlerChangesQuery,
    response: CrawlerChangesResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    example: "/api/premium/ai-crawler-access/changes?from=2026-11-01&to=2026-11-30",
    noCharge: {
      outcomes: { no_data_in_range: "the range holds no crawl of the asked domain(s) (has_data false)" },
      check: (body) => (body.has_data ? null : "no_data_in_range"),
    },
    render: (ctx, { query }) => renderCrawlerChanges(ctx, query),
  }),
];
