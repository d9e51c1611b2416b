/**
 * Watch specs (the contract's events and watch spec types): the zod schema of each type, and the check of the
 * subject a spec names against the served snapshots (a model in the pricing data, a provider on the status
 * pages). Both run before the registration is charged.
 */
import { clip } from "../http/clip.ts";
import { z } from "zod";
import { ApiError, type SnapshotReader } from "../registry/types.ts";
import { priceValues, statusValues } from "./values.ts";

const subject = z.string().trim().min(1).max(200);

/** price: a model's inputPrice, outputPrice or blended price (USD per 1M tokens) crosses a threshold, or changes. */
export const PriceSpec = z
  .strictObject({
    type: z.literal("price"),
    model: subject.meta({ description: "Model id as in /api/models (the pricing snapshot)." }),
    field: z.enum(["inputPrice", "outputPrice", "blended"]),
    op: z.enum(["lt", "gt", "changes"]),
    threshold: z.number().nonnegative().max(1_000_000).optional().meta({ description: "USD per 1M tokens; required for lt and gt, refused with changes." }),
  })
  .refine((s) => s.op === "changes" || s.threshold !== undefined, { message: "threshold is required when op is lt or gt", path: ["threshold"] })
  .refine((s) => s.op !== "changes" || s.threshold === undefined, { message: "threshold applies to lt and gt only; op changes fires on every change, so leave it out", path: ["threshold"] });

/** status: a provider's status page becomes a value, or changes. */
export const StatusSpec = z
  .strictObject({
    type: z.literal("status"),
    provider: subject.meta({ description: "Provider id as in /api/status." }),
    op: z.enum(["becomes", "changes"]),
    value: z.enum(["operational", "degraded", "down"]).optional().meta({ description: "Required when op is becomes, refused with changes." }),
  })
  .refine((s) => s.op === "changes" || s.value !== undefined, { message: "value is required when op is becomes", path: ["value"] })
  .refine((s) => s.op !== "changes" || s.value === undefined, { message: "value applies to becomes only; op changes fires on every change, so leave it out", path: ["value"] });

/** digest: a pricing changes summary on each cadence. */
export const DigestSpec = z.strictObject({
  type: z.literal("digest"),
  cadence: z.enum(["daily", "weekly"]),
});

/** leaderboard_rank: a provider crosses a rank on the 7-day uptime leaderboard (1 = best). */
export const LeaderboardRankSpec = z
  .strictObject({
    type: z.literal("leaderboard_rank"),
    provider: subject.meta({ description: "Provider id as in /api/status." }),
    op: z.enum(["drops_below", "rises_above", "changes"]),
    threshold: z.number().int().min(1).max(1000).optional().meta({ description: "Integer rank, 1 = best; required unless op is changes, refused with changes." }),
  })
  .refine((s) => s.op === "changes" || s.threshold !== undefined, { message: "threshold is required when op is drops_below or rises_above", path: ["threshold"] })
  .refine((s) => s.op !== "changes" || s.threshold === undefined, { message: "threshold applies to drops_below and rises_above only; op changes fires on every change, so leave it out", path: ["threshold"] });

/** Any watch spec. */
export const WatchSpec = z.discriminatedUnion("type", [PriceSpec, StatusSpec, DigestSpec, LeaderboardRankSpec]);

export type PriceSpec = z.infer<typeof PriceSpec>;
export type StatusSpec = z.infer<typeof StatusSpec>;
export type DigestSpec = z.infer<typeof DigestSpec>;
export type LeaderboardRankSpec = z.infer<typeof LeaderboardRankSpec>;
export type WatchSpec = z.infer<typeof WatchSpec>;

/** 400 unknown_model / unknown_provider when the spec names a subject the served data does not track; 503 when that data is not loaded. */
export function checkSpecSubject(spec: WatchSpec, snapshots: SnapshotReader): void {
  if (spec.type === "price") {
    const prices = priceValues(snapshots);
    if (!prices.has(spec.model)) {
      throw new ApiError(400, "unknown_model", `model ${JSON.stringify(clip(spec.model))} is not in the pricing data; see /api/models for the ids; nothing was charged`);
    }
  } else if (spec.type === "status" || spec.type === "leaderboard_rank") {
    const statuses = statusValues(snapshots);
    if (!statuses.has(spec.provider)) {
      throw new ApiError(400, "unknown_provider", `provider ${JSON.stringify(clip(spec.provider))} is not tracked; see /api/status for the ids; nothing was charged`);
    }
  }
}
