/**
 * GET /api/premium/failover-verdict: the failover verdict (api/verdicts/failover.ts) for one provider: its
 * current incident from the status snapshot's components and the warehouse's status samples, and the route
 * verdict's destination among the other providers. Billing, auth and receipts come from the premium wrapper.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { TASKS } from "../verdicts/routing.ts";
import { ACTIONS, IMPACT_CLASSES, PROVIDER_ALIASES, failoverVerdict, resolveProvider } from "../verdicts/failover.ts";
import { OPERATIONAL_SLA_SECONDS } from "../verdicts/route-verdict.ts";
import { readRouteInputs, resolveModel } from "./premium-route-verdict-reads.ts";
import { SCORING_RULES, TrustSchema, VerdictEntrySchema, modelParam, routeNoCharge } from "./premium-route-verdict.ts";
import { statusSnapshotType } from "../../pipelines/contract/snapshots/status.ts";

/** Query of GET /api/premium/failover-verdict. */
export const FailoverQuery = z.strictObject({
  from: z
    .string()
    .trim()
    .min(1, "from is required")
    .max(60, "from is at most 60 characters")
    .regex(/^[\w .()-]+$/, "from may hold letters, digits, spaces and . _ ( ) - only")
    .meta({ description: "The impaired provider: id, display name or alias (claude, gemini, azure …), case-insensitive." }),
  task: z.enum(TASKS).optional().meta({ description: "code | reasoning | creative | general; default general. Ranks the destination." }),
  model: modelParam.optional().meta({ description: "The model traffic runs on at `from` (catalog id or name): destinations are kept to models at least 90% as good on the task's trust-discounted quality, when any is." }),
});
export type FailoverQueryInput = z.infer<typeof FailoverQuery>;

/** Body of GET /api/premium/failover-verdict (the billing wrapper adds billing and the receipt). */
export const FailoverResponse = z.strictObject({
  ok: z.literal(true),
  from: z.strictObject({
    provider: z.string(),
    status: z.enum(["operational", "degraded", "down", "unknown"]),
    in_incident: z.boolean(),
    incident: z
      .strictObject({
        title: z.string(),
        service: z.string().nullable().meta({ description: "The worst-hit component, API-facing ones first." }),
        impact_classification: z.enum(IMPACT_CLASSES),
        recommended_action: z.enum(ACTIONS),
        started_at: z.string().nullable(),
        triage_summary: z.string(),
      })
      .nullable(),
  }),
  query: z.strictObject({ from: z.string(), task: z.enum(TASKS), model: z.string().nullable() }),
  capturedAt: z.string().nullable(),
  recommended_action: z.enum(ACTIONS).meta({ description: "The action for `from`, also when it is not in an incident." }),
  excluded_providers: z.array(z.strictObject({ provider: z.string(), reason: z.string() })),
  failover_to: VerdictEntrySchema.nullable().meta({ description: "Same shape as a route-verdict verdict; null when no other provider has an eligible model (not charged)." }),
  alternatives: z.array(VerdictEntrySchema),
  trust: TrustSchema,
  note: z.string().nullable(),
});
export type FailoverBody = z.infer<typeof FailoverResponse>;

/** Share of the named model's trust-discounted quality a destination must reach when `model` is given. */
export const COMPARABLE_SHARE = 0.9;

/** Render GET /api/premium/failover-verdict. */
export async function renderFailover(ctx: RenderContext, query: FailoverQueryInput): Promise<FailoverBody> {
  const inputs = await readRouteInputs(ctx);
  const from = resolveProvider(query.from, inputs.providers);
  if (from === null) {
    throw new ApiError(404, "unknown_provider", `provider ${JSON.stringify(query.from)} is not tracked; see /api/status`, {
      known: inputs.providers.map((p) => p.id).sort(),
      aliases: Object.keys(PROVIDER_ALIASES).sort(),
    });
  }
  const model = query.model === undefined ? undefined : resolveModel(inputs.models, query.model);
  const v = failoverVerdict(inputs, { from, task: query.task ?? "general", ...(model ? { model } : {}), now: ctx.now, comparableShare: COMPARABLE_SHARE });
  return {
    ok: true,
    from: { ...v.from, status: v.from.status as FailoverBody["from"]["status"] },
    query: v.query,
    capturedAt: v.capturedAt,
    recommended_action: v.recommended_action,
    excluded_providers: v.excluded_providers,
    failover_to: v.failover_to,
    alternatives: v.alternatives,
    trust: v.trust,
    note: v.note,
  };
}

/** The premium failover-verdict route. */
export const premiumFailoverRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/failover-verdict",
    tier: "premium",
    cost: 1,
    summary: "Where to send traffic when a provider fails: its current incident with impact class, recommended action and triage summary, and a failover destination in the route verdict's shape, with alternatives.",
    description: [
      "from: a provider id, display name or alias (case-insensitive); unknown → 404 unknown_provider, not charged.",
      "The status feeds carry no incident text, so the incident is described from the status snapshot's components. API-facing components are all but consoles, dashboards, docs, websites, logins, consumer apps and the like.",
      "impact_classification: full_outage (page down, every API-facing component down or none listed), partial_outage (an API-facing component down, or the page down otherwise), degraded_performance (something degraded, no API-facing component down), none, unknown (page untracked or unreadable).",
      "recommended_action: FAIL_OVER_NOW (full or partial outage), FAIL_OVER_LATENCY_SENSITIVE (an API-facing component degraded), MONITOR (only non-API surfaces impaired, or unknown), NO_ACTION.",
      "started_at: the first of the provider's current run of degraded or down status samples (warehouse status_samples, newest two days).",
      `failover_to and alternatives: the route verdict for task (default general) with from and every provider whose page shows down excluded (excluded_providers says why); with model, destinations are kept to models whose trust-discounted quality is at least ${COMPARABLE_SHARE * 100}% of the named model's when any is (else all, with a note).`,
      ...SCORING_RULES,
      "No destination (failover_to null) is not charged (no_eligible_model).",
    ].join(" "),
    tags: ["premium", "providers", "routing"],
    query: FailoverQuery,
    response: FailoverResponse,
    errors: { 404: "the provider is not tracked (unknown_provider) or the model is not in the catalog (unknown_model)", 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["status"],
    freshness: { cadence: `${statusSnapshotType.cadence} (status)`, slaSeconds: OPERATIONAL_SLA_SECONDS },
    example: "/api/premium/failover-verdict?from=groq&task=code",
    noCharge: {
      outcomes: {
        operational_layer_stale: `the newest status sample is older than ${OPERATIONAL_SLA_SECONDS / 60} minutes at the time of the call`,
        no_eligible_model: "no model of another provider qualifies (failover_to null)",
      },
      check: (body) => routeNoCharge(body),
    },
    render: (ctx, { query }) => renderFailover(ctx, query),
  }),
];
