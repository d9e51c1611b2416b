/**
 * GET /api/premium/inference/cost-verdict: the inference cost verdict (api/verdicts/inference-cost.ts) over the
 * per-model inference-provider matrix, warehouse table inference_providers_daily (newest day). Billing, auth
 * and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { findProvider, inferenceCost, tokenSplit, type InferenceCostVerdict } from "../verdicts/inference-cost.ts";
import { INFERENCE_PROVIDERS_SOURCE, type InferenceProvidersSnapshot, InferenceProvidersSnapshotSchema, inferenceProvidersSnapshotType } from "../../pipelines/contract/snapshots/inference-providers.ts";
import { matrixModels, newestDay, readMatrix } from "./premium-market-reads.ts";

/** Largest monthly volume accepted, tokens (10 trillion). */
export const MAX_MONTHLY_TOKENS = 10_000_000_000_000;

const tokens = (what: string) =>
  z.coerce
    .number()
    .int(`${what} must be a whole number of tokens`)
    .min(0, `${what} must not be negative`)
    .max(MAX_MONTHLY_TOKENS, `${what} is at most ${MAX_MONTHLY_TOKENS}`)
    .optional();

/** Query of GET /api/premium/inference/cost-verdict. */
export const InferenceCostQuery = z
  .strictObject({
    model: z
      .string()
      .trim()
      .min(1, "model is required")
      .max(200, "model is at most 200 characters")
      .regex(/^[\w.:/@+-]+$/, "model may hold letters, digits and . _ : / @ + - only")
      .meta({ description: "Model id as /api/models serves it (gpt-4o) or as the aggregator spells it (openai/gpt-4o), case-insensitive." }),
    monthly_tokens: tokens("monthly_tokens").meta({ description: "Tokens a month (input + output), split 3:1 input:output unless input_tokens and output_tokens are given. Required without them; a volume of 0 tokens is refused." }),
    current_provider: z
      .string()
      .trim()
      .min(1)
      .max(100, "current_provider is at most 100 characters")
      .regex(/^[\w .:/()+-]+$/, "current_provider may hold letters, digits, spaces and . _ : / ( ) + - only")
      .optional()
      .meta({ description: "The provider serving the model today, as the matrix names it (DeepInfra) or by endpoint tag (deepinfra/fp8), case-insensitive. Savings are against it." }),
    input_tokens: tokens("input_tokens").meta({ description: "Exact monthly input tokens (with output_tokens)." }),
    output_tokens: tokens("output_tokens").meta({ description: "Exact monthly output tokens (with input_tokens)." }),
  })
  .superRefine((q, ctx) => {
    const exact = q.input_tokens !== undefined || q.output_tokens !== undefined;
    if (exact && (q.input_tokens === undefined || q.output_tokens === undefined)) ctx.addIssue({ code: "custom", message: "input_tokens and output_tokens go together" });
    else if (!exact && q.monthly_tokens === undefined) ctx.addIssue({ code: "custom", message: "monthly_tokens is required (or input_tokens and output_tokens)" });
    else if (exact && q.monthly_tokens !== undefined && q.monthly_tokens !== q.input_tokens! + q.output_tokens!) {
      ctx.addIssue({ code: "custom", message: "monthly_tokens must equal input_tokens + output_tokens when all three are given" });
    } else if ((exact ? q.input_tokens! + q.output_tokens! : q.monthly_tokens!) === 0) {
      // Every provider costs $0 for no tokens: a verdict between them would rest on tie-breaking alone.
      ctx.addIssue({ code: "custom", message: "the monthly volume is 0 tokens; give at least 1 (monthly_tokens, or input_tokens + output_tokens)" });
    }
  });

const usd = z.number().nonnegative();
const Split = z.strictObject({
  input_tokens: z.number().int().nonnegative(),
  output_tokens: z.number().int().nonnegative(),
  basis: z.enum(["exact", "default_3_to_1"]).meta({ description: "exact: the input_tokens and output_tokens given; default_3_to_1: monthly_tokens × 3/4 input (rounded), the rest output." }),
});

/** Body of GET /api/premium/inference/cost-verdict (the billing wrapper adds billing). */
export const InferenceCostResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("inference_cost"),
  model: z.string().meta({ description: "The model as asked." }),
  model_id: z.string().nullable().meta({ description: "The matrix's (aggregator's) id of the model; null when not in the matrix." }),
  in_matrix: z.boolean().meta({ description: "False when the model is not in the matrix: every figure is then null and the call is not charged." }),
  as_of: z.string().nullable().meta({ description: "The matrix day read (YYYY-MM-DD)." }),
  split: Split,
  cheapest: z
    .strictObject({
      provider: z.string(),
      tag: z.string().meta({ description: "The aggregator's endpoint tag of that provider's cheapest endpoint." }),
      monthly_cost_usd: usd,
      output_tps: z.number().nonnegative().nullable().meta({ description: "Median output tokens/s over the aggregator's last 30 minutes; null when not stated." }),
    })
    .nullable(),
  current: z
    .strictObject({
      provider: z.string(),
      monthly_cost_usd: usd,
      basis: z.enum(["current_provider", "most_expensive"]).meta({ description: "current_provider: the one asked; most_expensive: none was asked (or it states no price), so the dearest listing stands in." }),
    })
    .nullable(),
  savings: z
    .strictObject({
      vs_current_usd: usd.meta({ description: "current − cheapest monthly cost, USD." }),
      vs_current_pct: z.number().min(0).max(100).nullable().meta({ description: "Savings / current cost × 100, 2 decimals; null when current costs 0." }),
    })
    .nullable(),
  recommendation: z.enum(["SWITCH", "STAY", "USE_CHEAPEST", "NOT_IN_MATRIX", "NO_PRICED_PROVIDER"]),
  why: z.string(),
  providers: z
    .array(
      z.strictObject({
        provider: z.string(),
        tag: z.string(),
        monthly_cost_usd: usd,
        output_tps: z.number().nonnegative().nullable(),
        latency_ms: z.number().nonnegative().nullable().meta({ description: "Median time to first token, ms, last 30 minutes; null when not stated." }),
        uptime_pct: z.number().min(0).max(100).nullable().meta({ description: "Successful requests, %, last 30 minutes; null when not stated." }),
      }),
    )
    .meta({ description: "Every priced provider, cheapest first (one line per provider: its cheapest endpoint)." }),
  source: z.string().nullable().meta({ description: "Where the matrix comes from; null when the model is not in it." }),
  notes: z.array(z.string()),
});

function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** lower-case catalog id → aggregator id, per loaded inference-providers body. */
const catalogMaps = new WeakMap<object, Map<string, string>>();

function catalogMap(snapshot: InferenceProvidersSnapshot): Map<string, string> {
  let map = catalogMaps.get(snapshot);
  if (!map) {
    map = new Map(snapshot.models.map((m) => [m.catalog_id.toLowerCase(), m.model_id.toLowerCase()]));
    catalogMaps.set(snapshot, map);
  }
  return map;
}

/** The matrix id of a model asked by matrix id, by catalog id (the inference-providers snapshot maps them), or by a unique `…/<id>` suffix. */
function resolveModel(ctx: RenderContext, known: Map<string, string>, asked: string): string | null {
  const a = asked.toLowerCase();
  const direct = known.get(a);
  if (direct) return direct;
  const mapped = catalogMap(readSnapshot(ctx.snapshots, "inference-providers", InferenceProvidersSnapshotSchema).data).get(a);
  if (mapped && known.has(mapped)) return known.get(mapped)!;
  const bySuffix = [...known.values()].filter((id) => id.toLowerCase().endsWith(`/${a}`));
  return bySuffix.length === 1 ? bySuffix[0]! : null;
}

/** Render GET /api/premium/inference/cost-verdict. */
export async function renderInferenceCost(ctx: RenderContext, query: z.infer<typeof InferenceCostQuery>): Promise<InferenceCostVerdict> {
  const warehouse = warehouseOf(ctx);
  const day = newestDay(warehouse, "inference_providers_daily", ctx.now.toISOString().slice(0, 10));
  const modelId = day ? resolveModel(ctx, await matrixModels(warehouse, day), query.model) : null;
  const rows = day && modelId ? await readMatrix(warehouse, day, modelId) : [];
  let current: string | undefined;
  if (query.current_provider !== undefined && rows.length > 0) {
    const found = findProvider(rows, query.current_provider);
    if (!found) {
      const known = [...new Set(rows.map((r) => r.provider))].sort();
      throw new ApiError(400, "unknown_provider", `current_provider ${JSON.stringify(query.current_provider)} does not serve ${modelId} in the matrix of ${day}; known: ${known.join(", ")}`, { known });
    }
    current = found;
  }
  return inferenceCost({
    model: query.model,
    model_id: rows.length > 0 ? modelId : null,
    as_of: day,
    rows,
    split: tokenSplit(query),
    ...(current !== undefined ? { current_provider: current } : {}),
    source: INFERENCE_PROVIDERS_SOURCE,
    now: ctx.now,
  });
}

/** The premium inference cost route. */
export const premiumInferenceCostRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/inference/cost-verdict",
    tier: "premium",
    cost: 1,
    summary: "Cheapest inference provider for a model at your monthly token volume: monthly cost and output tokens/s per provider, savings against your current provider.",
    description: [
      "Read from the warehouse table inference_providers_daily (the aggregator's per-model endpoint listing: prices, median throughput, latency and uptime over its last 30 minutes), newest day on or before today.",
      "model is matched case-insensitively against the aggregator id (openai/gpt-4o), the catalog id (gpt-4o, mapped through the inference-providers snapshot, which the table does not hold) or a unique …/<model> suffix.",
      "Tokens: monthly_tokens split 3:1 input:output (input = round(monthly_tokens × 0.75)), or the exact input_tokens and output_tokens (both, and monthly_tokens if given must equal their sum; else 400 invalid_query).",
      "Cost = input_tokens × input price + output_tokens × output price (USD per 1M tokens), summed in integer micro-USD and shown in USD (6 decimals). A provider with several endpoints is shown at its cheapest; endpoints without a stated price are left out.",
      "Cheapest: lowest cost, then higher output_tps, higher uptime, provider name. current is current_provider (matched by name, endpoint tag or the tag's first part) or, without one, the most expensive provider; savings = current − cheapest.",
      "recommendation: SWITCH (a cheaper provider than current_provider exists), STAY (current_provider is already cheapest), USE_CHEAPEST (no current_provider given), NOT_IN_MATRIX, NO_PRICED_PROVIDER.",
      "Not charged: a model outside the matrix (model_not_in_matrix) or with no priced provider (no_priced_provider), or a stale matrix snapshot. A current_provider that does not serve the model is 400 unknown_provider after payment, not charged.",
    ].join(" "),
    tags: ["premium", "models", "inference"],
    query: InferenceCostQuery,
    response: InferenceCostResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["inference-providers"],
    freshness: { cadence: inferenceProvidersSnapshotType.cadence, slaSeconds: inferenceProvidersSnapshotType.slaSeconds },
    example: "/api/premium/inference/cost-verdict?model=deepseek-r1&monthly_tokens=100000000&current_provider=DeepInfra",
    answerMemo: true,
    noCharge: {
      outcomes: {
        model_not_in_matrix: "the model is not in the inference-provider matrix (in_matrix false)",
        no_priced_provider: "the model is in the matrix but no provider states a price",
      },
      check: (body) => (!body.in_matrix ? "model_not_in_matrix" : body.cheapest === null ? "no_priced_provider" : null),
    },
    render: (ctx, { query }) => renderInferenceCost(ctx, query),
  }),
];
