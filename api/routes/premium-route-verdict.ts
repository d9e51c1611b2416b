/**
 * GET /api/premium/route-verdict: the route verdict (api/verdicts/route-verdict.ts) over the warehouse's newest
 * prices, benchmark scores, status samples and probe days, plus the snapshot facts no table holds. Billing,
 * auth and receipts come from the premium wrapper; this file declares the route and shapes the answer.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import type { RenderContext } from "../registry/types.ts";
import { TASKS } from "../verdicts/routing.ts";
import {
  CEILING_FLOOR,
  CEILING_FROM,
  NEUTRAL,
  OPERATIONAL_SLA_SECONDS,
  ROUTE_WEIGHTS,
  RUNNERS_UP,
  routeVerdict,
  type RouteVerdict,
  type VerdictEntry,
} from "../verdicts/route-verdict.ts";
import { readRouteInputs, resolveModel } from "./premium-route-verdict-reads.ts";
import { booleanParamValues } from "./vector-dbs.ts";
import { statusSnapshotType } from "../../pipelines/contract/snapshots/status.ts";

const flag = (what: string) => z.enum(booleanParamValues).optional().meta({ description: `${what} true (or 1) / false (or 0), default false.` });

/** A model id or display name as a user types it. */
export const modelParam = z
  .string()
  .trim()
  .min(1, "model is empty")
  .max(120, "model is at most 120 characters")
  .regex(/^[\w .:/@+()-]+$/, "model may hold letters, digits, spaces and . _ : / @ + ( ) - only");

/** Query of GET /api/premium/route-verdict. */
export const RouteVerdictQuery = z.strictObject({
  task: z.enum(TASKS).optional().meta({ description: "code | reasoning | creative | general; default general. Sets the benchmark blend of the quality layer." }),
  model: modelParam.optional().meta({ description: "A catalog model id or name (case-insensitive): the verdict is that model, runners_up the best others." }),
  max_latency_p95_ms: z.coerce.number().positive().max(600_000).optional().meta({ description: "Keep models whose provider's measured API p95 is at most this many ms (unmeasured providers are removed)." }),
  require_operational: flag("Keep only models whose provider's status page shows operational:"),
  exclude_deprecated: flag("Drop models on the deprecation calendar (announced, deprecated or retired):"),
});
export type RouteVerdictQueryInput = z.infer<typeof RouteVerdictQuery>;

const unit = z.number().min(0).max(1);
const state = z.enum(["operational", "degraded", "down", "unknown"]);

/** One verdict entry: the verdict itself, a runner-up, failover_to or an alternative. */
export const VerdictEntrySchema = z.strictObject({
  rank: z.number().int().min(1).nullable().meta({ description: "Position in the filtered ranking; null for a named model that is not in it." }),
  model: z.strictObject({ id: z.string(), name: z.string(), provider: z.string(), openSource: z.boolean(), contextWindow: z.number().int().positive() }),
  pricing: z.strictObject({
    input: z.number().nonnegative(),
    output: z.number().nonnegative(),
    blended: z.number().nonnegative().meta({ description: "(3 × input + output) / 4." }),
    currency: z.literal("USD"),
    unit: z.literal("per_1m_tokens"),
    source: z.string().meta({ description: "Who stated the served price (curated or aggregator): the newest observation." }),
    observed_at: z.string().nullable(),
  }),
  quality: z.strictObject({
    task_score: unit.meta({ description: "The task's benchmark blend, 0-1, undiscounted." }),
    trust_discounted: unit.meta({ description: "The same blend with each benchmark counted at its trust factor (ranking uses this)." }),
    contamination_note: z.string(),
  }),
  usage: z.strictObject({
    corroborated: z.literal(false),
    rank: z.null(),
    share_pct: z.null(),
    trend: z.null(),
    source: z.null(),
    note: z.string(),
  }).meta({ description: "No usage feed exists in this service: always uncorroborated, with a note." }),
  latency: z.strictObject({
    measured_p95_ms: z.number().nonnegative().nullable(),
    source: z.string().nullable(),
    note: z.string().nullable(),
  }),
  operational: z.strictObject({
    ok: z.boolean(),
    status: state,
    source: z.string().nullable().meta({ description: "The provider's status page; null when it is not tracked." }),
    as_of: z.string().nullable().meta({ description: "The status sample the state comes from." }),
  }),
  deprecation: z.strictObject({
    flagged: z.boolean(),
    status: z.enum(["announced", "deprecated", "retired"]).nullable(),
    sunset_date: z.string().nullable(),
  }),
  composite_score: unit,
  why: z.string(),
});

/** The trust layers of an answer. */
export const TrustSchema = z.strictObject({
  usage_corroborated: z.literal(false),
  benchmark_contamination: z.strictObject({
    method: z.string(),
    benchmarks: z.array(z.strictObject({ benchmark: z.string(), share: unit, top_score: z.number().nullable(), trust_factor: unit })),
  }),
  operational_layer: z.strictObject({
    source: z.literal("status_samples"),
    as_of: z.string().nullable(),
    age_seconds: z.number().int().nonnegative().nullable(),
    sla_seconds: z.literal(OPERATIONAL_SLA_SECONDS),
    fresh: z.boolean(),
  }),
  latency_layer: z.strictObject({
    source: z.literal("probe_samples").nullable(),
    as_of: z.string().nullable(),
    providers_measured: z.number().int().nonnegative(),
    note: z.string(),
  }),
});

/** Body of GET /api/premium/route-verdict (the billing wrapper adds billing and the receipt). */
export const RouteVerdictResponse = z.strictObject({
  ok: z.literal(true),
  query: z.strictObject({
    task: z.enum(TASKS),
    model: z.string().nullable().meta({ description: "The catalog id the model parameter resolved to." }),
    max_latency_p95_ms: z.number().nullable(),
    require_operational: z.boolean(),
    exclude_deprecated: z.boolean(),
  }),
  capturedAt: z.string().nullable().meta({ description: "The newest status sample (the operational layer's as-of)." }),
  verdict: VerdictEntrySchema.nullable().meta({ description: "null when no model qualifies (see note); such a call is not charged." }),
  runners_up: z.array(VerdictEntrySchema),
  ranked: z.number().int().nonnegative().meta({ description: "Models that passed every filter." }),
  trust: TrustSchema,
  note: z.string().nullable(),
});
export type RouteVerdictBody = z.infer<typeof RouteVerdictResponse>;

const isTrue = (v: string | undefined) => v === "true" || v === "1";

/** Render GET /api/premium/route-verdict. */
export async function renderRouteVerdict(ctx: RenderContext, query: RouteVerdictQueryInput): Promise<RouteVerdictBody> {
  const inputs = await readRouteInputs(ctx);
  const model = query.model === undefined ? undefined : resolveModel(inputs.models, query.model);
  const options = {
    task: query.task ?? "general",
    ...(model !== undefined ? { model } : {}),
    ...(query.max_latency_p95_ms !== undefined ? { max_latency_p95_ms: query.max_latency_p95_ms } : {}),
    require_operational: isTrue(query.require_operational),
    exclude_deprecated: isTrue(query.exclude_deprecated),
    now: ctx.now,
  };
  const v: RouteVerdict = routeVerdict(inputs, options);
  return {
    ok: true,
    query: {
      task: v.task,
      model: v.model,
      max_latency_p95_ms: query.max_latency_p95_ms ?? null,
      require_operational: options.require_operational,
      exclude_deprecated: options.exclude_deprecated,
    },
    capturedAt: v.capturedAt,
    verdict: v.verdict,
    runners_up: v.runners_up,
    ranked: v.ranked,
    trust: v.trust,
    note: v.empty_reason,
  };
}

/** The no-charge outcome of a route-verdict-shaped answer, or null. */
export function routeNoCharge(body: { verdict?: VerdictEntry | null; failover_to?: VerdictEntry | null; trust: RouteVerdict["trust"] }): string | null {
  if (!body.trust.operational_layer.fresh) return "operational_layer_stale";
  if (body.verdict === null || body.failover_to === null) return "no_eligible_model";
  return null;
}

/** The description lines the route and failover verdicts share. */
export const SCORING_RULES = [
  `composite = ${ROUTE_WEIGHTS.quality}·quality + ${ROUTE_WEIGHTS.operational}·operational + ${ROUTE_WEIGHTS.cost}·cost + ${ROUTE_WEIGHTS.latency}·latency, 4 decimals.`,
  `Quality: the task's benchmark blend of /api/premium/routing (missing benchmarks imputed with their median), trust-discounted: each benchmark counts at t = 1 − ${1 - CEILING_FLOOR}·clamp((top − ${CEILING_FROM}) / ${100 - CEILING_FROM}, 0, 1) of its score, top being its best reported score (a saturated benchmark separates models least and is the likeliest contaminated); trust.benchmark_contamination lists t per benchmark.`,
  "Prices: warehouse model_prices of the newest two capture days, per model the newest day's newest observation (largest observed_at, curated on a tie). Scores: warehouse benchmark_scores of the newest day. The catalog (which models exist, their names, open-source flag and context window) comes from the pricing snapshot, which no table holds.",
  `Operational: the provider's newest status sample (warehouse status_samples): operational 1, degraded 0.5, down 0, unknown or untracked ${NEUTRAL}; the status page URL comes from the status snapshot.`,
  "Cost: log-position of the blended price between the cheapest and dearest model that can rank (retired models set no bound), 1 for the cheapest.",
  `Latency: p95 total time of this service's own probes of the provider's API (warehouse probe_samples, per-day rollup), the newest day since yesterday, log-scaled between the fastest and slowest measured provider of the models that can rank; it measures reaching the API, not generation. Unprobed providers: measured_p95_ms null, a note, score ${NEUTRAL}.`,
  "Usage: no per-model usage feed exists, so usage is never corroborated (source null, a note) and does not enter the composite.",
  "Deprecation: the model-deprecations snapshot; a model on or past its sunset date counts as retired, and retired models never rank.",
  `Operational freshness SLA ${OPERATIONAL_SLA_SECONDS / 60} minutes: when the newest status sample is older than that at the time of the call, the answer is served and not charged (operational_layer_stale).`,
];

/** The premium route-verdict route. */
export const premiumRouteVerdictRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/route-verdict",
    tier: "premium",
    cost: 1,
    summary: "Which model to route a task (or a named model) to: pricing, trust-discounted quality, measured latency, operational state, deprecation, composite score and why, with runners-up and trust layers.",
    description: [
      ...SCORING_RULES,
      "Filters apply after scoring (they only remove rows): require_operational, exclude_deprecated, max_latency_p95_ms (unmeasured providers removed). Order: composite desc, trust-discounted quality desc, blended asc, id asc.",
      `Without model the verdict is rank 1 and runners_up the next ${RUNNERS_UP}; with model (id or name; unknown → 404 unknown_model, not charged) the verdict is that model (rank null when filtered out) and runners_up the best ${RUNNERS_UP} others. task defaults to general.`,
      "No model qualifying gives verdict null with a note, not charged (no_eligible_model).",
    ].join(" "),
    tags: ["premium", "models", "routing"],
    query: RouteVerdictQuery,
    response: RouteVerdictResponse,
    errors: { 404: "the model is not in the catalog (unknown_model)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["status"],
    freshness: { cadence: `${statusSnapshotType.cadence} (status), every 15 minutes (probes), hourly (prices), daily (benchmarks)`, slaSeconds: OPERATIONAL_SLA_SECONDS },
    example: "/api/premium/route-verdict?task=code",
    noCharge: {
      outcomes: {
        operational_layer_stale: `the newest status sample is older than ${OPERATIONAL_SLA_SECONDS / 60} minutes at the time of the call`,
        no_eligible_model: "no model qualifies for the task and filters (verdict null)",
      },
      check: (body) => routeNoCharge(body),
    },
    render: (ctx, { query }) => renderRouteVerdict(ctx, query),
  }),
];
