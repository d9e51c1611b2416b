/**
 * GET /api/premium/cost/projection: daily, weekly, monthly and yearly cost of a token workload per model
 * (api/verdicts/cost-projection.ts) over the pricing snapshot. Billing comes from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { HORIZONS, MAX_MODELS, projectCosts, type CostProjection } from "../verdicts/cost-projection.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { PricingSnapshotSchema, pricingSnapshotType } from "../../pipelines/contract/snapshots/pricing.ts";

/** Longest model id or name asked for; the answer names each one it could not match. */
const MAX_MODEL_NAME = 120;
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A required non-negative decimal; an empty value is refused rather than read as 0. */
const tokens = (what: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, `${what.toLowerCase()}_tokens_per_day must be a non-negative number`)
    .transform(Number)
    .pipe(z.number().min(0))
    .meta({ description: `${what} tokens per day (number ≥ 0, required).` });

/** Query of GET /api/premium/cost/projection. */
export const CostProjectionQuery = z.strictObject({
  model: z
    .string()
    .max(MAX_MODELS * (MAX_MODEL_NAME + 1), `model is at most ${MAX_MODELS * (MAX_MODEL_NAME + 1)} characters`)
    .transform((raw, ctx) => {
      const names = raw.split(",").map((s) => s.trim()).filter(Boolean);
      if (names.length < 1 || names.length > MAX_MODELS) {
        ctx.addIssue({ code: "custom", message: `model must be a comma list of 1 to ${MAX_MODELS} model ids or names; got ${names.length}` });
        return z.NEVER;
      }
      if (names.some((name) => name.length > MAX_MODEL_NAME || CONTROL.test(name))) {
        ctx.addIssue({ code: "custom", message: `each model id or name is 1 to ${MAX_MODEL_NAME} printable characters` });
        return z.NEVER;
      }
      return names;
    })
    .meta({ description: `Comma list of 1-${MAX_MODELS} model ids or names of at most ${MAX_MODEL_NAME} characters each (id exact, else name or aggregator id, case-insensitive).` }),
  input_tokens_per_day: tokens("Input"),
  output_tokens_per_day: tokens("Output"),
  horizon: z.enum(HORIZONS).default("monthly").meta({ description: "daily | weekly | monthly | yearly (default monthly): echoed as primary_horizon; every horizon is computed." }),
});
export type CostProjectionQueryInput = z.infer<typeof CostProjectionQuery>;

const money = z.number().nonnegative().nullable();

/** Body of GET /api/premium/cost/projection (the billing wrapper adds billing). */
export const CostProjectionResponse = z.strictObject({
  ok: z.literal(true),
  workload: z.strictObject({
    input_tokens_per_day: z.number().nonnegative(),
    output_tokens_per_day: z.number().nonnegative(),
    total_tokens_per_day: z.number().nonnegative(),
  }),
  primary_horizon: z.enum(HORIZONS),
  projections: z.array(
    z.strictObject({
      model: z.string().meta({ description: "Catalog id when matched, else the name as asked." }),
      provider: z.string().nullable(),
      matched: z.boolean(),
      rates: z.strictObject({ input_per_1m: money, output_per_1m: money, blended_per_1m: money }).meta({ description: "USD per 1M tokens; blended is 3:1 input:output." }),
      daily: z.strictObject({ input_cost: money, output_cost: money, total: money }),
      weekly_total: money,
      monthly_total: money.meta({ description: "30 days." }),
      yearly_total: money.meta({ description: "365 days." }),
    }),
  ),
  ranked_cheapest_monthly: z.array(z.strictObject({ model: z.string(), provider: z.string(), monthly_total: z.number().nonnegative() })),
});

/** Render GET /api/premium/cost/projection. */
export function renderCostProjection(ctx: RenderContext, query: CostProjectionQueryInput): CostProjection {
  return projectCosts(readSnapshot(ctx.snapshots, "pricing", PricingSnapshotSchema).data, {
    models: query.model,
    input_tokens_per_day: query.input_tokens_per_day,
    output_tokens_per_day: query.output_tokens_per_day,
    horizon: query.horizon,
  });
}

/** The premium cost projection route. */
export const premiumCostRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/cost/projection",
    tier: "premium",
    cost: 1,
    summary: "Projected daily, weekly, monthly and yearly cost of a daily token workload for 1-10 models at list prices, cheapest monthly first.",
    description: [
      "cost per day = input_tokens_per_day / 1e6 × input price + output_tokens_per_day / 1e6 × output price (catalog list prices, USD per 1M).",
      "week = 7 days, month = 30 days, year = 365 days; every figure is computed unrounded and rounded to 6 decimals of USD.",
      "Matching per name: id exactly, else display name case-insensitively, else aggregator id case-insensitively; a model asked twice is projected once.",
      "Unmatched names are listed with matched false, provider null and null figures, and left out of ranked_cheapest_monthly (ties there by model id).",
      "rates.blended_per_1m is the 3:1 input:output blend used across the API; horizon only sets primary_horizon.",
    ].join(" "),
    tags: ["premium", "models"],
    query: CostProjectionQuery,
    response: CostProjectionResponse,
    snapshots: ["pricing"],
    freshness: { cadence: pricingSnapshotType.cadence, slaSeconds: pricingSnapshotType.slaSeconds },
    example: "/api/premium/cost/projection?model=gpt-4o,claude-sonnet-4,deepseek-v3&input_tokens_per_day=2000000&output_tokens_per_day=500000",
    answerMemo: true,
    render: (ctx, { query }) => renderCostProjection(ctx, query),
  }),
];
