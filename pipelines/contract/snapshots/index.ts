/**
 * Every snapshot type of the contract, keyed by type (the folder under snapshots/). The feed registry
 * (pipelines/feeds/index.ts) builds one feed per entry; the API reads each type against the schema here.
 */
import type { SnapshotType } from "../snapshot-type.ts";
import { aftaAdoptersSnapshotType } from "./afta-adopters.ts";
import { agentsSnapshotType } from "./agents.ts";
import { aggregatorModelsSnapshotType } from "./aggregator-models.ts";
import { benchmarksSnapshotType } from "./benchmarks.ts";
import { embeddingsSnapshotType } from "./embeddings.ts";
import { forumTrendingSnapshotType } from "./forum-trending.ts";
import { gpuPricingSnapshotType } from "./gpu-pricing.ts";
import { inferenceProvidersSnapshotType } from "./inference-providers.ts";
import { issuesHotSnapshotType } from "./issues-hot.ts";
import { mcpRegistrySnapshotType } from "./mcp-registry.ts";
import { modelDeprecationsSnapshotType } from "./model-deprecations.ts";
import { modelhubTrendingSnapshotType } from "./modelhub-trending.ts";
import { newsSnapshotType } from "./news.ts";
import { papersAiTrendingSnapshotType } from "./papers-ai-trending.ts";
import { papersModelhubDailySnapshotType } from "./papers-modelhub-daily.ts";
import { papersPreprintRecentSnapshotType } from "./papers-preprint-recent.ts";
import { podcastsSnapshotType } from "./podcasts.ts";
import { pricingSnapshotType } from "./pricing.ts";
import { probeSnapshotType } from "./probe.ts";
import { statusSnapshotType } from "./status.ts";
import { trendingReposSnapshotType } from "./trending-repos.ts";
import { vectorDbsSnapshotType } from "./vector-dbs.ts";
import { weatherAlertsSnapshotType } from "./weather-alerts.ts";
import { securityAdvisoriesSnapshotType } from "./security-advisories.ts";
import { secFilingsSnapshotType } from "./sec-filings.ts";
import { secFilingSectionsSnapshotType } from "./sec-filing-sections.ts";
import { aiCapexSnapshotType } from "./ai-capex.ts";
import { fundingPortfolioSnapshotType } from "./funding-portfolio.ts";
import { webReadinessSnapshotType } from "./web-readiness.ts";

export const snapshotTypes = {
  "afta-adopters": aftaAdoptersSnapshotType,
  agents: agentsSnapshotType,
  "aggregator-models": aggregatorModelsSnapshotType,
  benchmarks: benchmarksSnapshotType,
  embeddings: embeddingsSnapshotType,
  "forum-trending": forumTrendingSnapshotType,
  "gpu-pricing": gpuPricingSnapshotType,
  "inference-providers": inferenceProvidersSnapshotType,
  "issues-hot": issuesHotSnapshotType,
  "mcp-registry": mcpRegistrySnapshotType,
  "model-deprecations": modelDeprecationsSnapshotType,
  "modelhub-trending": modelhubTrendingSnapshotType,
  news: newsSnapshotType,
  "papers-ai-trending": papersAiTrendingSnapshotType,
  "papers-modelhub-daily": papersModelhubDailySnapshotType,
  "papers-preprint-recent": papersPreprintRecentSnapshotType,
  podcasts: podcastsSnapshotType,
  pricing: pricingSnapshotType,
  probe: probeSnapshotType,
  "security-advisories": securityAdvisoriesSnapshotType,
  "sec-filings": secFilingsSnapshotType,
  "sec-filing-sections": secFilingSectionsSnapshotType,
  "ai-capex": aiCapexSnapshotType,
  "funding-portfolio": fundingPortfolioSnapshotType,
  status: statusSnapshotType,
  "trending-repos": trendingReposSnapshotType,
  "vector-dbs": vectorDbsSnapshotType,
  "weather-alerts": weatherAlertsSnapshotType,
  "web-readiness": webReadinessSnapshotType,
} satisfies Record<string, SnapshotType>;

/** A snapshot type name. */
export type SnapshotTypeName = keyof typeof snapshotTypes;
