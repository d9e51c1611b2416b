/**
 * The premium agents directory: every curated agent joined with its provider's live status, recent news that
 * names it, requests this server saw today from the provider's user-driven agent bots, the provider's flagship
 * model price, and a trending score; filtered by category and status, sorted, and cut to a limit.
 */
import type { AgentCategory, AgentEntry } from "../../pipelines/contract/snapshots/agents.ts";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import { headlines, recentMentions, type Headline } from "./news-mentions.ts";
import { blended } from "./price.ts";

export const DIRECTORY_SORTS = ["trending", "news", "traffic", "name"] as const;
export type DirectorySort = (typeof DIRECTORY_SORTS)[number];
export const LIVE_STATUSES = ["operational", "degraded", "down", "unknown"] as const;
export type LiveStatus = (typeof LIVE_STATUSES)[number];

/** Trending weights: recent news share and agent traffic share (renormalized to news alone when no traffic was seen). */
export const TRENDING_WEIGHTS = { news: 0.6, traffic: 0.4 } as const;

/** A tracked status page. */
export interface StatusService {
  provider: string;
  name: string;
  status: LiveStatus;
  statusPageUrl: string;
}

/** A model provider's catalog models as the pricing snapshot lists them. */
export interface PricedProvider {
  id: string;
  name: string;
  models: { id: string; tier: string; releaseDate: string; input: number; output: number }[];
}

/** A bot this server recognises, with its operator. */
export interface Bot {
  token: string;
  operator: string;
  kind: "crawler" | "agent" | "search";
}

export interface DirectoryInput {
  agents: readonly AgentEntry[];
  services: readonly StatusService[];
  pricing: readonly PricedProvider[];
  articles: readonly Article[];
  bots: readonly Bot[];
  /** Today's (UTC) requests per bot token, as the activity tracker reports them. */
  by_bot: Readonly<Record<string, number>>;
  now: Date;
  query: { sort: DirectorySort; category?: AgentCategory; status?: LiveStatus; limit: number };
}

export interface DirectoryAgent {
  id: string;
  name: string;
  provider: string;
  category: AgentCategory;
  live_status: LiveStatus;
  status_page_url: string | null;
  recent_news_count: number;
  recent_news: Headline[];
  agent_traffic_24h: number | null;
  flagship_pricing: { model: string; input: number; output: number; blended: number } | null;
  trending_score: number;
}

export interface DirectoryVerdict {
  ok: true;
  total: number;
  returned: number;
  sort: DirectorySort;
  filters_applied: { category: AgentCategory | null; status: LiveStatus | null };
  agents: DirectoryAgent[];
  notes: string[];
}

/** Lower-case letters and digits only ("Google DeepMind" → "googledeepmind"). */
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");
/** The first word, squashed ("Amazon Web Services" → "amazon"). */
const firstWord = (s: string) => squash(s.trim().split(/\s+/)[0] ?? "");
const hostOf = (url: string) => {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return "";
  }
};

/** Whether an agent's provider name designates `candidate` (an id or a name): whole name or first word, squashed. */
export function sameOrganisation(agentProvider: string, candidate: string): boolean {
  const a = squash(agentProvider);
  const c = squash(candidate);
  return a.length > 0 && c.length > 0 && (a === c || firstWord(agentProvider) === c || firstWord(candidate) === a || firstWord(agentProvider) === firstWord(candidate));
}

/** The status page that watches an agent: the one at its own status page host, else its provider's. */
export function serviceOf(agent: AgentEntry, services: readonly StatusService[]): StatusService | undefined {
  if (agent.statusPageUrl) {
    const host = hostOf(agent.statusPageUrl);
    const byHost = services.find((s) => hostOf(s.statusPageUrl) === host);
    if (byHost) return byHost;
    return undefined;
  }
  return services.find((s) => sameOrganisation(agent.provider, s.provider) || sameOrganisation(agent.provider, s.name));
}

/** The provider's flagship: its newest `flagship`-tier model (a tie goes to the higher blended price, then the id). */
export function flagshipOf(agent: AgentEntry, pricing: readonly PricedProvider[]): DirectoryAgent["flagship_pricing"] {
  const provider = pricing.find((p) => sameOrganisation(agent.provider, p.id) || sameOrganisation(agent.provider, p.name));
  const flagships = (provider?.models ?? []).filter((m) => m.tier === "flagship");
  flagships.sort((a, b) => (a.releaseDate < b.releaseDate ? 1 : a.releaseDate > b.releaseDate ? -1 : 0) || blended(b.input, b.output) - blended(a.input, a.output) || (a.id < b.id ? -1 : 1));
  const f = flagships[0];
  return f ? { model: f.id, input: f.input, output: f.output, blended: blended(f.input, f.output) } : null;
}

/** The user-driven agent bots the agent's provider operates (tokens); null when it operates none we recognise. */
export function agentBotsOf(agent: AgentEntry, bots: readonly Bot[]): string[] | null {
  const own = bots.filter((b) => b.kind === "agent" && sameOrganisation(agent.provider, b.operator)).map((b) => b.token);
  return own.length > 0 ? own : null;
}

/** Today's requests from the user-driven agent bots the agent's provider operates; null when it operates none we recognise. */
export function trafficOf(agent: AgentEntry, bots: readonly Bot[], byBot: Readonly<Record<string, number>>): number | null {
  const own = agentBotsOf(agent, bots);
  return own === null ? null : own.reduce((n, token) => n + (byBot[token] ?? 0), 0);
}

/** What an agent's entry holds before today's traffic: the part that changes only with the snapshots (and the news window). */
export interface DirectoryBaseRow extends Omit<DirectoryAgent, "agent_traffic_24h" | "trending_score"> {
  /** Bot tokens whose requests count as the agent's traffic; null when none. */
  agent_bots: string[] | null;
}

/** The snapshot-derived part of every entry (status, news, flagship, which bots count), in directory order. */
export function directoryBase(input: Pick<DirectoryInput, "agents" | "services" | "pricing" | "articles" | "bots" | "now">): DirectoryBaseRow[] {
  return input.agents.map((agent) => {
    const service = serviceOf(agent, input.services);
    const news = recentMentions(input.articles, [agent.name], input.now);
    return {
      id: agent.id,
      name: agent.name,
      provider: agent.provider,
      category: agent.category,
      live_status: service?.status ?? ("unknown" as const),
      status_page_url: agent.statusPageUrl ?? service?.statusPageUrl ?? null,
      recent_news_count: news.length,
      recent_news: headlines(news),
      agent_bots: agentBotsOf(agent, input.bots),
      flagship_pricing: flagshipOf(agent, input.pricing),
    };
  });
}

const byName = (a: DirectoryAgent, b: DirectoryAgent) => (a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id < b.id ? -1 : 1);

const ORDER: Record<DirectorySort, (a: DirectoryAgent, b: DirectoryAgent) => number> = {
  trending: (a, b) => b.trending_score - a.trending_score || b.recent_news_count - a.recent_news_count || byName(a, b),
  news: (a, b) => b.recent_news_count - a.recent_news_count || b.trending_score - a.trending_score || byName(a, b),
  traffic: (a, b) => (b.agent_traffic_24h ?? -1) - (a.agent_traffic_24h ?? -1) || b.trending_score - a.trending_score || byName(a, b),
  name: byName,
};

/** Build the directory. */
export function agentsDirectory(input: DirectoryInput): DirectoryVerdict {
  return finishDirectory(directoryBase(input), input.by_bot, input.query);
}

/** Add today's traffic and the trending score to the base rows, then filter, sort and cut. */
export function finishDirectory(base: readonly DirectoryBaseRow[], byBot: Readonly<Record<string, number>>, query: DirectoryInput["query"]): DirectoryVerdict {
  const rows: DirectoryAgent[] = base.map(({ agent_bots, ...row }) => ({
    ...row,
    agent_traffic_24h: agent_bots === null ? null : agent_bots.reduce((n, token) => n + (byBot[token] ?? 0), 0),
    trending_score: 0,
  }));
  // Shares are taken over the whole directory (before filters), so a score does not depend on the filter.
  const maxNews = Math.max(0, ...rows.map((r) => r.recent_news_count));
  const maxTraffic = Math.max(0, ...rows.map((r) => r.agent_traffic_24h ?? 0));
  const weights = maxTraffic > 0 ? TRENDING_WEIGHTS : { news: 1, traffic: 0 };
  for (const r of rows) {
    const news = maxNews > 0 ? r.recent_news_count / maxNews : 0;
    const traffic = maxTraffic > 0 ? (r.agent_traffic_24h ?? 0) / maxTraffic : 0;
    r.trending_score = Math.round(100 * (weights.news * news + weights.traffic * traffic));
  }
  const { sort, category, status, limit } = query;
  const kept = rows.filter((r) => (category === undefined || r.category === category) && (status === undefined || r.live_status === status)).sort(ORDER[sort]);
  const agents = kept.slice(0, limit);
  const notes: string[] = [];
  if (maxTraffic === 0) notes.push("No agent traffic was recorded today on this server: trending_score is the recent-news share alone.");
  if (rows.some((r) => r.agent_traffic_24h === null)) notes.push("agent_traffic_24h is null where the agent's provider operates no user-agent bot this server recognises (source: null).");
  return {
    ok: true,
    total: kept.length,
    returned: agents.length,
    sort,
    filters_applied: { category: category ?? null, status: status ?? null },
    agents,
    notes,
  };
}
