/**
 * GET /api/premium/models/frontier: the price–performance Pareto frontier (api/verdicts/frontier.ts) on the
 * contamination-discounted capability index, over the newest captured day of the warehouse tables
 * benchmark_scores and model_prices. Billing, auth and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { paretoFrontier } from "../verdicts/frontier.ts";
import { TASKS, type Task } from "../verdicts/routing.ts";
import { readCapability, readPricedModels } from "./premium-model-reads.ts";

/** Query of GET /api/premium/models/frontier. */
export const FrontierQuery = z.strictObject({
  task: z.enum(TASKS).default("general").meta({ description: "code | reasoning | creative | general (default general)." }),
});

const capability = z.number().min(0).max(100).meta({ description: "Contamination-discounted capability index, 0-100." });
const price = z.number().nonnegative().meta({ description: "Blended price, USD per 1M tokens (3 input : 1 output)." });
const Point = z.strictObject({ model_id: z.string(), name: z.string(), capability, blended_price: price });

/** Body of GET /api/premium/models/frontier (the billing wrapper adds billing). */
export const FrontierResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("price_performance_frontier"),
  task: z.enum(TASKS),
  frontier: z.array(Point).meta({ description: "Models no other model beats on both price and capability, cheapest first." }),
  dominated: z.array(
    Point.extend({
      dominated_by: z.strictObject({ model_id: z.string(), capability, blended_price: price }).meta({ description: "The cheapest model at most as dear and at least as capable (one strictly)." }),
    }),
  ),
  counts: z.strictObject({ priced: z.number().int().nonnegative(), frontier: z.number().int().nonnegative(), dominated: z.number().int().nonnegative() }),
});
export type FrontierBody = z.infer<typeof FrontierResponse>;

/** Render GET /api/premium/models/frontier. */
export async function renderFrontier(ctx: RenderContext, query: { task: Task }): Promise<FrontierBody> {
  const [cap, priced] = await Promise.all([readCapability(ctx, query.task), readPricedModels(ctx)]);
  return { ok: true, verdict_kind: "price_performance_frontier", task: query.task, ...paretoFrontier(priced, cap) };
}

/** The frontier route. */
export const premiumFrontierRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/models/frontier",
    tier: "premium",
    cost: 1,
    answerMemo: true,
    summary: "The price-performance Pareto frontier for a task on the contamination-discounted capability index; dominated models with who dominates them; counts.",
    description: [
      "Capability index (0-100): the task's benchmark blend of /api/premium/routing (code: HumanEval 40 %, SWE-bench 40 %, MMLU-Pro 20 %; reasoning: GPQA Diamond 40 %, MATH-500 40 %, MMLU-Pro 20 %; creative: MMLU-Pro 50 %, HumanEval 25 %, MATH-500 25 %; general: the five equally) over percent scores,",
      "each benchmark's weight multiplied by its trust factor (trust_score / 100 of /api/premium/benchmark-trust-verdict), divided by the full weight: Σ w·trust·score / Σ w. A missing benchmark is imputed with its median over scored models; a model with none of the task's benchmarks is left out. Rounded to 2 decimals; equal values tie.",
      "Price: the 3:1 input:output blend of the newest price observation (largest observed_at, curated on a tie) on the newest day of the warehouse table model_prices. Scores: the newest day of benchmark_scores. Names from the latest pricing snapshot.",
      "A model is dominated when another is at most as dear and at least as capable, one of the two strictly; dominated_by is the cheapest such model (then the most capable). Exact ties are both on the frontier.",
      "counts.priced = models with both a price and an index. Not charged when that is 0 (no_priced_models) or while the pricing or benchmarks snapshot is stale.",
    ].join(" "),
    tags: ["premium", "models", "benchmarks", "pricing"],
    query: FrontierQuery,
    response: FrontierResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["pricing", "benchmarks"],
    example: "/api/premium/models/frontier?task=code",
    noCharge: {
      outcomes: { no_priced_models: "no model has both a price and a capability index for the task in the warehouse" },
      check: (body) => (body.counts.priced === 0 ? "no_priced_models" : null),
    },
    render: (ctx, { query }) => renderFrontier(ctx, query),
  }),
];
