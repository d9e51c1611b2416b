/**
 * GET /api/premium/provider-reliability-verdict: providers ranked by availability and tail tightness over the
 * last 24 hours of this service's probes, read from the warehouse (probe_samples, status_samples) and decided
 * in api/verdicts/provider-reliability.ts. Billing, the stale rule and the receipt come from the premium wrapper.
 */
import { z } from "zod";
import { probeSnapshotType } from "../../pipelines/contract/snapshots/probe.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { providerReliability, W_AVAILABILITY, W_TAIL, WINDOW_HOURS, type ReliabilityVerdict } from "../verdicts/provider-reliability.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import { readReliabilityWindow } from "./premium-provider-reads.ts";

/** Freshness SLA of the verdict, seconds (the contract's 30 minutes, keyed to the probes). */
export const RELIABILITY_SLA_SECONDS = 30 * 60;

const ms = (what: string) => z.number().nonnegative().nullable().meta({ description: `${what} of total request time over samples that answered as expected, ms; null when not measured.` });
const score = z.number().min(0).max(100);

/** One pick of the verdict. */
export const ReliabilityPickSchema = z
  .strictObject({ provider: z.string(), reliability_score: score })
  .nullable();

/** Body of GET /api/premium/provider-reliability-verdict (the billing wrapper adds billing and receipt). */
export const ReliabilityResponse = z.strictObject({
  ok: z.literal(true),
  capturedAt: z.string().nullable().meta({ description: "Time of the newest probe sample in the warehouse (the window's end); null when there is none." }),
  window_label: z.string().meta({ description: "The window the figures cover: the 24 h of samples ending at capturedAt." }),
  verdict: z.strictObject({
    most_dependable: ReliabilityPickSchema.meta({ description: "Highest score among measured providers (among all ranked ones when none is measured)." }),
    riskiest: ReliabilityPickSchema.meta({ description: "Lowest score in the same pool; null with one provider or when the pool scores alike." }),
  }),
  ranking: z.array(
    z.strictObject({
      rank: z.number().int().min(1),
      provider: z.string().meta({ description: "Provider id as in /api/probe and /api/status." }),
      ok_pct: z.number().min(0).max(100).meta({ description: "Probe samples that answered as expected, %; for a provider not probed, status-page samples not down, %." }),
      total_p50_ms: ms("50th percentile"),
      total_p95_ms: ms("95th percentile"),
      total_p99_ms: ms("99th percentile"),
      spread_ratio: z.number().nonnegative().nullable().meta({ description: "total_p99 / total_p50, 2 decimals; null when not measured." }),
      reliability_score: score.meta({ description: `0-100: 100 × (${W_AVAILABILITY} × ok share + ${W_TAIL} × p50/p95) when measured; ok_pct alone otherwise.` }),
      measured: z.boolean().meta({ description: "True when both availability and latency come from probe samples in the window." }),
      note: z.string().nullable().meta({ description: "Why a provider is availability-only." }),
    }),
  ),
  coverage: z.strictObject({
    providers_ranked: z.number().int().nonnegative(),
    fully_measured: z.number().int().nonnegative(),
    availability_only: z.number().int().nonnegative(),
  }),
});

function warehouseOf(ctx: RenderContext): WarehouseReader {
  if (!ctx.warehouse) throw new ApiError(503, "warehouse_unavailable", "the warehouse reader is not open on this instance");
  return ctx.warehouse;
}

/** Render GET /api/premium/provider-reliability-verdict. */
export async function renderProviderReliability(ctx: RenderContext): Promise<ReliabilityVerdict> {
  return providerReliability(await readReliabilityWindow(warehouseOf(ctx)));
}

/** The provider reliability verdict route. */
export const premiumProviderReliabilityRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/premium/provider-reliability-verdict",
    tier: "premium",
    cost: 1,
    summary: "Providers ranked by availability and tail tightness over the last 24 h of this service's API probes, with the most dependable and the riskiest.",
    description: [
      `Window: the ${WINDOW_HOURS} hours of probe samples ending at the newest one in the warehouse (capturedAt), read from the warehouse tables probe_samples and, for providers this service does not probe, status_samples of the same hours.`,
      `reliability_score = 100 × (${W_AVAILABILITY} × ok share + ${W_TAIL} × min(1, total_p50 / total_p95)), one decimal; percentiles are continuous over samples that answered as expected. spread_ratio = total_p99 / total_p50.`,
      "A provider without an answered probe sample (or not probed at all, ranked from its status page: samples not down / samples with a known status) is availability-only: measured false, latency null, score = ok_pct, ranked after every measured provider since its tail is unknown, and left out of the picks while any provider is measured.",
      "Order: measured first, then score, ok_pct, provider id. riskiest is null with a single provider in the pool or when the whole pool scores the same.",
      `Freshness SLA 30 minutes, judged on the probe feed's last successful run (its computed time, manifest lastSuccess; the feed runs ${probeSnapshotType.cadence} and writes the samples read here): an answer older than that is served with the data and not charged (stale_data).`,
      "A warehouse without any probe or status sample is answered 200 with an empty ranking and not charged (no_probe_data).",
    ].join(" "),
    tags: ["premium", "providers"],
    response: ReliabilityResponse,
    errors: { 503: "the warehouse reader is not open (warehouse_unavailable)" },
    snapshots: ["probe"],
    freshness: { cadence: `${probeSnapshotType.cadence} (probes)`, slaSeconds: RELIABILITY_SLA_SECONDS },
    noCharge: {
      outcomes: { no_probe_data: "the warehouse holds no probe or status sample to rank providers by" },
      check: (body) => (body.ranking.length === 0 ? "no_probe_data" : null),
    },
    answerMemo: true,
    render: (ctx) => renderProviderReliability(ctx),
  }),
];
