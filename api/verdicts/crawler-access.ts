/**
 * The AI-crawler access verdict (pure): per domain, each known AI crawler's access as the site's robots.txt states
 * it, llms.txt and ai.txt presence, and the statistics overall and by sector. It reports stated policy, not
 * enforcement (a site may block at its firewall what its robots.txt allows, or the reverse).
 *
 * Statistics (percent, 1 decimal; null when the denominator is 0):
 * - domainsWithData: domains whose robots.txt was read (present or missing);
 * - botBlockedPct / botAllowedPct: of every (domain, bot) pair with a known access, the share blocked / allowed;
 * - llmsTxtAdoptionPct / aiTxtAdoptionPct: of the domains where the file's presence is known, the share with it.
 */
import type { WebReadinessDomain } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { round } from "./round.ts";

/** Statistics over a set of domains. */
export interface CrawlerStats {
  domains: number;
  domainsWithData: number;
  botBlockedPct: number | null;
  botAllowedPct: number | null;
  llmsTxtAdoptionPct: number | null;
  aiTxtAdoptionPct: number | null;
}

/** One domain as the verdict serves it. */
export interface CrawlerAccessDomain {
  domain: string;
  sector: string;
  checkedAt: string;
  robotsStatus: WebReadinessDomain["robotsStatus"];
  bots: WebReadinessDomain["bots"];
  /** null when unknown (the fetch failed or our own robots.txt group forbade it). */
  hasLlmsTxt: boolean | null;
  hasAiTxt: boolean | null;
  llmsTxtBytes: number | null;
}

/** The verdict. */
export interface CrawlerAccess {
  domains: CrawlerAccessDomain[];
  stats: CrawlerStats & { bySector: Record<string, CrawlerStats> };
}

/** Percentage with 1 decimal, or null without a denominator. */
export function pct(part: number, whole: number): number | null {
  return whole === 0 ? null : round((part / whole) * 100, 1);
}

const known = (s: "present" | "absent" | "unknown"): boolean | null => (s === "unknown" ? null : s === "present");

/** Statistics over `domains`. */
export function crawlerStats(domains: readonly WebReadinessDomain[]): CrawlerStats {
  let pairs = 0;
  let blocked = 0;
  let allowed = 0;
  let llmsKnown = 0;
  let llms = 0;
  let aiKnown = 0;
  let ai = 0;
  for (const d of domains) {
    for (const access of Object.values(d.bots)) {
      if (access === "unknown") continue;
      pairs++;
      if (access === "blocked") blocked++;
      if (access === "allowed") allowed++;
    }
    if (d.llmsTxt !== "unknown") llmsKnown++;
    if (d.llmsTxt === "present") llms++;
    if (d.aiTxt !== "unknown") aiKnown++;
    if (d.aiTxt === "present") ai++;
  }
  return {
    domains: domains.length,
    domainsWithData: domains.filter((d) => d.robotsStatus !== "unreachable").length,
    botBlockedPct: pct(blocked, pairs),
    botAllowedPct: pct(allowed, pairs),
    llmsTxtAdoptionPct: pct(llms, llmsKnown),
    aiTxtAdoptionPct: pct(ai, aiKnown),
  };
}

/** Build the verdict from the crawl's domains and the crawl's time. */
export function crawlerAccess(domains: readonly WebReadinessDomain[], checkedAt: string): CrawlerAccess {
  const sectors = [...new Set(domains.map((d) => d.sector))].sort();
  const bySector: Record<string, CrawlerStats> = {};
  for (const s of sectors) bySector[s] = crawlerStats(domains.filter((d) => d.sector === s));
  return {
    domains: domains.map((d) => ({
      domain: d.domain,
      sector: d.sector,
      checkedAt,
      robotsStatus: d.robotsStatus,
      bots: d.bots,
      hasLlmsTxt: known(d.llmsTxt),
      hasAiTxt: known(d.aiTxt),
      llmsTxtBytes: d.llmsTxtBytes,
    })),
    stats: { ...crawlerStats(domains), bySector },
  };
}

/** Per bot, how many domains allow, block, partly allow or leave unknown its access. */
export function botCounts(domains: readonly WebReadinessDomain[]): Record<string, { allowed: number; blocked: number; partial: number; unknown: number }> {
  const out: Record<string, { allowed: number; blocked: number; partial: number; unknown: number }> = {};
  for (const d of domains) {
    for (const [bot, access] of Object.entries(d.bots)) {
      const c = (out[bot] ??= { allowed: 0, blocked: 0, partial: 0, unknown: 0 });
      c[access]++;
    }
  }
  return out;
}
