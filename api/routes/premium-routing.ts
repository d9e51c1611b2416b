/**
 * GET /api/premium/routing: the routing verdict (api/verdicts/routing.ts) over the pricing, benchmarks and
 * status snapshots. Billing, auth and receipts come from the premium wrapper; this file is the pure part.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { LATENCY_PLACEHOLDER, TASKS, routeModels, type RoutingVerdict } from "../verdicts/routing.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { type BenchmarksSnapshot, BenchmarksSnapshotSchema } from "../../pipelines/contract/snapshots/benchmarks.ts";
import { type PricingSnapshot, PricingSnapshotSchema } from "../../pipelines/contract/snapshots/pricing.ts";
import { type StatusSnapshot, statusSnapshot, statusSnapshotType } from "../../pipelines/contract/snapshots/status.ts";

const weight = (name: string, def: number) =>
  z.coerce.number().min(0).max(1).optional().meta({ description: `Weight of the ${name} sub-score, 0-1 (default ${def}; see the description for how unsupplied weights are renormalized).` });

/** Query of GET /api/premium/routing. */
export const RoutingQuery = z.strictObject({
  task: z.enum(TASKS).default("general").meta({ description: "code | reasoning | creative | general (default general)." }),
  budget: z.coerce.number().positive().optional().meta({ description: "Maximum blended price, USD per 1M tokens at a 3:1 input:output mix." }),
  min_quality: z.coerce.number().min(0).max(1).optional().meta({ description: "Minimum quality sub-score, 0-1." }),
  top_n: z.coerce.number().int().min(1).max(10).default(5).meta({ description: "Recommendations to return, 1-10 (default 5)." }),
  w_quality: weight("quality", 0.4),
  w_availability: weight("availability", 0.3),
  w_cost: weight("cost", 0.2),
  w_latency: weight("latency", 0.1),
});
export type RoutingQueryInput = z.infer<typeof RoutingQuery>;

const unit = z.number().min(0).max(1);
const WeightsSchema = z.strictObject({ quality: unit, availability: unit, cost: unit, latency: unit });

/** Body of GET /api/premium/routing (the billing wrapper adds billing). */
export const RoutingResponse = z.strictObject({
  ok: z.literal(true),
  task: z.enum(TASKS),
  weights: WeightsSchema.meta({ description: "The weights applied after renormalization; they sum to 1." }),
  recommendations: z.array(
    z.strictObject({
      rank: z.number().int().min(1),
      model: z.strictObject({ id: z.string(), name: z.string(), provider: z.string() }),
      pricing: z.strictObject({
        input: z.number().nonnegative(),
        output: z.number().nonnegative(),
        currency: z.literal("USD"),
      }).meta({ description: "List prices, USD per 1M tokens." }),
      status: z.enum(["operational", "degraded", "down", "unknown"]).meta({ description: "The provider's status (unknown when its status page is not tracked)." }),
      composite_score: unit.meta({ description: "Weighted sum of the components, 4 decimals." }),
      components: WeightsSchema.extend({ latency: z.literal(LATENCY_PLACEHOLDER) }),
    }),
  ),
});

/** Render GET /api/premium/routing. */
export function renderRouting(ctx: RenderContext, query: RoutingQueryInput): RoutingVerdict {
  const pricing: PricingSnapshot = readSnapshot(ctx.snapshots, "pricing", PricingSnapshotSchema).data;
  const benchmarks: BenchmarksSnapshot = readSnapshot(ctx.snapshots, "benchmarks", BenchmarksSnapshotSchema).data;
  const status: StatusSnapshot = readSnapshot(ctx.snapshots, "status", statusSnapshot).data;
  return routeModels(
    { pricing, benchmarks, status },
    {
      task: query.task,
      budget: query.budget,
      min_quality: query.min_quality,
      top_n: query.top_n,
      weights: { quality: query.w_quality, availability: query.w_availability, cost: query.w_cost, latency: query.w_latency },
    },
  );
}

/** The premium routing route. */
export const premiumRoutingRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/routing",
    tier: "premium",
    cost: 1,
    summary: "Model recommendations for a task: composite of benchmark quality, provider availability, price and latency, with filters for budget and minimum quality.",
    description: [
      "composite = w_quality·quality + w_availability·availability + w_cost·cost + w_latency·latency, each sub-score in [0,1], rounded to 4 decimals.",
      "Weights: supplied weights are kept; unsupplied ones share 1 − Σsupplied in proportion to their defaults (0.4/0.3/0.2/0.1). When the supplied ones sum above 1, or all four are supplied, they are scaled to sum 1 and the unsupplied get 0. All zero → 400 invalid_weights.",
      "Quality: benchmark percent / 100 blended by task (code: HumanEval 40%, SWE-bench Verified 40%, MMLU-Pro 20%; reasoning: GPQA Diamond 40%, MATH-500 40%, MMLU-Pro 20%; creative: MMLU-Pro 50%, HumanEval 25%, MATH-500 25%; general: 20% each). A benchmark the model lacks is imputed with that benchmark's median over scored models; models with none of the task's benchmarks are not recommended.",
      "Availability: provider status operational 1, degraded 0.5, down 0, unknown or untracked 0.5.",
      "Cost: 1 − (ln p − ln p_min) / (ln p_max − ln p_min) over the blended prices (3:1 input:output, floor 0.01) of every model scored for the task, before filters. Latency: fixed 0.5 placeholder.",
      "Filters: budget keeps blended ≤ budget; min_quality keeps quality ≥ min_quality. Order: composite desc, quality desc, blended asc, id asc. No match gives an empty list.",
    ].join(" "),
    tags: ["premium", "models"],
    query: RoutingQuery,
    response: RoutingResponse,
    snapshots: ["pricing", "benchmarks", "status"],
    // The SLA is the status feed's; prices and benchmarks are held to their own feeds' (hourly, daily).
    freshness: { cadence: `${statusSnapshotType.cadence} (status), hourly (prices), daily (benchmarks)`, slaSeconds: statusSnapshotType.slaSeconds, appliesTo: ["status"] },
    example: "/api/premium/routing?task=code&top_n=3",
    answerMemo: true,
    render: (ctx, { query }) => renderRouting(ctx, query),
  }),
];
