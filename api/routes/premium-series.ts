/**
 * GET /api/premium/aggregator/series and GET /api/premium/modelhub/velocity: daily series over the warehouse
 * (tables aggregator_models_daily and modelhub_daily), read through the warehouse reader and decided in the
 * pure verdicts api/verdicts/aggregator-series.ts and api/verdicts/modelhub-velocity.ts. Billing comes from the
 * premium wrapper; a window without any capture is not charged.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { aggregatorSeries, SAMPLE_SIZE, type AggregatorSeries } from "../verdicts/aggregator-series.ts";
import { modelhubVelocity, TOP_SIZE, type ModelhubVelocity } from "../verdicts/modelhub-velocity.ts";
import { RANGE_ERRORS, RANGE_RULE, resolveRange } from "../verdicts/history-range.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { readAggregatorSeries, readModelhubVelocity } from "./premium-series-reads.ts";


const day = (what: string) =>
  z.iso
    .date()
    .refine((d) => {
      const ms = Date.parse(`${d}T00:00:00.000Z`);
      return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === d;
    }, "not a calendar day")
    .optional()
    .meta({ description: what });

/** Query of both series. */
export const SeriesQuery = z.strictObject({
  from: day(`First UTC day, YYYY-MM-DD, inclusive. ${RANGE_RULE}`),
  to: day("Last UTC day, YYYY-MM-DD, inclusive; default today (UTC)."),
});
export type SeriesQueryInput = z.infer<typeof SeriesQuery>;

function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

const count = z.number().int().nonnegative();
const usd = z.number().nonnegative();
const isoDay = z.iso.date();
const notes = z.array(z.string()).meta({ description: "How the figures were computed, and the days without capture." });

/** Body of GET /api/premium/aggregator/series (the billing wrapper adds billing and receipt). */
export const AggregatorSeriesResponse = z.strictObject({
  ok: z.literal(true),
  from: isoDay,
  to: isoDay,
  days: count,
  points: z.array(
    z.strictObject({
      date: isoDay,
      total_models: count.nullable(),
      cheapest_input_usd_per_m: usd.nullable().meta({ description: "Lowest input price above zero, USD per 1M tokens." }),
      cheapest_output_usd_per_m: usd.nullable().meta({ description: "Lowest output price above zero, USD per 1M tokens." }),
      free_tier_count: count.nullable().meta({ description: "Models priced 0 for input and output." }),
      namespace_count: count.nullable(),
      top_namespace: z.string().nullable().meta({ description: "Namespace with the most models (ties: alphabetical first)." }),
      added: count.nullable().meta({ description: "Models listed that day but not on the previous captured day; null without one." }),
      removed: count.nullable(),
      price_changes: count.nullable().meta({ description: "Models on both days whose input or output price differs." }),
      added_sample: z.array(z.string()).max(SAMPLE_SIZE),
      removed_sample: z.array(z.string()).max(SAMPLE_SIZE),
      has_data: z.boolean().meta({ description: "False on a day without capture: every figure is then null." }),
    }),
  ),
  delta_in_window: z.strictObject({
    start_total: count.nullable(),
    end_total: count.nullable(),
    net: z.number().int().nullable(),
    cheapest_input_start: usd.nullable(),
    cheapest_input_end: usd.nullable(),
    cheapest_output_start: usd.nullable(),
    cheapest_output_end: usd.nullable(),
  }),
  notes,
}) satisfies z.ZodType<AggregatorSeries>;

const downloadDelta = z.strictObject({ id: z.string(), downloads: count, download_delta: z.number().int() });
const gainer = z.strictObject({ id: z.string(), downloads: count, download_delta: z.number().int(), days: count });

/** Body of GET /api/premium/modelhub/velocity (the billing wrapper adds billing and receipt). */
export const ModelhubVelocityResponse = z.strictObject({
  ok: z.literal(true),
  from: isoDay,
  to: isoDay,
  days: count,
  points: z.array(
    z.strictObject({
      date: isoDay,
      model_count: count.nullable(),
      dataset_count: count.nullable(),
      space_count: count.nullable(),
      models_entered: count.nullable().meta({ description: "Ids in the top 30 that day but not on the listing's previous captured day; null without one." }),
      models_exited: count.nullable(),
      datasets_entered: count.nullable(),
      datasets_exited: count.nullable(),
      top_models_by_download_delta: z.array(downloadDelta).max(TOP_SIZE).nullable(),
      top_datasets_by_download_delta: z.array(downloadDelta).max(TOP_SIZE).nullable(),
      top_spaces_by_likes_delta: z.array(z.strictObject({ id: z.string(), likes: count, likes_delta: z.number().int() })).max(TOP_SIZE).nullable(),
      has_data: z.boolean().meta({ description: "False on a day without capture: every figure is then null." }),
    }),
  ),
  window: z.strictObject({
    top_model_gainers: z.array(gainer).max(TOP_SIZE),
    top_dataset_gainers: z.array(gainer).max(TOP_SIZE),
    model_count_start: count.nullable(),
    model_count_end: count.nullable(),
  }),
  notes,
}) satisfies z.ZodType<ModelhubVelocity>;

/** Render GET /api/premium/aggregator/series. */
export async function renderAggregatorSeries(ctx: RenderContext, query: SeriesQueryInput): Promise<AggregatorSeries> {
  const range = resolveRange(query, ctx.now);
  return aggregatorSeries({ range, ...(await readAggregatorSeries(warehouseOf(ctx), range.from, range.to)) });
}

/** Render GET /api/premium/modelhub/velocity. */
export async function renderModelhubVelocity(ctx: RenderContext, query: SeriesQueryInput): Promise<ModelhubVelocity> {
  const range = resolveRange(query, ctx.now);
  return modelhubVelocity({ range, ...(await readModelhubVelocity(warehouseOf(ctx), range.from, range.to)) });
}

const NO_DATA = { no_data_in_range: "the warehouse holds no capture on any day of the asked range (every point has has_data false)" };
const noDataCheck = (body: { points: { has_data: boolean }[] }) => (body.points.some((p) => p.has_data) ? null : "no_data_in_range");

const WINDOW_RULES = `from / to: inclusive UTC days; ${RANGE_RULE}`;
const ERRORS = {
  400: RANGE_ERRORS,
  503: "warehouse_unavailable: the instance has no warehouse reader.",
};

/** The two warehouse series routes. */
export const premiumSeriesRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/aggregator/series",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Daily series of the aggregator's model catalog: size, cheapest prices, free tier, namespaces, models added and removed, price changes.",
    description: [
      WINDOW_RULES,
      "One point per day from warehouse table aggregator_models_daily (one capture a day). A day without capture has has_data false and every figure null, never 0.",
      "cheapest_*_usd_per_m: lowest price above zero, USD per 1M tokens; models priced 0/0 count in free_tier_count; unpriced (variable-price) models count in total_models only. top_namespace: most models, ties alphabetical.",
      `added / removed / price_changes compare a day with the previous captured day (looked up before from when needed; it may be more than one day earlier); null when there is none. price_changes: models on both days whose input or output price differs. Samples: the first ${SAMPLE_SIZE} ids alphabetically.`,
      "delta_in_window compares the first and the last captured day of the window. A window without any capture is not charged (no_data_in_range).",
    ].join(" "),
    tags: ["premium", "models"],
    query: SeriesQuery,
    response: AggregatorSeriesResponse,
    snapshots: ["aggregator-models"],
    errors: ERRORS,
    noCharge: { outcomes: NO_DATA, check: noDataCheck },
    example: "/api/premium/aggregator/series?from=2026-11-01&to=2026-11-22",
    render: (ctx, { query }) => renderAggregatorSeries(ctx, query),
  }),
  defineRoute({
    method: "GET",
    path: "/api/premium/modelhub/velocity",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "Daily velocity of the model hub's top 30 models, datasets and Spaces: entries and exits, and the largest download and likes changes.",
    description: [
      WINDOW_RULES,
      "One point per day from warehouse table modelhub_daily (the hub's top 30 models and datasets by downloads, its rolling 30-day count, and top 30 Spaces by likes, captured daily). A day without capture has has_data false and every figure null; a listing that failed that day has its own figures null.",
      "Entered / exited compare a listing with the same listing on its previous captured day (looked up before from when needed); null when there is none. Download and likes deltas exist only for ids in the top 30 on both that prior captured day and the current one.",
      `top_*_by_*_delta: the ${TOP_SIZE} largest day-to-day changes, largest first (they may be negative), ties by id. window.top_*_gainers: an id's daily download deltas summed over the window (days = comparisons summed), ${TOP_SIZE} largest. model_count_start / _end: first and last captured day of the window.`,
      "A window without any capture is not charged (no_data_in_range).",
    ].join(" "),
    tags: ["premium", "models"],
    query: SeriesQuery,
    response: ModelhubVelocityResponse,
    snapshots: ["modelhub-trending"],
    errors: ERRORS,
    noCharge: { outcomes: NO_DATA, check: noDataCheck },
    example: "/api/premium/modelhub/velocity?from=2026-11-01&to=2026-11-22",
    render: (ctx, { query }) => renderModelhubVelocity(ctx, query),
  }),
];
