/**
 * Questions a researcher can ask the warehouse, each with its SQL and the columns it answers with. The SQL
 * names the declared tables (pipelines/contract/warehouse-tables.ts) as they appear in warehouse.duckdb or as
 * views over the served Parquet files, so it runs unchanged either way. snapshots/warehouse/README.md and
 * GET /api/warehouse show them; a test runs each against the bundled data and checks its rows and columns.
 */

/** One example question. */
export interface WarehouseExample {
  /** Short stable id (kebab-case). */
  id: string;
  question: string;
  /** DuckDB SQL over the declared tables; one statement, no trailing semicolon. */
  sql: string;
  /** The columns the answer has, in order. */
  columns: readonly string[];
}

/** The example questions, in the order the README lists them. */
export const WAREHOUSE_EXAMPLES: readonly WarehouseExample[] = [
  {
    id: "cheapest-models",
    question: "Which models cost least per 1M output tokens on the latest day, and who states each price?",
    sql: `SELECT model_id, provider, source, input_per_1m, output_per_1m, observed_at
FROM model_prices
WHERE date = (SELECT max(date) FROM model_prices) AND output_per_1m IS NOT NULL
ORDER BY output_per_1m, input_per_1m, model_id, source
LIMIT 10`,
    columns: ["model_id", "provider", "source", "input_per_1m", "output_per_1m", "observed_at"],
  },
  {
    id: "price-disagreements",
    question: "On which days and models do our curated catalog and the aggregator disagree on a price, and when did each observe it?",
    sql: `SELECT c.date, c.model_id,
  c.input_per_1m AS curated_input, a.input_per_1m AS aggregator_input,
  c.output_per_1m AS curated_output, a.output_per_1m AS aggregator_output,
  c.observed_at AS curated_observed_at, a.observed_at AS aggregator_observed_at
FROM model_prices c
JOIN model_prices a ON a.date = c.date AND a.model_id = c.model_id AND a.source = 'aggregator'
WHERE c.source = 'curated'
  AND (c.input_per_1m IS DISTINCT FROM a.input_per_1m OR c.output_per_1m IS DISTINCT FROM a.output_per_1m)
ORDER BY c.date DESC, c.model_id`,
    columns: ["date", "model_id", "curated_input", "aggregator_input", "curated_output", "aggregator_output", "curated_observed_at", "aggregator_observed_at"],
  },
  {
    id: "provider-latency",
    question: "Which providers' APIs answered slowest per day (median time to first byte), and how many probes failed?",
    sql: `SELECT date, provider, count(*) AS probes,
  round(median(ttfb_ms), 1) AS median_ttfb_ms,
  round(quantile_cont(ttfb_ms, 0.95), 1) AS p95_ttfb_ms,
  count(*) FILTER (WHERE NOT ok) AS failed
FROM probe_samples
GROUP BY date, provider
ORDER BY date DESC, median_ttfb_ms DESC NULLS LAST, provider`,
    columns: ["date", "provider", "probes", "median_ttfb_ms", "p95_ttfb_ms", "failed"],
  },
  {
    id: "cheapest-gpu-hour",
    question: "Where is each GPU cheapest per on-demand hour on the latest day, and how many offers are there?",
    sql: `SELECT gpu, arg_min(marketplace, min_usd) AS marketplace, min(min_usd) AS cheapest_usd_per_hour,
  sum(offers) AS offers
FROM gpu_prices
WHERE type = 'on_demand' AND date = (SELECT max(date) FROM gpu_prices)
GROUP BY gpu
ORDER BY cheapest_usd_per_hour, gpu`,
    columns: ["gpu", "marketplace", "cheapest_usd_per_hour", "offers"],
  },
  {
    id: "best-per-benchmark",
    question: "Which model leads each benchmark on the latest day, and what does it cost per 1M output tokens in our catalog?",
    sql: `WITH latest AS (
  SELECT * FROM benchmark_scores WHERE date = (SELECT max(date) FROM benchmark_scores)
), leaders AS (
  SELECT benchmark, arg_max(model_id, score) AS model_id, max(score) AS score FROM latest GROUP BY benchmark
)
SELECT l.benchmark, l.model_id, l.score, p.output_per_1m AS curated_output_per_1m
FROM leaders l
LEFT JOIN model_prices p ON p.model_id = l.model_id AND p.source = 'curated'
  AND p.date = (SELECT max(date) FROM model_prices)
ORDER BY l.benchmark`,
    columns: ["benchmark", "model_id", "score", "curated_output_per_1m"],
  },
  {
    id: "exploited-package-advisories",
    question: "Which packages of the security cohort carry an advisory whose CVE is exploited in the wild (CISA KEV) on the latest day, and what is their latest release?",
    sql: `SELECT a.ecosystem, a.package, a.advisory_id, a.severity, a.cve_ids, v.latest_version
FROM package_advisories_daily a
LEFT JOIN package_versions_daily v ON v.date = a.date AND v.ecosystem = a.ecosystem AND v.package = a.package
WHERE a.date = (SELECT max(date) FROM package_advisories_daily) AND a.on_kev AND NOT a.withdrawn
ORDER BY a.ecosystem, a.package, a.advisory_id`,
    columns: ["ecosystem", "package", "advisory_id", "severity", "cve_ids", "latest_version"],
  },
];
