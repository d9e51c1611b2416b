/**
 * One AI provider's profile: who it is, its status page now, its models with prices and benchmark scores, the
 * news that names it, and the requests this server answered today from the AI agents and crawlers it operates.
 * Pure: the snapshots' entries, the scores and the activity report in, the answer out.
 */
import { providerNameKey, providerNames, resolveProviderName } from "../../pipelines/contract/vocabularies/provider-aliases.ts";
import type { Article } from "../../pipelines/contract/snapshots/news.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import type { StatusEntry } from "../../pipelines/contract/snapshots/status.ts";
import { blended } from "./price.ts";

/** News items shown at most (recent_news_count counts every match). */
export const NEWS_LIMIT = 10;
const TIER_ORDER = { flagship: 0, mid: 1, small: 2 } as const;

type PricingProvider = PricingSnapshot["providers"][number];

/** A bot the activity tracker recognizes and who operates it. */
export interface BotOperator {
  token: string;
  operator: string;
}

export interface ProfileInput {
  id: string;
  pricing: PricingProvider | undefined;
  status: StatusEntry | undefined;
  /** When the status feed last read the pages (manifest lastSuccess), for a tracked provider. */
  statusCheckedAt: string | null;
  /** Name and probed URL from the probe snapshot, when probed. */
  probe: { name: string; url: string } | undefined;
  /** model id → benchmark → score. */
  scores: ReadonlyMap<string, Record<string, number>>;
  articles: readonly Article[];
  /** Today's requests per bot token (the activity tracker's by_bot) and the day they cover. */
  activity: { day: string; by_bot: Record<string, number> };
  bots: readonly BotOperator[];
}

export interface ProviderProfile {
  ok: true;
  provider: { id: string; name: string; url: string | null };
  status: { state: string; status_page_url: string | null; last_checked: string | null; components: { name: string; status: string }[] };
  models: {
    id: string;
    name: string;
    tier: string;
    pricing: { input: number; output: number; blended: number; currency: "USD"; unit: "per 1M tokens" };
    context_window: number;
    released: string;
    capabilities: string[];
    benchmark_scores: Record<string, number>;
  }[];
  recent_news: { title: string; url: string; published_at: string }[];
  recent_news_count: number;
  agent_traffic_24h: { requests: number; by_bot: Record<string, number>; day: string; operator_bots: string[] };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const hostOf = (url: string): string | null => {
  try {
    return new URL(url).hostname.replace(/^www\./, "").toLowerCase();
  } catch {
    return null;
  }
};

/**
 * Does an article name the provider? Its names (display names and aliases of 3+ characters, as written, case-
 * sensitive so that "together" or "replicate" in prose do not count) as whole words in the title or snippet, or
 * the article comes from one of its domains.
 */
export function newsMatcher(names: readonly string[], domains: readonly string[]): (a: Article) => boolean {
  const words = [...new Set(names.filter((n) => n.length >= 3 && !n.includes(".")))];
  const pattern = words.length > 0 ? new RegExp(`(^|[^\\p{L}\\p{N}])(${words.map(escape).join("|")})($|[^\\p{L}\\p{N}])`, "u") : null;
  const hosts = [...new Set(domains.map((d) => d.toLowerCase().replace(/^www\./, "")))];
  return (a) => {
    const domain = a.sourceDomain.toLowerCase().replace(/^www\./, "");
    if (hosts.some((h) => domain === h || domain.endsWith(`.${h}`))) return true;
    return pattern !== null && (pattern.test(a.title) || pattern.test(a.snippet));
  };
}

/** Build the profile of one provider. */
export function providerProfile(input: ProfileInput): ProviderProfile {
  const { id, pricing, status, probe } = input;
  const name = pricing?.name ?? status?.name ?? probe?.name ?? id;
  const url = pricing?.url ?? null;
  const names = [name, ...(status ? [status.name] : []), ...(probe ? [probe.name] : []), ...providerNames(id).slice(1)];
  const domains = [...providerNames(id).filter((n) => n.includes(".")), ...(url && hostOf(url) ? [hostOf(url)!] : [])];
  const matches = newsMatcher(names, domains);
  const news = input.articles.filter(matches).sort((a, b) => (a.publishedAt < b.publishedAt ? 1 : a.publishedAt > b.publishedAt ? -1 : 0));

  const operatorBots = input.bots.filter((b) => resolveProviderName(b.operator) === id || providerNameKey(b.operator) === providerNameKey(id)).map((b) => b.token);
  const byBot = Object.fromEntries(operatorBots.filter((t) => (input.activity.by_bot[t] ?? 0) > 0).map((t) => [t, input.activity.by_bot[t]!]));

  const models = [...(pricing?.models ?? [])]
    .sort((a, b) => TIER_ORDER[a.tier] - TIER_ORDER[b.tier] || (a.releaseDate < b.releaseDate ? 1 : a.releaseDate > b.releaseDate ? -1 : 0) || (a.id < b.id ? -1 : 1))
    .map((m) => ({
      id: m.id,
      name: m.name,
      tier: m.tier,
      pricing: { input: m.inputCostPer1M, output: m.outputCostPer1M, blended: blended(m.inputCostPer1M, m.outputCostPer1M), currency: "USD" as const, unit: "per 1M tokens" as const },
      context_window: m.contextWindow,
      released: m.releaseDate,
      capabilities: [...m.capabilities],
      benchmark_scores: { ...(input.scores.get(m.id) ?? {}) },
    }));

  return {
    ok: true,
    provider: { id, name, url },
    status: status
      ? { state: status.status, status_page_url: status.statusPageUrl, last_checked: input.statusCheckedAt, components: status.components.map((c) => ({ name: c.name, status: c.status })) }
      : { state: "unknown", status_page_url: pricing?.statusPageUrl ?? null, last_checked: null, components: [] },
    models,
    recent_news: news.slice(0, NEWS_LIMIT).map((a) => ({ title: a.title, url: a.url, published_at: a.publishedAt })),
    recent_news_count: news.length,
    agent_traffic_24h: { requests: Object.values(byBot).reduce((s, n) => s + n, 0), by_bot: byBot, day: input.activity.day, operator_bots: operatorBots },
  };
}
