/**
 * The agent-ready verdict (pure): a readiness score 0–100 per domain from the surfaces it publishes for agents,
 * with the contract's weights: x402 25, agent.json 20, OpenAPI 20, llms.txt 15, crawlable 15, ai.txt 5.
 * - A surface counts only when the crawl found it (`present`); `absent` and `unknown` count 0.
 * - crawlable: robots.txt was read (present, or missing = no policy) and no crawler that fetches for a user
 *   (the catalog's `user-fetch` bots: ChatGPT-User, Claude-User, cohere-ai, MistralAI-User) is `blocked`.
 * - Tier: closed 0–19, emerging 20–44, ready 45–69, advanced 70–100.
 * Domains whose robots.txt was unreachable have no readiness figure and are left out (their count is reported).
 */
import type { WebReadinessDomain } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { round } from "./round.ts";

/** The score weights (sum 100). */
export const READINESS_WEIGHTS = { x402: 25, agentJson: 20, openapi: 20, llmsTxt: 15, crawlable: 15, aiTxt: 5 } as const;
export type Surface = keyof typeof READINESS_WEIGHTS;

/** Readiness tiers, lowest first. */
export const READINESS_TIERS = ["closed", "emerging", "ready", "advanced"] as const;
export type ReadinessTier = (typeof READINESS_TIERS)[number];

/** Tier of a score. */
export function tierOf(score: number): ReadinessTier {
  if (score >= 70) return "advanced";
  if (score >= 45) return "ready";
  if (score >= 20) return "emerging";
  return "closed";
}

/** One domain's readiness. */
export interface Readiness {
  score: number;
  tier: ReadinessTier;
  surfaces: Record<Surface, boolean>;
}

/** Readiness of one crawled domain, or null when its robots.txt was unreachable. */
export function readinessOf(d: WebReadinessDomain, userFetchBots: readonly string[]): Readiness | null {
  if (d.robotsStatus === "unreachable") return null;
  const surfaces: Record<Surface, boolean> = {
    x402: d.x402 === "present",
    agentJson: d.agentJson === "present",
    openapi: d.openapi === "present",
    llmsTxt: d.llmsTxt === "present",
    crawlable: userFetchBots.every((b) => d.bots[b] !== "blocked" && d.bots[b] !== "unknown"),
    aiTxt: d.aiTxt === "present",
  };
  let score = 0;
  for (const s of Object.keys(READINESS_WEIGHTS) as Surface[]) if (surfaces[s]) score += READINESS_WEIGHTS[s];
  return { score, tier: tierOf(score), surfaces };
}

/** Every scored domain, and the number left out. */
export function agentReady(domains: readonly WebReadinessDomain[], userFetchBots: readonly string[]): { domains: { domain: string; sector: string; readiness: Readiness }[]; unscored: number } {
  const out: { domain: string; sector: string; readiness: Readiness }[] = [];
  let unscored = 0;
  for (const d of domains) {
    const readiness = readinessOf(d, userFetchBots);
    if (readiness === null) unscored++;
    else out.push({ domain: d.domain, sector: d.sector, readiness });
  }
  return { domains: out, unscored };
}

/** Aggregates for the free summary: count, mean score, tiers, surface adoption and mean score by sector. */
export function readinessSummary(scored: readonly { sector: string; readiness: Readiness }[]): {
  domains: number;
  meanScore: number | null;
  tiers: Record<ReadinessTier, number>;
  surfaces: Record<Surface, number>;
  bySector: Record<string, { domains: number; meanScore: number }>;
} {
  const tiers = { closed: 0, emerging: 0, ready: 0, advanced: 0 };
  const surfaces = { x402: 0, agentJson: 0, openapi: 0, llmsTxt: 0, crawlable: 0, aiTxt: 0 };
  const sums = new Map<string, { n: number; sum: number }>();
  let sum = 0;
  for (const { sector, readiness } of scored) {
    tiers[readiness.tier]++;
    for (const s of Object.keys(surfaces) as Surface[]) if (readiness.surfaces[s]) surfaces[s]++;
    sum += readiness.score;
    const e = sums.get(sector) ?? { n: 0, sum: 0 };
    e.n++;
    e.sum += readiness.score;
    sums.set(sector, e);
  }
  const bySector: Record<string, { domains: number; meanScore: number }> = {};
  for (const [s, e] of [...sums].sort(([a], [b]) => a.localeCompare(b))) bySector[s] = { domains: e.n, meanScore: round(e.sum / e.n, 1) };
  return { domains: scored.length, meanScore: scored.length === 0 ? null : round(sum / scored.length, 1), tiers, surfaces, bySector };
}
