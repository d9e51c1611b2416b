/**
 * GET /api/premium/resilience/concentration-verdict: how exposed a stack is that depends on the listed AI
 * providers. Reads the reliability window and the status history from the warehouse (api/routes/
 * premium-provider-reads.ts), resolves names through the provider alias table and decides in
 * api/verdicts/concentration.ts.
 */
import { z } from "zod";
import { resolveProviderName } from "../../pipelines/contract/vocabularies/provider-aliases.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import {
  concentrationVerdict,
  INCIDENT_HOURS_LIMIT,
  MAX_SUGGESTIONS,
  RELIABILITY_FLOOR,
  VERDICTS,
  type ConcentrationVerdict,
  type TrackedProvider,
} from "../verdicts/concentration.ts";
import { providerReliability } from "../verdicts/provider-reliability.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { INCIDENT_DAYS, readIncidentHistory, readReliabilityWindow } from "./premium-provider-reads.ts";

/** Providers one query may list. */
export const MAX_PROVIDERS = 20;
const NAME = /^[\w .&()/+-]{1,60}$/;

/** Query of GET /api/premium/resilience/concentration-verdict. */
export const ConcentrationQuery = z.strictObject({
  providers: z
    .string()
    .max(1000, "providers is at most 1000 characters")
    .transform((s) => s.split(",").map((p) => p.trim()).filter((p) => p !== ""))
    .pipe(
      z
        .array(z.string().regex(NAME, "each provider name is 1-60 letters, digits, spaces or . _ & ( ) / + -"))
        .min(1, "providers needs at least one name")
        .max(MAX_PROVIDERS, `providers lists at most ${MAX_PROVIDERS} names`),
    )
    .meta({ description: `Comma list of 1-${MAX_PROVIDERS} providers your stack calls: ids as in /api/status (openai, anthropic …) or other names (Claude, Gemini, Azure OpenAI, x.ai …), case-insensitive.` }),
});

const status = z.string().meta({ description: "operational | degraded | down | unknown (newest status-page sample)." });

/** Body of GET /api/premium/resilience/concentration-verdict (the billing wrapper adds billing and receipt). */
export const ConcentrationResponse = z.strictObject({
  ok: z.literal(true),
  verdict_kind: z.literal("dependency_concentration"),
  verdict: z.enum(VERDICTS).nullable().meta({ description: "RESILIENT | EXPOSED | CRITICAL; null when no listed provider is tracked." }),
  provider_count: z.number().int().nonnegative().meta({ description: "Distinct tracked providers among the listed names." }),
  single_point_of_failure: z.boolean().meta({ description: "At most one listed provider is up (not down) right now." }),
  currently_impaired: z.array(z.strictObject({ provider: z.string(), status })).meta({ description: "Listed providers degraded or down now, worst first." }),
  weakest_link: z
    .strictObject({ provider: z.string(), reliability_score: z.number().min(0).max(100).nullable(), current_status: status })
    .nullable(),
  diversification: z.strictObject({
    suggested: z.array(z.strictObject({ provider: z.string(), reliability_score: z.number().min(0).max(100), rank: z.number().int().min(1) })).meta({
      description: `Up to ${MAX_SUGGESTIONS} tracked providers not listed and operational now, best reliability rank first.`,
    }),
  }),
  recommendation: z.string(),
  untracked: z.array(z.string()).meta({ description: "Names of the query that match no tracked provider (unknown names, or providers without samples in the window)." }),
});

function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** Every provider with a sample in the reliability window, with its score, rank, newest status and incident hours. */
export async function trackedProviders(warehouse: WarehouseReader): Promise<TrackedProvider[]> {
  const [window, incidents] = await Promise.all([readReliabilityWindow(warehouse), readIncidentHistory(warehouse)]);
  const ranking = new Map(providerReliability(window).ranking.map((r) => [r.provider, r]));
  const statuses = new Map(window.statuses.map((s) => [s.provider, s.current_status]));
  const hours = new Map(incidents.map((i) => [i.provider, i.incident_hours]));
  const ids = [...new Set([...window.probes.map((p) => p.provider), ...statuses.keys()])].sort();
  return ids.map((provider) => ({
    provider,
    current_status: statuses.get(provider) ?? "unknown",
    reliability_score: ranking.get(provider)?.reliability_score ?? null,
    rank: ranking.get(provider)?.rank ?? null,
    incident_hours: hours.get(provider) ?? null,
  }));
}

/** Render GET /api/premium/resilience/concentration-verdict. */
export async function renderConcentration(ctx: RenderContext, query: z.infer<typeof ConcentrationQuery>): Promise<ConcentrationVerdict> {
  const tracked = await trackedProviders(warehouseOf(ctx));
  const ids = tracked.map((t) => t.provider);
  const listed = query.providers.map((asked) => ({ asked, id: resolveProviderName(asked, ids) ?? null }));
  return concentrationVerdict({ listed, tracked, incidentDays: INCIDENT_DAYS });
}

/** The concentration verdict route. */
export const premiumConcentrationRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/resilience/concentration-verdict",
    tier: "premium",
    cost: 1,
    summary: "How exposed a stack is that depends on the listed AI providers: RESILIENT, EXPOSED or CRITICAL, the weakest link and tracked providers to diversify to.",
    description: [
      "Names resolve case-insensitively through the provider alias table (pipelines/contract/vocabularies/provider-aliases.ts: ids, product, company and domain names); a provider is tracked when it has a probe or status-page sample in the reliability window (the last 24 h of samples, as /api/premium/provider-reliability-verdict).",
      "Inputs per provider, all from the warehouse: newest status-page status (status_samples), reliability_score and rank of the reliability verdict (probe_samples), and status-page incident hours over the last 7 days of status_daily.",
      `CRITICAL: at most one listed provider is up (single_point_of_failure), or none is fully operational. EXPOSED: otherwise, when any listed provider is degraded, down or of unknown status, scores below ${RELIABILITY_FLOOR} (or is unscored), or showed ${INCIDENT_HOURS_LIMIT} or more incident hours in ${INCIDENT_DAYS} days. RESILIENT: none of these.`,
      "weakest_link: worst current status, then lowest score, then most incident hours. Suggestions: tracked providers not listed and operational now, by reliability rank.",
      `A query in which no name is a tracked provider is answered 200 with verdict null and not charged (no_tracked_provider). Freshness SLA 30 minutes, judged on the last successful runs of the probe and status feeds, which write the samples read here: older data is served and not charged (stale_data).`,
    ].join(" "),
    tags: ["premium", "providers"],
    query: ConcentrationQuery,
    response: ConcentrationResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["probe", "status"],
    freshness: { cadence: "every 15 minutes (probes), every 2 minutes (status)", slaSeconds: 30 * 60 },
    example: "/api/premium/resilience/concentration-verdict?providers=openai,claude,gemini",
    noCharge: {
      outcomes: { no_tracked_provider: "none of the listed names is a provider this service tracks" },
      check: (body) => (body.verdict === null ? "no_tracked_provider" : null),
    },
    answerMemo: true,
    render: (ctx, { query }) => renderConcentration(ctx, query),
  }),
];
