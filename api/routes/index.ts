/**
 * Every route family, in the order /api/meta, OpenAPI and /llms.txt list them. Adding a family here is all
 * it takes for routing, validation, the documents and the end-to-end tests to cover it.
 */
import type { AnyRoute } from "../app.ts";
import { aftaAdoptersRoutes } from "./afta-adopters.ts";
import { agentsCompactRoutes } from "./agents-compact.ts";
import { agentsDirectoryRoutes } from "./agents-directory.ts";
import { aggregatorRoutes } from "./aggregator.ts";
import { benchmarksRoutes } from "./benchmarks.ts";
import { docsPageRoutes } from "./docs-page.ts";
import { mcpRoutes } from "./mcp.ts";
import { dashboardRoutes } from "./dashboard.ts";
import { embeddingsRoutes } from "./embeddings.ts";
import { forumRoutes } from "./forum.ts";
import { gpuRoutes } from "./gpu.ts";
import { healthRoutes } from "./health.ts";
import { historyRoutes } from "./history.ts";
import { issuesRoutes } from "./issues.ts";
import { mcpRegistryRoutes } from "./mcp-registry.ts";
import { metaRoutes } from "./meta.ts";
import { modelDeprecationsRoutes } from "./model-deprecations.ts";
import { modelhubRoutes } from "./modelhub.ts";
import { modelsRoutes } from "./models.ts";
import { newsRoutes } from "./news.ts";
import { papersRoutes } from "./papers.ts";
import { fairTradeRoutes } from "./fair-trade.ts";
import { paymentRoutes } from "./payment.ts";
import { podcastsRoutes } from "./podcasts.ts";
import { premiumCostRoutes } from "./premium-cost.ts";
import { premiumHistoryRoutes } from "./premium-history.ts";
import { premiumNewsSearchRoutes } from "./premium-news-search.ts";
import { premiumRoutingRoutes } from "./premium-routing.ts";
import { premiumSeriesRoutes } from "./premium-series.ts";
import { previewRoutingRoutes } from "./preview-routing.ts";
import { receiptRoutes } from "./receipts.ts";
import { probeRoutes } from "./probe.ts";
import { statusRoutes } from "./status.ts";
import { todayRoutes } from "./today.ts";
import { trendingReposRoutes } from "./trending-repos.ts";
import { vectorDbsRoutes } from "./vector-dbs.ts";
import { warehouseFilesRoutes } from "./warehouse-files.ts";
import { weatherAlertsRoutes } from "./weather-alerts.ts";
import { premiumRouteVerdictRoutes } from "./premium-route-verdict.ts";
import { premiumFailoverRoutes } from "./premium-failover.ts";
import { previewRouteVerdictRoutes } from "./preview-route-verdict.ts";
import { previewFailoverRoutes } from "./preview-failover.ts";
import { previewStackSafetyRoutes } from "./preview-stack-safety.ts";
import { premiumSecurityRoutes } from "./premium-security.ts";
import { premiumResearchRoutes } from "./premium-research.ts";
import { x402IndexRoutes } from "./x402-index.ts";
import { premiumProviderReliabilityRoutes } from "./premium-provider-reliability.ts";
import { premiumConcentrationRoutes } from "./premium-concentration.ts";
import { premiumProviderRoutes } from "./premium-provider.ts";
import { previewProviderReliabilityRoutes } from "./preview-provider-reliability.ts";
import { premiumBenchmarkTrustRoutes } from "./premium-benchmark-trust.ts";
import { premiumFrontierRoutes } from "./premium-frontier.ts";
import { premiumModelMigrationRoutes } from "./premium-model-migration.ts";
import { previewBenchmarkTrustRoutes } from "./preview-benchmark-trust.ts";
import { premiumWatchesRoutes } from "./premium-watches.ts";
import { premiumX402IndexRoutes } from "./premium-x402-index.ts";
import { premiumAiCompaniesRoutes } from "./premium-ai-companies.ts";
import { fundingRoutes } from "./funding.ts";
import { premiumCapexCycleRoutes } from "./premium-capex-cycle.ts";
import { premiumGuidanceDeltaRoutes } from "./premium-guidance-delta.ts";
import { previewGuidanceDeltaRoutes } from "./preview-guidance-delta.ts";
import { premiumX402RegistryRoutes } from "./premium-x402-registry.ts";
import { previewX402SettlementRoutes } from "./preview-x402-settlement.ts";
import { providersUptimeLeaderboardRoutes } from "./providers-uptime-leaderboard.ts";
import { premiumInferenceCostRoutes } from "./premium-inference-cost.ts";
import { premiumCompareRoutes } from "./premium-compare.ts";
import { premiumAgentsDirectoryRoutes } from "./premium-agents-directory.ts";
import { premiumWebReadinessRoutes } from "./premium-web-readiness.ts";
import { webReadinessSummaryRoutes } from "./web-readiness-summary.ts";

/** All route declarations of the service. */
export const allRoutes: readonly AnyRoute[] = [
  ...metaRoutes,
  ...docsPageRoutes,
  ...mcpRoutes,
  ...dashboardRoutes,
  ...healthRoutes,
  ...newsRoutes,
  ...agentsCompactRoutes,
  ...statusRoutes,
  ...modelsRoutes,
  ...benchmarksRoutes,
  ...agentsDirectoryRoutes,
  ...podcastsRoutes,
  ...trendingReposRoutes,
  ...embeddingsRoutes,
  ...vectorDbsRoutes,
  ...gpuRoutes,
  ...mcpRegistryRoutes,
  ...probeRoutes,
  ...papersRoutes,
  ...modelhubRoutes,
  ...issuesRoutes,
  ...forumRoutes,
  ...aggregatorRoutes,
  ...todayRoutes,
  ...historyRoutes,
  ...warehouseFilesRoutes,
  ...aftaAdoptersRoutes,
  ...modelDeprecationsRoutes,
  ...weatherAlertsRoutes,
  ...paymentRoutes,
  ...premiumRoutingRoutes,
  ...premiumCostRoutes,
  ...premiumNewsSearchRoutes,
  ...premiumHistoryRoutes,
  ...premiumSeriesRoutes,
  ...previewRoutingRoutes,
  ...receiptRoutes,
  ...fairTradeRoutes,
  ...premiumRouteVerdictRoutes,
  ...premiumFailoverRoutes,
  ...previewRouteVerdictRoutes,
  ...previewFailoverRoutes,
  ...previewStackSafetyRoutes,
  ...premiumProviderReliabilityRoutes,
  ...premiumConcentrationRoutes,
  ...premiumSecurityRoutes,
  ...premiumResearchRoutes,
  ...premiumProviderRoutes,
  ...previewProviderReliabilityRoutes,
  ...premiumBenchmarkTrustRoutes,
  ...premiumFrontierRoutes,
  ...premiumModelMigrationRoutes,
  ...previewBenchmarkTrustRoutes,
  ...premiumWatchesRoutes,
  ...providersUptimeLeaderboardRoutes,
  ...premiumInferenceCostRoutes,
  ...premiumCompareRoutes,
  ...premiumAgentsDirectoryRoutes,
  ...webReadinessSummaryRoutes,
  ...premiumWebReadinessRoutes,
  ...x402IndexRoutes,
  ...premiumX402IndexRoutes,
  ...premiumX402RegistryRoutes,
  ...previewX402SettlementRoutes,
  ...premiumAiCompaniesRoutes,
  ...fundingRoutes,
  ...premiumCapexCycleRoutes,
  ...premiumGuidanceDeltaRoutes,
  ...previewGuidanceDeltaRoutes,
];
