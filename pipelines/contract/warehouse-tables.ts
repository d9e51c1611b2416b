/**
 * The warehouse contract: every table under snapshots/warehouse/<table>/<date>.parquet, declared once with its
 * key and each column's DuckDB type and meaning. Writers cast to these types and refuse rows that do not fit;
 * readers (the API, researchers) rely on them. A column that is not nullable is NOT NULL in warehouse.duckdb too,
 * so a column added to a table that already has partitions must be nullable: the older days' files lack it.
 * This folder imports nothing else of pipelines/.
 */
import { z } from "zod";

/** The DuckDB types a warehouse column may have. */
export const warehouseColumnType = z.enum(["BOOLEAN", "BIGINT", "DOUBLE", "VARCHAR", "DATE", "TIMESTAMPTZ"]);
export type WarehouseColumnType = z.infer<typeof warehouseColumnType>;

const sqlName = z.string().regex(/^[a-z][a-z0-9_]*$/, "a lower-case SQL identifier");

/** One column: its name, DuckDB type, whether NULL is allowed and what it means. */
export const warehouseColumn = z.strictObject({
  name: sqlName,
  type: warehouseColumnType,
  nullable: z.boolean(),
  description: z.string().min(1),
});
export type WarehouseColumn = z.infer<typeof warehouseColumn>;

/** One table: the key that identifies a row within one day's partition, and its columns in file order. */
export const warehouseTable = z
  .strictObject({
    name: sqlName,
    description: z.string().min(1),
    /** The snapshot type whose feed writes this table. */
    feed: z.string().min(1),
    key: z.array(sqlName).min(1),
    columns: z.array(warehouseColumn).min(1),
  })
  .superRefine((t, ctx) => {
    const names = t.columns.map((c) => c.name);
    const dup = names.find((n, i) => names.indexOf(n) !== i);
    if (dup) ctx.addIssue({ code: "custom", message: `table ${t.name}: column ${dup} is declared twice` });
    for (const k of t.key) {
      const col = t.columns.find((c) => c.name === k);
      if (!col) ctx.addIssue({ code: "custom", message: `table ${t.name}: key column ${k} is not declared` });
      else if (col.nullable) ctx.addIssue({ code: "custom", message: `table ${t.name}: key column ${k} must not be nullable` });
    }
  });
export type WarehouseTable = z.infer<typeof warehouseTable>;

/** Table name → declaration. */
export type WarehouseTables = Readonly<Record<string, WarehouseTable>>;

type ColumnSpec = [name: string, type: WarehouseColumnType, nullable: "null" | "not null", description: string];

function table(name: string, feed: string, description: string, key: string[], columns: ColumnSpec[]): WarehouseTable {
  return warehouseTable.parse({
    name,
    feed,
    description,
    key,
    columns: columns.map(([n, type, nullable, desc]) => ({ name: n, type, nullable: nullable === "null", description: desc })),
  });
}

const DATE_COLUMN: ColumnSpec = ["date", "DATE", "not null", "UTC day of the partition (the day the row was observed)"];

/** Every warehouse table, by name. */
export const WAREHOUSE_TABLES = {
  model_prices: table(
    "model_prices",
    "pricing",
    "Per-model token prices in USD per 1M tokens: the curated catalog price and, where matched, the aggregator's.",
    ["date", "model_id", "source"],
    [
      DATE_COLUMN,
      ["provider", "VARCHAR", "not null", "Provider id from the catalog (openai, anthropic …)"],
      ["model_id", "VARCHAR", "not null", "Model id as served by /api/models"],
      ["input_per_1m", "DOUBLE", "null", "Input price, USD per 1M tokens"],
      ["output_per_1m", "DOUBLE", "null", "Output price, USD per 1M tokens"],
      ["context_window", "BIGINT", "null", "Context window in tokens"],
      ["source", "VARCHAR", "not null", "Who states the price: curated (our catalog) or aggregator"],
      ["source_url", "VARCHAR", "null", "Where the price was read: the provider's pricing page (curated) or the aggregator's model list"],
      [
        "observed_at",
        "TIMESTAMPTZ",
        "null",
        "When the source stated the price: the catalog's check date at 00:00 UTC (curated), the capture time of the run (aggregator); NULL in rows written before this column existed",
      ],
    ],
  ),
  aggregator_models_daily: table(
    "aggregator_models_daily",
    "aggregator-models",
    "Every model the aggregator lists, with its prices, once per day.",
    ["date", "model_id"],
    [
      DATE_COLUMN,
      ["model_id", "VARCHAR", "not null", "Aggregator model id (namespace/name)"],
      ["namespace", "VARCHAR", "not null", "The part of the id before the slash"],
      ["input_per_1m", "DOUBLE", "null", "Input price, USD per 1M tokens (NULL when unpriced)"],
      ["output_per_1m", "DOUBLE", "null", "Output price, USD per 1M tokens (NULL when unpriced)"],
      ["context_length", "BIGINT", "null", "Context length in tokens"],
    ],
  ),
  modelhub_daily: table(
    "modelhub_daily",
    "modelhub-trending",
    "The model hub's top 30 models and datasets by downloads and top 30 Spaces by likes, once per day (a listing that failed that day has no rows).",
    ["date", "kind", "id"],
    [
      DATE_COLUMN,
      ["kind", "VARCHAR", "not null", "Which listing: model, dataset or space"],
      ["id", "VARCHAR", "not null", "Repo id on the hub (owner/name, or a legacy name without owner)"],
      ["rank", "BIGINT", "not null", "1-based position in that day's listing (by downloads for models and datasets, by likes for Spaces)"],
      ["downloads", "BIGINT", "null", "Downloads as the hub counts them (its rolling 30-day figure); NULL for Spaces, which have none"],
      ["likes", "BIGINT", "not null", "Likes"],
    ],
  ),
  benchmark_scores: table(
    "benchmark_scores",
    "benchmarks",
    "Benchmark scores per model as the curated benchmark catalog states them on that day.",
    ["date", "benchmark", "model_id"],
    [
      DATE_COLUMN,
      ["benchmark", "VARCHAR", "not null", "Benchmark id"],
      ["model_id", "VARCHAR", "not null", "Model id"],
      ["score", "DOUBLE", "not null", "Score in the benchmark's own unit"],
      ["source", "VARCHAR", "not null", "URL or name of the source that reported the score"],
      ["reported_date", "DATE", "not null", "The day the source reported the score"],
    ],
  ),
  gpu_prices: table(
    "gpu_prices",
    "gpu-pricing",
    "GPU rental prices per GPU-hour in USD, aggregated per GPU, marketplace and offer type.",
    ["date", "gpu", "marketplace", "type"],
    [
      DATE_COLUMN,
      ["gpu", "VARCHAR", "not null", "Canonical GPU id (H100-SXM, H100-PCIE, A100-80G, A100-40G …; SELECT DISTINCT gpu lists them)"],
      ["marketplace", "VARCHAR", "not null", "Marketplace id (vastai, tensordock, lambda, shadeform)"],
      ["type", "VARCHAR", "not null", "Offer type: on_demand or spot"],
      ["min_usd", "DOUBLE", "not null", "Cheapest offer, USD per GPU-hour"],
      ["median_usd", "DOUBLE", "not null", "Median offer, USD per GPU-hour"],
      ["max_usd", "DOUBLE", "not null", "Dearest offer, USD per GPU-hour"],
      ["offers", "BIGINT", "not null", "Number of offers"],
    ],
  ),
  mcp_registry_daily: table(
    "mcp_registry_daily",
    "mcp-registry",
    "Size of the MCP registry once per day.",
    ["date"],
    [
      DATE_COLUMN,
      ["count", "BIGINT", "not null", "Active servers (latest version per name)"],
      ["delta_1d", "BIGINT", "null", "Change since the previous day (NULL when that day has no snapshot)"],
    ],
  ),
  probe_samples: table(
    "probe_samples",
    "probe",
    "Every latency probe sample against provider API endpoints.",
    ["ts", "provider", "url"],
    [
      ["ts", "TIMESTAMPTZ", "not null", "When the sample was taken (UTC)"],
      DATE_COLUMN,
      ["provider", "VARCHAR", "not null", "Provider id"],
      ["url", "VARCHAR", "not null", "The probed URL"],
      ["status", "BIGINT", "null", "HTTP status (NULL when no answer)"],
      ["ok", "BOOLEAN", "not null", "Whether the endpoint answered as expected"],
      ["ttfb_ms", "DOUBLE", "null", "Time to first byte, ms (NULL when no answer)"],
      ["total_ms", "DOUBLE", "null", "Total request time, ms (NULL when no answer)"],
    ],
  ),
  status_samples: table(
    "status_samples",
    "status",
    "Each provider's status page as read by one status run.",
    ["ts", "provider"],
    [
      ["ts", "TIMESTAMPTZ", "not null", "When the status run read the pages (UTC)"],
      DATE_COLUMN,
      ["provider", "VARCHAR", "not null", "Provider id"],
      ["status", "VARCHAR", "not null", "Overall status: operational, degraded, down or unknown"],
      ["components_total", "BIGINT", "not null", "Components listed on the page"],
      ["components_degraded", "BIGINT", "not null", "Components degraded"],
      ["components_down", "BIGINT", "not null", "Components down"],
    ],
  ),
  inference_providers_daily: table(
    "inference_providers_daily",
    "inference-providers",
    "Every provider endpoint serving a catalog model on the aggregator, with its prices and last-30-minute performance, once per day (a later run of the day replaces the earlier).",
    ["date", "model_id", "tag"],
    [
      DATE_COLUMN,
      ["model_id", "VARCHAR", "not null", "Aggregator model id (author/slug)"],
      ["provider", "VARCHAR", "not null", "Provider name as the aggregator lists it (DeepInfra, Google AI Studio …)"],
      ["tag", "VARCHAR", "not null", "The aggregator's endpoint tag, unique per model (deepinfra/fp8, google-vertex …)"],
      ["input_per_1m", "DOUBLE", "null", "Input price, USD per 1M tokens (NULL when unpriced)"],
      ["output_per_1m", "DOUBLE", "null", "Output price, USD per 1M tokens (NULL when unpriced)"],
      ["throughput_tps", "DOUBLE", "null", "Median output tokens per second over the last 30 minutes (NULL when not stated)"],
      ["latency_ms", "DOUBLE", "null", "Median time to first token over the last 30 minutes, ms (NULL when not stated)"],
      ["uptime_pct", "DOUBLE", "null", "Successful requests over the last 30 minutes, percent (NULL when not stated)"],
      ["context_length", "BIGINT", "null", "Context length this provider serves, tokens"],
    ],
  ),
  web_readiness_daily: table(
    "web_readiness_daily",
    "web-readiness",
    "Each curated domain's robots.txt status and agent-facing surfaces as the weekly crawl found them (a later run of the day replaces the earlier).",
    ["date", "domain"],
    [
      DATE_COLUMN,
      ["domain", "VARCHAR", "not null", "Crawled domain"],
      ["sector", "VARCHAR", "not null", "Sector of the curated list"],
      ["robots_status", "VARCHAR", "not null", "robots.txt: present, missing (4xx) or unreachable"],
      ["llms_txt", "VARCHAR", "not null", "/llms.txt: present, absent or unknown"],
      ["llms_txt_bytes", "BIGINT", "null", "Size of /llms.txt in bytes when present"],
      ["ai_txt", "VARCHAR", "not null", "/ai.txt: present, absent or unknown"],
      ["agent_json", "VARCHAR", "not null", "/.well-known/agent.json: present, absent or unknown"],
      ["openapi", "VARCHAR", "not null", "/openapi.json: present, absent or unknown"],
      ["x402", "VARCHAR", "not null", "/.well-known/x402 discovery: present, absent or unknown"],
    ],
  ),
  web_bot_access_daily: table(
    "web_bot_access_daily",
    "web-readiness",
    "Each known AI crawler's access to each curated domain as its robots.txt states it (policy, not enforcement).",
    ["date", "domain", "bot"],
    [
      DATE_COLUMN,
      ["domain", "VARCHAR", "not null", "Crawled domain"],
      ["bot", "VARCHAR", "not null", "AI crawler product token (GPTBot, ClaudeBot …)"],
      ["access", "VARCHAR", "not null", "allowed, blocked, partial or unknown"],
    ],
  ),
  package_versions_daily: table(
    "package_versions_daily",
    "security-advisories",
    "Each security-cohort package's latest release as its registry (npm, PyPI) stated it that day; the stack-drift verdict reads new major releases from it.",
    ["date", "ecosystem", "package"],
    [
      DATE_COLUMN,
      ["ecosystem", "VARCHAR", "not null", "npm or PyPI"],
      ["package", "VARCHAR", "not null", "Package name as the registry spells it"],
      ["latest_version", "VARCHAR", "null", "Latest release (npm dist-tags.latest, PyPI info.version); null when the registry failed"],
      ["latest_major", "VARCHAR", "null", "Major release line of latest_version (npm SemVer major; PyPI first release segment, epoch-qualified)"],
      ["versions", "BIGINT", "not null", "Published versions counted"],
      ["latest_deprecated", "BOOLEAN", "not null", "Latest release deprecated (npm) or yanked (PyPI)"],
    ],
  ),
  package_advisories_daily: table(
    "package_advisories_daily",
    "security-advisories",
    "One row per package and OSV advisory naming it, as held that day (cohort vulnerabilities and recent malicious-package advisories).",
    ["date", "ecosystem", "package", "advisory_id"],
    [
      DATE_COLUMN,
      ["ecosystem", "VARCHAR", "not null", "npm or PyPI"],
      ["package", "VARCHAR", "not null", "Affected package"],
      ["advisory_id", "VARCHAR", "not null", "OSV id (GHSA-…, PYSEC-…, MAL-…)"],
      ["kind", "VARCHAR", "not null", "vulnerability or malicious"],
      ["severity", "VARCHAR", "not null", "critical, high, medium, low or unknown"],
      ["cve_ids", "VARCHAR", "not null", "CVE ids, comma-separated (empty when none)"],
      ["on_kev", "BOOLEAN", "not null", "A CVE of the advisory is in the CISA KEV catalog"],
      ["published", "TIMESTAMPTZ", "not null", "When the advisory was first published"],
      ["withdrawn", "BOOLEAN", "not null", "The advisory has been withdrawn"],
    ],
  ),
  preprints_daily: table(
    "preprints_daily",
    "papers-preprint-recent",
    "Every preprint of the day's four category listings (cs.AI, cs.LG, cs.CL, cs.CV; before the snapshot's cut to 50), with its deterministic classification and the rule behind each label; the research endpoints read a year of it.",
    ["date", "preprint_id"],
    [
      DATE_COLUMN,
      ["preprint_id", "VARCHAR", "not null", "arXiv id without version"],
      ["published", "DATE", "not null", "UTC day of the first submission"],
      ["title", "VARCHAR", "not null", "Sanitized title"],
      ["summary", "VARCHAR", "not null", "Sanitized abstract, clipped to 500 characters"],
      ["primary_category", "VARCHAR", "not null", "arXiv primary category"],
      ["authors", "VARCHAR", "not null", "First authors, '; '-separated (at most 10)"],
      ["affiliations", "VARCHAR", "not null", "Author affiliations as arXiv lists them, '; '-separated (empty when none)"],
      ["affiliation_types", "VARCHAR", "not null", "Type of each affiliation in order, '; '-separated"],
      ["affiliation_type", "VARCHAR", "not null", "industry, academia, government, nonprofit, mixed or unknown"],
      ["subfield_tag", "VARCHAR", "not null", "One of the 21 subfield tags"],
      ["subfield_rule", "VARCHAR", "not null", "The rule and phrases that chose the subfield"],
      ["methodology_bucket", "VARCHAR", "not null", "One of the 12 methodology buckets"],
      ["methodology_rule", "VARCHAR", "not null", "The rule and phrases that chose the bucket"],
      ["milestone", "BOOLEAN", "not null", "Milestone candidate"],
      ["milestone_reasoning", "VARCHAR", "null", "Why it is a milestone candidate"],
      ["keywords", "VARCHAR", "not null", "Distinct title and abstract terms and adjacent pairs, stopwords out, '|'-separated (pipelines/lib/research/keywords.ts)"],
      ["url", "VARCHAR", "not null", "Abstract page"],
    ],
  ),
  x402_publishers_daily: table(
    "x402_publishers_daily",
    "web-readiness",
    "The payee wallets each crawled domain's x402 discovery document (/.well-known/x402, v1 or v2) and the 402 challenges of its own listed resources name, per crawl: the x402 publisher registry.",
    ["date", "domain", "pay_to", "network"],
    [
      DATE_COLUMN,
      ["domain", "VARCHAR", "not null", "Crawled domain"],
      ["pay_to", "VARCHAR", "not null", "Payee wallet (checksummed EVM address)"],
      ["network", "VARCHAR", "not null", "CAIP-2 chain id (eip155:8453 is Base), or the v1 network name when unknown"],
      ["source", "VARCHAR", "null", "Where the crawl read it: discovery (the /.well-known/x402 document), challenge (a 402 answer of one of the site's resources: x402 v2 PAYMENT-REQUIRED header or v1 body) or both; NULL in crawls before it was recorded"],
    ],
  ),
  x402_registry_daily: table(
    "x402_registry_daily",
    "web-readiness",
    "Each crawled domain's x402 discovery document per crawl: read (ok) or unreachable (error), what it offers and the networks it names; a domain without one has no row. The x402 registry series reads it.",
    ["date", "domain"],
    [
      DATE_COLUMN,
      ["domain", "VARCHAR", "not null", "Crawled domain"],
      ["status", "VARCHAR", "not null", "ok (the document was read) or error (the fetch failed: not known this crawl)"],
      ["paid_endpoints", "BIGINT", "null", "Resources with a payment option of a positive amount (NULL on error, or when the crawl did not record the document's resources)"],
      ["free_endpoints", "BIGINT", "null", "Resources offered without payment (NULL on error, or when the crawl did not record the document's resources)"],
      ["federated", "BOOLEAN", "null", "The document lists resources on other sites (NULL on error, or when the crawl did not record the document's resources)"],
      ["networks", "VARCHAR", "null", "CAIP-2 networks its payment options name, sorted, comma-separated (NULL on error, or when the crawl did not record the document's resources)"],
      ["agent_fair_trade", "BOOLEAN", "null", "The domain serves a valid /.well-known/agent-fair-trade.json (NULL when not known)"],
    ],
  ),
  ai_capex_annual: table(
    "ai_capex_annual",
    "ai-capex",
    "Annual capital expenditure of each company of the AI-companies cohort as filed to the SEC in XBRL (annual reports, one figure per fiscal year, restatements applied), per run; the capex-cycle verdict reads the same figures from the snapshot.",
    ["date", "ticker", "fiscal_year"],
    [
      DATE_COLUMN,
      ["ticker", "VARCHAR", "not null", "Cohort ticker (NVDA, GOOGL …)"],
      ["cik", "VARCHAR", "not null", "SEC CIK, ten digits"],
      ["fiscal_year", "BIGINT", "not null", "Calendar year holding the middle of the fiscal period"],
      ["period_start", "DATE", "not null", "First day of the fiscal period"],
      ["period_end", "DATE", "not null", "Last day of the fiscal period"],
      ["capex_usd", "BIGINT", "not null", "Capital expenditure over the period, whole US dollars as filed"],
      ["concept", "VARCHAR", "not null", "us-gaap concept of the figure: PaymentsToAcquirePropertyPlantAndEquipment or PaymentsToAcquireProductiveAssets"],
      ["form", "VARCHAR", "not null", "Form of the filing that states it (10-K, 20-F or an amendment)"],
      ["accession_number", "VARCHAR", "not null", "Accession number of that filing"],
      ["filed", "DATE", "not null", "Day that filing was filed"],
      ["status", "VARCHAR", "not null", "ok (read this run) or failed (EDGAR could not be read; the figure is the previous run's)"],
    ],
  ),
} as const satisfies WarehouseTables;

/** The name of a declared warehouse table. */
export type WarehouseTableName = keyof typeof WAREHOUSE_TABLES;
