/**
 * Feed `web-readiness`: the weekly crawl of the curated domains (pipelines/catalog/web-domains.ts). Per domain,
 * one request at a time (a domain's fetches run in sequence; 8 domains in parallel):
 * 1. `/robots.txt` → each AI crawler's access (pipelines/sources/web-readiness-robots.ts). 2xx: parsed; 4xx:
 *    `missing`, every bot allowed (RFC 9309 §2.3.1.3); 5xx, timeout, network: `unreachable`, every bot `unknown`.
 * 2. `/llms.txt`, `/ai.txt`, `/.well-known/agent.json`, `/openapi.json`, `/.well-known/x402`, each only when the
 *    site's robots.txt lets this service's own agent (`agentfeed`, the shared client's User-Agent with its contact
 *    URL) fetch it, and only when robots.txt was read (`unreachable` → every surface `unknown`). 200 with the
 *    right shape: `present`; 404/410 or a soft-404 page: `absent`; anything else: `unknown`, never `present`.
 * Bodies are capped (robots.txt 500 KiB, surfaces 1 MiB); the shared client caches with ETag/Last-Modified and
 * breaks a failing host's circuit. Nothing outside is stored as text: only statuses and sizes.
 * The run fails (the previous snapshot stays) only when every robots.txt was unreachable.
 */
import PQueue from "p-queue";
import { AI_BOTS, OWN_CRAWLER_TOKEN, WEB_DOMAINS, type WebDomain } from "../catalog/web-domains.ts";
import { HttpError } from "../lib/http/errors.ts";
import { MAX_PAYEES, x402ChallengePayees, x402OwnResources, x402Payees, x402Resources, type X402Payee, type X402Resources } from "../sources/x402-discovery.ts";
import { classifyManifest } from "../sources/afta-manifest.ts";
import type { Feed, FeedContext, FeedOutput, HistoryMoment, SourceHealth, WarehouseBatch, WarehouseValue } from "../lib/types.ts";
import { mayFetch, parseRobots, ROBOTS_MAX_BYTES } from "../sources/web-readiness-robots.ts";
import { isSurface, SURFACE_MAX_BYTES, SURFACE_PATHS, type SurfaceName, utf8Bytes } from "../sources/web-readiness-surfaces.ts";
import {
  type WebReadinessDomain,
  type WebReadinessSnapshot,
  webReadinessSnapshotSchema,
  webReadinessSnapshotType,
} from "../contract/snapshots/web-readiness.ts";

/** Domains crawled at the same time (each one request at a time). */
const DOMAIN_CONCURRENCY = 8;

/** Every robots.txt was unreachable. */
export class WebReadinessFeedError extends Error {
  override name = "WebReadinessFeedError";
}

type Fetched = { kind: "ok"; body: string; contentType: string | null } | { kind: "absent" } | { kind: "failed"; reason: string };

/**
 * A robots.txt answered 200 that is not a text file (another content type, or an HTML page such as a bot
 * challenge) says nothing about the site's policy: it counts as unreadable, so every bot is `unknown`, never
 * `allowed` as an empty file would make it.
 */
function robotsFile(fetched: Fetched): Fetched {
  if (fetched.kind !== "ok") return fetched;
  const type = fetched.contentType?.split(";")[0]?.trim().toLowerCase();
  if (type && type !== "text/plain") return { kind: "failed", reason: `robots.txt answered as ${type.slice(0, 80)}, not text/plain` };
  if (/^\s*<(!doctype|html|head|body)\b/i.test(fetched.body)) return { kind: "failed", reason: "robots.txt answered with an HTML page" };
  return fetched;
}

/** One GET through the shared client, classified; never throws. */
async function fetchOne(ctx: FeedContext, url: string, maxBytes: number): Promise<Fetched> {
  try {
    const res = await ctx.http.getText(url, { maxBytes, headers: { Accept: "text/plain, application/json;q=0.9, */*;q=0.1" } });
    return { kind: "ok", body: res.body, contentType: res.headers.get("content-type") };
  } catch (error) {
    if (error instanceof HttpError && error.code === "http_status" && error.status !== undefined && error.status >= 400 && error.status < 500 && error.status !== 429) {
      return { kind: "absent" };
    }
    return { kind: "failed", reason: error instanceof Error ? error.message : String(error) };
  }
}

/** Crawl one domain; never throws. */
export async function crawlDomain(ctx: FeedContext, site: WebDomain): Promise<{ result: WebReadinessDomain; error?: string }> {
  const origin = `https://${site.domain}`;
  const robots = robotsFile(await fetchOne(ctx, `${origin}/robots.txt`, ROBOTS_MAX_BYTES));
  const bots: Record<string, WebReadinessDomain["bots"][string]> = {};
  const unknownSurfaces = { llmsTxt: "unknown", llmsTxtBytes: null, aiTxt: "unknown", aiTxtBytes: null, agentJson: "unknown", openapi: "unknown", x402: "unknown", x402Payees: [], x402Resources: null, fairTrade: "unknown" } as const;
  if (robots.kind === "failed") {
    for (const b of AI_BOTS) bots[b.token] = "unknown";
    return { result: { domain: site.domain, sector: site.sector, robotsStatus: "unreachable", bots, ...unknownSurfaces, x402Payees: [] }, error: robots.reason };
  }
  const robotsBody = robots.kind === "ok" ? robots.body : "";
  const policy = parseRobots(origin, robotsBody);
  for (const b of AI_BOTS) bots[b.token] = policy.access(b.token);

  const found: Record<SurfaceName, { status: "present" | "absent" | "unknown"; bytes: number | null }> = {
    llmsTxt: { status: "unknown", bytes: null },
    aiTxt: { status: "unknown", bytes: null },
    agentJson: { status: "unknown", bytes: null },
    openapi: { status: "unknown", bytes: null },
    x402: { status: "unknown", bytes: null },
  };
  let payees: X402Payee[] = [];
  let resources: X402Resources | null = null;
  let discovery = "";
  for (const name of Object.keys(SURFACE_PATHS) as SurfaceName[]) {
    const path = SURFACE_PATHS[name];
    if (!mayFetch(origin, robotsBody, OWN_CRAWLER_TOKEN, path)) continue;
    const got = await fetchOne(ctx, origin + path, SURFACE_MAX_BYTES);
    if (got.kind === "absent") found[name] = { status: "absent", bytes: null };
    else if (got.kind === "ok") found[name] = isSurface(name, got.body) ? { status: "present", bytes: utf8Bytes(got.body) } : { status: "absent", bytes: null };
    if (name === "x402" && got.kind === "ok" && found.x402.status === "present") {
      discovery = got.body;
      payees = x402Payees(got.body);
      resources = x402Resources(got.body, site.domain);
    }
  }
  const challenged = found.x402.status === "present" ? await challengePayees(ctx, site.domain, robotsBody, discovery) : [];
  // An x402 publisher's fair-trade manifest (the registry series counts them); other domains are not asked.
  let fairTrade: WebReadinessDomain["fairTrade"] = "unknown";
  if (found.x402.status === "present" && mayFetch(origin, robotsBody, OWN_CRAWLER_TOKEN, FAIR_TRADE_PATH)) {
    const got = await fetchOne(ctx, origin + FAIR_TRADE_PATH, SURFACE_MAX_BYTES);
    if (got.kind === "absent") fairTrade = "absent";
    else if (got.kind === "ok") fairTrade = classifyManifest(got.body).status === "valid" ? "present" : "absent";
  }
  return {
    result: {
      domain: site.domain,
      sector: site.sector,
      robotsStatus: robots.kind === "ok" ? "present" : "missing",
      bots,
      llmsTxt: found.llmsTxt.status,
      llmsTxtBytes: found.llmsTxt.bytes,
      aiTxt: found.aiTxt.status,
      aiTxtBytes: found.aiTxt.bytes,
      agentJson: found.agentJson.status,
      openapi: found.openapi.status,
      x402: found.x402.status,
      x402Payees: mergePayees(payees, challenged),
      x402Resources: resources,
      fairTrade,
    },
  };
}

/** Resources of a publisher whose 402 challenge the crawl reads, at most. */
export const CHALLENGES_PER_DOMAIN = 3;

/**
 * The payees named by the 402 challenges of up to CHALLENGES_PER_DOMAIN of the site's own resources listed in its
 * discovery document (the site or a subdomain, each host's robots.txt obeyed for our agent). A resource that does
 * not answer 402, or fails, adds nothing.
 */
async function challengePayees(ctx: FeedContext, domain: string, domainRobots: string, discovery: string): Promise<X402Payee[]> {
  const robotsByHost = new Map<string, string | null>([[domain, domainRobots]]);
  const out: X402Payee[] = [];
  for (const resource of x402OwnResources(discovery, domain, CHALLENGES_PER_DOMAIN)) {
    const url = new URL(resource);
    if (!robotsByHost.has(url.hostname)) {
      const robots = robotsFile(await fetchOne(ctx, `${url.origin}/robots.txt`, ROBOTS_MAX_BYTES));
      robotsByHost.set(url.hostname, robots.kind === "ok" ? robots.body : robots.kind === "absent" ? "" : null);
    }
    const robots = robotsByHost.get(url.hostname);
    if (robots === null || robots === undefined || !mayFetch(url.origin, robots, OWN_CRAWLER_TOKEN, url.pathname + url.search)) continue;
    try {
      const res = await ctx.http.getText(resource, { acceptStatus: [402], maxBytes: CHALLENGE_MAX_BYTES, headers: { Accept: "application/json" } });
      if (res.status === 402) out.push(...x402ChallengePayees(res.headers.get("payment-required"), res.body));
    } catch {
      // An unreachable or failing resource names no payee; the discovery document's still count.
    }
  }
  return out;
}

/** Largest 402 body read. */
const CHALLENGE_MAX_BYTES = 64 * 1024;

/** Discovery and challenge payees as one list, each marked with where it was read. */
function mergePayees(discovery: readonly X402Payee[], challenge: readonly X402Payee[]): WebReadinessDomain["x402Payees"] {
  const out = new Map<string, WebReadinessDomain["x402Payees"][number]>();
  for (const p of discovery) out.set(`${p.payTo}|${p.network}`, { ...p, source: "discovery" });
  for (const p of challenge) {
    const key = `${p.payTo}|${p.network}`;
    const held = out.get(key);
    out.set(key, { ...p, source: held ? (held.source === "challenge" ? "challenge" : "both") : "challenge" });
  }
  return [...out.values()].sort((a, b) => a.payTo.localeCompare(b.payTo) || a.network.localeCompare(b.network)).slice(0, MAX_PAYEES);
}

/** Where a publisher serves its agent fair-trade (AFTA) manifest. */
export const FAIR_TRADE_PATH = "/.well-known/agent-fair-trade.json";

/**
 * The x402 registry row of a crawled domain: ok with what its document offers, error when the fetch failed, none
 * without a document. A document whose resources were not recorded (a crawl from before the registry, or a
 * document without a readable resource list) has null counts, never zeros.
 */
function registryRow(d: WebReadinessDomain, date: string): Record<string, WarehouseValue> | null {
  if (d.x402 === "unknown") return { date, domain: d.domain, status: "error", paid_endpoints: null, free_endpoints: null, federated: null, networks: null, agent_fair_trade: null };
  if (d.x402 !== "present") return null;
  return {
    date,
    domain: d.domain,
    status: "ok",
    paid_endpoints: d.x402Resources?.paid ?? null,
    free_endpoints: d.x402Resources?.free ?? null,
    federated: d.x402Resources?.federated ?? null,
    networks: d.x402Resources ? [...new Set(d.x402Payees.map((p) => p.network))].sort().join(",") : null,
    agent_fair_trade: d.fairTrade === "unknown" ? null : d.fairTrade === "present",
  };
}

/** The warehouse rows of a snapshot body on one UTC day. */
export function webReadinessRows(data: WebReadinessSnapshot, date: string): WarehouseBatch[] {
  return [
    {
      table: "web_readiness_daily",
      key: ["date", "domain"],
      rows: data.domains.map((d) => ({
        date,
        domain: d.domain,
        sector: d.sector,
        robots_status: d.robotsStatus,
        llms_txt: d.llmsTxt,
        llms_txt_bytes: d.llmsTxtBytes,
        ai_txt: d.aiTxt,
        agent_json: d.agentJson,
        openapi: d.openapi,
        x402: d.x402,
      })),
    },
    {
      table: "web_bot_access_daily",
      key: ["date", "domain", "bot"],
      rows: data.domains.flatMap((d) => Object.entries(d.bots).map(([bot, access]) => ({ date, domain: d.domain, bot, access }))),
    },
    {
      table: "x402_publishers_daily",
      key: ["date", "domain", "pay_to", "network"],
      rows: data.domains.flatMap((d) => d.x402Payees.map((p) => ({ date, domain: d.domain, pay_to: p.payTo, network: p.network, source: p.source }))),
    },
    {
      table: "x402_registry_daily",
      key: ["date", "domain"],
      rows: data.domains.map((d) => registryRow(d, date)).filter((r): r is Record<string, WarehouseValue> => r !== null),
    },
  ];
}

/** Crawl `sites` (the catalog by default) into the snapshot. */
export async function runWebReadiness(ctx: FeedContext, sites: readonly WebDomain[] = WEB_DOMAINS): Promise<FeedOutput<WebReadinessSnapshot>> {
  const queue = new PQueue({ concurrency: DOMAIN_CONCURRENCY });
  const crawled = await Promise.all(sites.map((s) => queue.add(() => crawlDomain(ctx, s))));
  if (crawled.length > 0 && crawled.every((c) => c.result.robotsStatus === "unreachable")) {
    throw new WebReadinessFeedError(`web-readiness: all ${crawled.length} robots.txt unreachable; first: ${crawled[0]?.error ?? "none"}`);
  }
  const sources: SourceHealth[] = crawled.map((c) => ({ id: c.result.domain, ok: c.error === undefined, ...(c.error ? { error: c.error.slice(0, 300) } : {}) }));
  for (const c of crawled) if (c.error) ctx.notice(`web-readiness: ${c.result.domain} robots.txt unreachable: ${c.error.slice(0, 200)}`);
  const data = webReadinessSnapshotSchema.parse({ domains: crawled.map((c) => c.result).sort((a, b) => a.domain.localeCompare(b.domain)) });
  return { data, rows: data.domains.length, sources, warehouse: webReadinessRows(data, ctx.now.toISOString().slice(0, 10)) };
}

/** The `web-readiness` snapshot type (API: /api/premium/ai-crawler-access/full, /api/premium/agent-ready/full and their free summaries). */
export const webReadinessFeed: Feed<WebReadinessSnapshot> = {
  ...webReadinessSnapshotType,
  urls: () => WEB_DOMAINS.flatMap((d) => [`https://${d.domain}/robots.txt`, ...Object.values(SURFACE_PATHS).map((p) => `https://${d.domain}${p}`)]),
  run: (ctx) => runWebReadiness(ctx),
  historyRows: (data: WebReadinessSnapshot, at: HistoryMoment) => webReadinessRows(data, at.date),
};
