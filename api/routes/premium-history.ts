/**
 * The history series over the warehouse (api/warehouse/reader.ts): daily model prices, daily benchmark scores
 * and daily provider latency and uptime. Each reads its rows through the reader with one prepared statement and
 * decides in a pure function under api/verdicts/history-*.ts. Billing comes from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { perVersion } from "../warehouse/per-version.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { benchmarksHistory, type BenchmarksHistory, type ScoreRow } from "../verdicts/history-benchmarks.ts";
import { pricingSeries, type PriceRow, type PricingSeries } from "../verdicts/history-pricing.ts";
import { providerHistory, type ProbeDay, type ProviderHistory, type StatusDay } from "../verdicts/history-providers.ts";
import { addDays, MAX_RANGE_DAYS, RANGE_ERRORS, RANGE_RULE, resolveRange } from "../verdicts/history-range.ts";


/** A calendar date YYYY-MM-DD. */
const day = (what: string) =>
  z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, `${what} must be a date YYYY-MM-DD`)
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), `${what} is not a calendar date`)
    .optional();

const rangeQuery = {
  from: day("from").meta({ description: `First day, YYYY-MM-DD (inclusive). ${RANGE_RULE}` }),
  to: day("to").meta({ description: "Last day, YYYY-MM-DD (inclusive); default today (UTC)." }),
};

const id = (what: string, max = 200) =>
  z
    .string()
    .trim()
    .min(1, `${what} is required`)
    .max(max, `${what} is at most ${max} characters`)
    .regex(/^[\w.:/@+-]+$/, `${what} may hold letters, digits and . _ : / @ + - only`);

/** Query of GET /api/premium/history/pricing/series. */
export const PricingSeriesQuery = z.strictObject({
  model: id("model").meta({ description: "Model id as served by /api/models (case-insensitive), e.g. gpt-4o." }),
  ...rangeQuery,
});

/** Query of GET /api/premium/history/benchmarks/series. */
export const BenchmarksSeriesQuery = z.strictObject({
  model: id("model").meta({ description: "Model id as in /api/benchmarks (case-insensitive), e.g. claude-3-opus." }),
  benchmark: id("benchmark", 100)
    .optional()
    .meta({ description: "One benchmark id (case-insensitive), e.g. gpqa-diamond; omit for every benchmark the model has a score on in the range." }),
  ...rangeQuery,
});

/** Query of GET /api/premium/history/providers/series. */
export const ProvidersSeriesQuery = z.strictObject({
  provider: id("provider", 100).meta({ description: "Provider id as in /api/probe and /api/status (case-insensitive), e.g. openai." }),
  ...rangeQuery,
});

const Range = z.strictObject({ from: z.string(), to: z.string(), days: z.number().int().min(1).max(MAX_RANGE_DAYS) }).meta({ description: "The days covered, inclusive." });
const usd = z.number().nonnegative().nullable();
const datedBlend = z.strictObject({ date: z.string(), blended: z.number() }).nullable();
const notes = z.array(z.string()).meta({ description: "How to read the answer: missing days, disagreeing sources, definitions." });

/** Body of GET /api/premium/history/pricing/series (the billing wrapper adds billing). */
export const PricingSeriesResponse = z.strictObject({
  ok: z.literal(true),
  model: z.string().meta({ description: "The model id as the warehouse spells it." }),
  provider: z.string().nullable(),
  range: Range,
  points: z.array(
    z.strictObject({
      date: z.string(),
      has_data: z.boolean().meta({ description: "False when no price was captured that day; every figure is then null." }),
      input: usd.meta({ description: "Input price, USD per 1M tokens." }),
      output: usd.meta({ description: "Output price, USD per 1M tokens." }),
      blended: usd.meta({ description: "3:1 input:output blend, USD per 1M tokens." }),
      source: z.string().nullable().meta({ description: "Who stated the served price: curated (our catalog) or aggregator; the newest observation of the day is served." }),
      observed_at: z.string().nullable().meta({ description: "When that source observed the price (ISO UTC), when recorded." }),
    }),
  ),
  summary: z.strictObject({
    first: datedBlend.meta({ description: "First day with data and its blended price." }),
    latest: datedBlend.meta({ description: "Latest day with data and its blended price." }),
    min_blended: usd,
    max_blended: usd,
    delta_pct_blended: z.number().nullable().meta({ description: "(latest − first) / first × 100, 2 decimals; null without data or when first is 0." }),
    changes_detected: z.number().int().nonnegative().meta({ description: "Data days whose input or output price differs from the previous data day's." }),
    days_with_data: z.number().int().nonnegative(),
    days_missing: z.number().int().nonnegative(),
  }),
  notes,
});

const ScorePoint = z.strictObject({
  date: z.string(),
  has_data: z.boolean().meta({ description: "False when no score was captured that day; every figure is then null." }),
  score: z.number().nullable().meta({ description: "Score in the benchmark's own unit." }),
  reported_date: z.string().nullable().meta({ description: "The day the source reported the score." }),
  source: z.string().nullable().meta({ description: "URL or name of the source that reported it." }),
});

/** Body of GET /api/premium/history/benchmarks/series (the billing wrapper adds billing). */
export const BenchmarksSeriesResponse = z.strictObject({
  ok: z.literal(true),
  model: z.string(),
  benchmark: z.string().nullable().meta({ description: "The benchmark asked for, or null for every benchmark." }),
  range: Range,
  series: z.array(
    z.strictObject({
      benchmark: z.string(),
      points: z.array(ScorePoint),
      summary: z.strictObject({
        first: z.strictObject({ date: z.string(), score: z.number() }).nullable(),
        latest: z.strictObject({ date: z.string(), score: z.number() }).nullable(),
        delta: z.number().nullable().meta({ description: "latest − first score; null without data." }),
        changes_detected: z.number().int().nonnegative(),
        days_with_data: z.number().int().nonnegative(),
        days_missing: z.number().int().nonnegative(),
      }),
    }),
  ),
  summary: z.strictObject({
    benchmarks: z.number().int().nonnegative(),
    days_with_data: z.number().int().nonnegative().meta({ description: "Days with at least one score." }),
    days_missing: z.number().int().nonnegative(),
  }),
  notes,
});

const msFigure = (what: string) => z.number().nonnegative().nullable().meta({ description: `${what}, ms; null without probe samples that got an answer.` });

/** Body of GET /api/premium/history/providers/series (the billing wrapper adds billing). */
export const ProvidersSeriesResponse = z.strictObject({
  ok: z.literal(true),
  provider: z.string(),
  range: Range,
  points: z.array(
    z.strictObject({
      date: z.string(),
      has_data: z.boolean().meta({ description: "False when neither a probe nor a status sample was captured that day; every figure is then null." }),
      count: z.number().int().nonnegative().nullable().meta({ description: "Probe samples that day; null without any." }),
      ok_pct: z.number().min(0).max(100).nullable().meta({ description: "Share of probe samples that answered as expected, %." }),
      uptime_pct: z.number().min(0).max(100).nullable().meta({ description: "Share of status samples (status unknown left out) not down, %; null without status samples." }),
      ttfb_p50: msFigure("Time to first byte, 50th percentile"),
      ttfb_p95: msFigure("Time to first byte, 95th percentile"),
      ttfb_p99: msFigure("Time to first byte, 99th percentile"),
      total_p50: msFigure("Total request time, 50th percentile"),
      total_p95: msFigure("Total request time, 95th percentile"),
      total_p99: msFigure("Total request time, 99th percentile"),
      incident_hours: z.number().min(0).max(24).nullable().meta({ description: "Hours the status page showed degraded or down (each sample stands for at most 1 hour until the next)." }),
      status_samples: z.number().int().nonnegative().nullable().meta({ description: "Status samples that day; null without any." }),
    }),
  ),
  summary: z.strictObject({
    overall_uptime_pct: z.number().min(0).max(100).nullable().meta({ description: "Over every status sample of the range." }),
    overall_ok_pct: z.number().min(0).max(100).nullable().meta({ description: "Over every probe sample of the range." }),
    days_with_data: z.number().int().nonnegative(),
    days_with_incidents: z.number().int().nonnegative(),
    days_missing: z.number().int().nonnegative(),
  }),
  notes,
});

const NO_DATA = {
  outcomes: { no_data_in_range: "the subject is tracked, but the warehouse holds no data for it in the asked range (every point has has_data false)" },
};

function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** lower-case id → id as stored, for one table column (computed once per warehouse version). */
function knownIds(reader: WarehouseReader, table: "model_prices" | "benchmark_scores", column: "model_id" | "benchmark"): Promise<Map<string, string>> {
  return perVersion(reader, `${table}.${column}`, async () => {
    const rows = await reader.query<{ v: string }>(`SELECT DISTINCT "${column}" AS v FROM "${table}"`);
    return new Map(rows.map((r) => [r.v.toLowerCase(), r.v]));
  });
}

function knownProviders(reader: WarehouseReader): Promise<Map<string, string>> {
  return perVersion(reader, "providers", async () => {
    const rows = await reader.query<{ v: string }>("SELECT provider AS v FROM probe_daily UNION SELECT provider AS v FROM status_daily");
    return new Map(rows.map((r) => [r.v.toLowerCase(), r.v]));
  });
}

function notFound(code: string, what: string, asked: string, known: Map<string, string>, where: string): ApiError {
  const sample = [...known.values()].sort().slice(0, 20);
  return new ApiError(404, code, `${what} ${JSON.stringify(asked)} has no history in the warehouse; see ${where}`, { known_sample: sample });
}

const PRICE_ROWS = `SELECT date, provider, input_per_1m, output_per_1m, source, observed_at FROM model_prices
  WHERE model_id = ? AND date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)`;

/** Render GET /api/premium/history/pricing/series. */
export async function renderPricingSeries(ctx: RenderContext, query: z.infer<typeof PricingSeriesQuery>): Promise<PricingSeries> {
  const reader = warehouseOf(ctx);
  const range = resolveRange(query, ctx.now);
  const model = (await knownIds(reader, "model_prices", "model_id")).get(query.model.toLowerCase());
  if (!model) throw notFound("unknown_model", "model", query.model, await knownIds(reader, "model_prices", "model_id"), "/api/models");
  const rows = await reader.query<PriceRow & Record<string, string | number | null>>(PRICE_ROWS, [model, range.from, range.to]);
  return pricingSeries({ model, provider: null, range, rows });
}

/**
 * A model's scores in the range as runs of consecutive days with the same score, source and reported day (a
 * catalog score rarely changes, so 90 days × 5 benchmarks come back as a handful of rows), expanded to one row
 * per day by {@link scoreRowsOfRuns}.
 */
const scoreRuns = (oneBenchmark: boolean) => `SELECT benchmark, score, source, reported_date, min(date) AS first, max(date) AS last FROM (
  SELECT date, benchmark, score, source, reported_date,
    date - CAST(row_number() OVER (PARTITION BY benchmark, score, source, reported_date ORDER BY date) AS INTEGER) AS island
  FROM benchmark_scores WHERE model_id = ? AND date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)${oneBenchmark ? " AND benchmark = ?" : ""})
GROUP BY benchmark, score, source, reported_date, island`;
const SCORE_RUNS = scoreRuns(false);
const SCORE_RUNS_ONE = scoreRuns(true);

/** One row per day of each run. */
export function scoreRowsOfRuns(runs: readonly { benchmark: string; score: number; source: string; reported_date: string; first: string; last: string }[]): ScoreRow[] {
  const rows: ScoreRow[] = [];
  for (const run of runs) {
    for (let date = run.first; date <= run.last; date = addDays(date, 1)) {
      rows.push({ date, benchmark: run.benchmark, score: run.score, source: run.source, reported_date: run.reported_date });
    }
  }
  return rows;
}

/** Render GET /api/premium/history/benchmarks/series. */
export async function renderBenchmarksSeries(ctx: RenderContext, query: z.infer<typeof BenchmarksSeriesQuery>): Promise<BenchmarksHistory> {
  const reader = warehouseOf(ctx);
  const range = resolveRange(query, ctx.now);
  const models = await knownIds(reader, "benchmark_scores", "model_id");
  const model = models.get(query.model.toLowerCase());
  if (!model) throw notFound("unknown_model", "model", query.model, models, "/api/benchmarks");
  let benchmark: string | null = null;
  if (query.benchmark !== undefined) {
    const benchmarks = await knownIds(reader, "benchmark_scores", "benchmark");
    benchmark = benchmarks.get(query.benchmark.toLowerCase()) ?? null;
    if (!benchmark) throw notFound("unknown_benchmark", "benchmark", query.benchmark, benchmarks, "/api/benchmarks");
  }
  type Run = { benchmark: string; score: number; source: string; reported_date: string; first: string; last: string };
  const runs = benchmark
    ? await reader.query<Run>(SCORE_RUNS_ONE, [model, range.from, range.to, benchmark])
    : await reader.query<Run>(SCORE_RUNS, [model, range.from, range.to]);
  return benchmarksHistory({ model, benchmark, range, rows: scoreRowsOfRuns(runs) });
}

// The per-day rollups of api/warehouse/rollups.ts: 90 rows per provider for the longest range.
const PROBE_DAYS = `SELECT date, count, ok_count, ttfb_p50, ttfb_p95, ttfb_p99, total_p50, total_p95, total_p99
  FROM probe_daily WHERE provider = ? AND date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)`;
const STATUS_DAYS = `SELECT date, samples, known, up, incident_seconds
  FROM status_daily WHERE provider = ? AND date BETWEEN CAST(? AS DATE) AND CAST(? AS DATE)`;

/** Render GET /api/premium/history/providers/series. */
export async function renderProvidersSeries(ctx: RenderContext, query: z.infer<typeof ProvidersSeriesQuery>): Promise<ProviderHistory> {
  const reader = warehouseOf(ctx);
  const range = resolveRange(query, ctx.now);
  const providers = await knownProviders(reader);
  const provider = providers.get(query.provider.toLowerCase());
  if (!provider) throw notFound("unknown_provider", "provider", query.provider, providers, "/api/probe and /api/status");
  const params = [provider, range.from, range.to];
  const [probes, statuses] = await Promise.all([
    reader.query<ProbeDay & Record<string, string | number | null>>(PROBE_DAYS, params),
    reader.query<StatusDay & Record<string, string | number>>(STATUS_DAYS, params),
  ]);
  return providerHistory({ provider, range, probes, statuses });
}

/** The three history series routes. */
export const premiumHistoryRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/history/pricing/series",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Daily token prices of one model over up to 90 days (input, output, 3:1 blend), with first, latest, min, max, change count and % change.",
    description: [
      `Read from the warehouse table model_prices (one Parquet file per day). ${RANGE_RULE}`,
      "Per day the served price is the newest observation among the sources (largest observed_at; curated wins a tie); source and observed_at say which.",
      "A day without a captured price has has_data false and null figures, never a zero; a model the warehouse never priced is 404 unknown_model.",
      "blended = (3 × input + output) / 4, USD per 1M tokens. changes_detected counts data days whose input or output differs from the previous data day.",
      "A range with no data at all is answered 200 and not charged (no_data_in_range); so is any call while the pricing snapshot, whose feed writes the table, is stale.",
    ].join(" "),
    tags: ["premium", "history", "models"],
    query: PricingSeriesQuery,
    response: PricingSeriesResponse,
    errors: { 400: RANGE_ERRORS, 404: "the model has no price in the warehouse (unknown_model)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["pricing"],
    example: "/api/premium/history/pricing/series?model=gpt-4o",
    noCharge: { ...NO_DATA, check: (body) => (body.summary.days_with_data === 0 ? "no_data_in_range" : null) },
    render: (ctx, { query }) => renderPricingSeries(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/history/benchmarks/series",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Daily benchmark scores of one model over up to 90 days, one series per benchmark (or the one asked for), with first, latest, delta and change count.",
    description: [
      `Query: model (required) and benchmark (optional; omit for every benchmark the model has a score on in the range). ${RANGE_RULE}`,
      "Read from the warehouse table benchmark_scores: the scores the curated benchmark catalog stated on each day, with the day the source reported them.",
      "A day without a score has has_data false and null figures; an unknown model or benchmark is 404 (unknown_model, unknown_benchmark).",
      "A range with no score at all is answered 200 and not charged (no_data_in_range); so is any call while the benchmarks snapshot, whose feed writes the table, is stale.",
    ].join(" "),
    tags: ["premium", "history", "benchmarks"],
    query: BenchmarksSeriesQuery,
    response: BenchmarksSeriesResponse,
    errors: { 400: RANGE_ERRORS, 404: "the model or benchmark has no score in the warehouse (unknown_model, unknown_benchmark)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["benchmarks"],
    example: "/api/premium/history/benchmarks/series?model=claude-3-opus",
    noCharge: { ...NO_DATA, check: (body) => (body.summary.days_with_data === 0 ? "no_data_in_range" : null) },
    render: (ctx, { query }) => renderBenchmarksSeries(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/history/providers/series",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Daily latency and uptime of one provider over up to 90 days: probe count, ok %, TTFB and total p50/p95/p99, status-page uptime % and incident hours.",
    description: [
      `Query: provider (required). ${RANGE_RULE}`,
      "Read from the warehouse tables probe_samples (latency probes) and status_samples (status pages), aggregated per UTC day.",
      "Percentiles are continuous, over probe samples that got an answer. uptime_pct = status samples not down / samples with a known status.",
      "incident_hours sums the time the status page showed degraded or down; each sample stands for the time until the next, at most 1 hour, within its day; a provider's last sample of a day stands until the day's last capture plus the provider's median interval that day (so today's newest sample does not count time to come).",
      "A day with neither kind of sample has has_data false and null figures; a day with one kind has the other kind's figures null. An unknown provider is 404 unknown_provider.",
      "A range with no sample at all is answered 200 and not charged (no_data_in_range); so is any call while the probe or status snapshot, whose feeds write the tables, is stale.",
    ].join(" "),
    tags: ["premium", "history", "providers"],
    query: ProvidersSeriesQuery,
    response: ProvidersSeriesResponse,
    errors: { 400: RANGE_ERRORS, 404: "the provider has no sample in the warehouse (unknown_provider)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["probe", "status"],
    example: "/api/premium/history/providers/series?provider=openai",
    noCharge: { ...NO_DATA, check: (body) => (body.summary.days_with_data === 0 ? "no_data_in_range" : null) },
    render: (ctx, { query }) => renderProvidersSeries(ctx, query),
  }),
];
