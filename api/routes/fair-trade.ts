/**
 * GET /.well-known/agent-fair-trade.json: the machine-readable statement of this service's fair-trade
 * guarantees (standard "agent-fair-trade" 1.0). Generated from the route registry (every premium route with
 * its cost, freshness SLA and no-charge outcomes) and the billing rules themselves (no-charge rules, breaker
 * thresholds, idempotency, receipt format): there is no second list to keep in sync.
 */
import { z } from "zod";
import { breakerThresholdsFromEnv } from "../billing/breakers.ts";
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_SECONDS } from "../billing/idempotency.ts";
import { NO_CHARGE_REASONS, NO_CHARGE_RULES } from "../billing/no-charge.ts";
import { SignedFields } from "../billing/receipts.ts";
import { UNITS_PER_CREDIT } from "../billing/x402.ts";
import { unitsToUsd } from "../payments/units.ts";
import { defineRoute } from "../registry/define.ts";
import { contractSlas } from "../registry/freshness.ts";
import type { RenderContext, RouteDef } from "../registry/types.ts";

const Outcome = z.strictObject({ reason: z.string(), when: z.string() });
const Threshold = z.strictObject({ max: z.number().int(), window_seconds: z.number().int() });

/** Body of GET /.well-known/agent-fair-trade.json. */
export const FairTradeManifest = z.strictObject({
  ok: z.literal(true),
  standard: z.literal("agent-fair-trade"),
  version: z.literal("1.0"),
  publisher: z.strictObject({ name: z.string(), url: z.string() }),
  pricing: z.strictObject({
    unit: z.literal("credit"),
    usd_per_credit: z.string(),
    usdc_units_per_credit: z.string(),
    buy_credits: z.string(),
    payment_info: z.string(),
  }),
  no_charge_guarantees: z.array(z.strictObject({ reason: z.string(), when: z.string(), answer: z.string(), held: z.boolean() })),
  receipts: z.strictObject({
    alg: z.literal("EdDSA"),
    crv: z.literal("Ed25519"),
    canonicalization: z.string(),
    hash: z.literal("sha256"),
    signed_fields: z.array(z.string()),
    request_hash: z.string(),
    response_hash: z.string(),
    key_url: z.string(),
    verify_url: z.string(),
  }),
  breakers: z.strictObject({
    scope: z.string(),
    answer: z.string(),
    identical_request: Threshold,
    burn_rate: Threshold,
  }),
  idempotency: z.strictObject({
    header: z.literal("Idempotency-Key"),
    max_length: z.number().int(),
    ttl_seconds: z.number().int(),
    scope: z.string(),
    conflicts: z.array(Outcome),
  }),
  endpoints: z.array(
    z.strictObject({
      method: z.string(),
      path: z.string(),
      summary: z.string(),
      cost_credits: z.number().int(),
      freshness: z.strictObject({ cadence: z.string(), sla_seconds: z.number() }).nullable(),
      snapshots: z.array(z.string()),
      no_charge_outcomes: z.array(Outcome),
    }),
  ),
});
export type FairTradeManifest = z.infer<typeof FairTradeManifest>;

/** The no-charge outcomes that apply to one premium route: the shared ones, stale data when it has an SLA, and its own. */
export function endpointOutcomes(route: RouteDef<any, any, any>): { reason: string; when: string }[] {
  const byReason = new Map(NO_CHARGE_RULES.map((r) => [r.reason, r.when]));
  const shared: string[] = [NO_CHARGE_REASONS.breaker_open, NO_CHARGE_REASONS.client_error, NO_CHARGE_REASONS.server_error, NO_CHARGE_REASONS.schema_failure];
  if ((route.snapshots ?? []).length > 0) shared.splice(1, 0, NO_CHARGE_REASONS.snapshot_unavailable);
  const out: { reason: string; when: string }[] = shared.map((reason) => ({ reason, when: byReason.get(reason) ?? reason }));
  const slas = contractSlas(route);
  if (slas.length > 0) {
    out.push({
      reason: NO_CHARGE_REASONS.stale_data,
      when: `a snapshot it reads was last refreshed longer ago than its SLA here (${slas.map((s) => `${s.type} ${s.slaSeconds} s`).join(", ")})`,
    });
  }
  for (const [reason, when] of Object.entries(route.noCharge?.outcomes ?? {})) out.push({ reason, when });
  return out;
}

/** Build the manifest from the registered routes. */
export function buildFairTradeManifest(ctx: Pick<RenderContext, "baseUrl" | "routes">): FairTradeManifest {
  const base = ctx.baseUrl;
  const premium = (ctx.routes ?? []).filter((r) => r.tier === "premium");
  const { identical_request: idT, burn_rate: burnT } = breakerThresholdsFromEnv();
  return {
    ok: true,
    standard: "agent-fair-trade",
    version: "1.0",
    publisher: { name: "agentfeed", url: base },
    pricing: {
      unit: "credit",
      usd_per_credit: unitsToUsd(UNITS_PER_CREDIT),
      usdc_units_per_credit: UNITS_PER_CREDIT.toString(),
      buy_credits: `${base}/api/payment/buy-credits`,
      payment_info: `${base}/api/payment/info`,
    },
    no_charge_guarantees: NO_CHARGE_RULES.map((r) => ({ ...r })),
    receipts: {
      alg: "EdDSA",
      crv: "Ed25519",
      canonicalization: "RFC 8785 JSON Canonicalization Scheme of receipt.signed",
      hash: "sha256",
      signed_fields: Object.keys(SignedFields.shape),
      request_hash: "sha256 hex of the canonical JSON { method, path, query (the endpoint's declared parameters as sent; undeclared ones are ignored and left out), body (JSON as sent, or null) }",
      response_hash: "sha256 hex of the canonical JSON of the response body without its billing and receipt members",
      key_url: `${base}/.well-known/receipt-key.json`,
      verify_url: `${base}/api/receipt/verify`,
    },
    breakers: {
      scope: "per bearer token, per API process, sliding windows; rejected calls do not count",
      answer: "429 breaker_open with Retry-After; nothing is held or charged",
      identical_request: { max: idT.max, window_seconds: idT.windowSeconds },
      burn_rate: { max: burnT.max, window_seconds: burnT.windowSeconds },
    },
    idempotency: {
      header: "Idempotency-Key",
      max_length: IDEMPOTENCY_KEY_MAX,
      ttl_seconds: IDEMPOTENCY_TTL_SECONDS,
      scope: "per bearer token; the same key and the same request hash replay the first answer (status and body) and charge once",
      conflicts: [
        { reason: "idempotency_key_reused", when: "409: the same key with a different request hash within the TTL" },
        { reason: "idempotency_in_progress", when: "409 with Retry-After 1: the first request with the key has not finished" },
      ],
    },
    endpoints: premium.map((r) => ({
      method: r.method,
      path: r.path,
      summary: r.summary,
      cost_credits: r.cost ?? 1,
      freshness: r.freshness ? { cadence: r.freshness.cadence, sla_seconds: r.freshness.slaSeconds } : null,
      snapshots: r.snapshots ?? [],
      no_charge_outcomes: endpointOutcomes(r),
    })),
  };
}

/** /.well-known/agent-fair-trade.json. */
export const fairTradeRoutes = [
  defineRoute({
    method: "GET",
    path: "/.well-known/agent-fair-trade.json",
    tier: "discovery",
    tags: ["meta", "billing"],
    summary: "Fair-trade manifest: no-charge guarantees, receipt format, breaker thresholds, and every premium endpoint with its cost, SLA and no-charge outcomes.",
    description:
      "Generated from the route registry and the billing rules the premium wrapper applies, so it cannot drift from what the service does. Publisher url is PUBLIC_BASE_URL.",
    response: FairTradeManifest,
    render: (ctx) => buildFairTradeManifest(ctx),
  }),
];
