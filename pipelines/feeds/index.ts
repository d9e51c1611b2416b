/**
 * The feed registry: every snapshot type the pipelines build, keyed by type (the folder under snapshots/).
 * The runner, the scheduler and `--list-urls` all read this one list; a key must equal its feed's `type`.
 */
import type { Feed } from "../lib/types.ts";
import { aftaAdoptersFeed } from "./afta-adopters.ts";
import { agentsFeed } from "./agents.ts";
import { aggregatorModelsFeed } from "./aggregator-models.ts";
import { benchmarksFeed } from "./benchmarks.ts";
import { embeddingsFeed } from "./embeddings.ts";
import { forumTrendingFeed } from "./forum-trending.ts";
import { gpuPricingFeed } from "./gpu-pricing.ts";
import { inferenceProvidersFeed } from "./inference-providers.ts";
import { issuesHotFeed } from "./issues-hot.ts";
import { mcpRegistryFeed } from "./mcp-registry.ts";
import { modelDeprecationsFeed } from "./model-deprecations.ts";
import { modelhubTrendingFeed } from "./modelhub-trending.ts";
import { newsFeed } from "./news.ts";
import { papersAiTrendingFeed } from "./papers-ai-trending.ts";
import { papersModelhubDailyFeed } from "./papers-modelhub-daily.ts";
import { papersPreprintRecentFeed } from "./papers-preprint-recent.ts";
import { podcastsFeed } from "./podcasts.ts";
import { pricingFeed } from "./pricing.ts";
import { probeFeed } from "./probe.ts";
import { statusFeed } from "./status.ts";
import { trendingReposFeed } from "./trending-repos.ts";
import { vectorDbsFeed } from "./vector-dbs.ts";
import { weatherAlertsFeed } from "./weather-alerts.ts";
import { securityAdvisoriesFeed } from "./security-advisories.ts";
import { webReadinessFeed } from "./web-readiness.ts";
import { secFilingsFeed } from "./sec-filings.ts";
import { secFilingSectionsFeed } from "./sec-filing-sections.ts";
import { aiCapexFeed } from "./ai-capex.ts";
import { fundingPortfolioFeed } from "./funding-portfolio.ts";

export const feeds = {
  news: newsFeed,
  status: statusFeed,
  pricing: pricingFeed,
  benchmarks: benchmarksFeed,
  agents: agentsFeed,
  embeddings: embeddingsFeed,
  "vector-dbs": vectorDbsFeed,
  "gpu-pricing": gpuPricingFeed,
  "mcp-registry": mcpRegistryFeed,
  probe: probeFeed,
  "papers-ai-trending": papersAiTrendingFeed,
  "papers-preprint-recent": papersPreprintRecentFeed,
  "modelhub-trending": modelhubTrendingFeed,
  "issues-hot": issuesHotFeed,
  "forum-trending": forumTrendingFeed,
  "aggregator-models": aggregatorModelsFeed,
  "papers-modelhub-daily": papersModelhubDailyFeed,
  podcasts: podcastsFeed,
  "trending-repos": trendingReposFeed,
  "model-deprecations": modelDeprecationsFeed,
  "afta-adopters": aftaAdoptersFeed,
  "weather-alerts": weatherAlertsFeed,
  "inference-providers": inferenceProvidersFeed,
  "web-readiness": webReadinessFeed,
  "security-advisories": securityAdvisoriesFeed,
  "sec-filings": secFilingsFeed,
  "sec-filing-sections": secFilingSectionsFeed,
  "ai-capex": aiCapexFeed,
  "funding-portfolio": fundingPortfolioFeed,
} satisfies Record<string, Feed>;
