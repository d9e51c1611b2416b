/** The `pricing` snapshot: the curated model catalog with list prices, each cross-checked against the aggregator. */
import { z } from "zod";
import { httpUrl } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

/** What a model can take or do. */
export const CapabilitySchema = z.enum(["text", "vision", "audio", "tools", "reasoning", "json_mode"]);

export type Capability = z.infer<typeof CapabilitySchema>;

/** Rough size class inside a provider's line-up. */
export const TierSchema = z.enum(["flagship", "mid", "small"]);

/** How the aggregator's listing compares with the curated entry. */
export const PriceCheckSchema = z.strictObject({
  /** agrees: both prices within 1%; disagrees: either differs by more; missing: not listed; unpriced: listed without a usable per-token price. */
  status: z.enum(["agrees", "disagrees", "missing", "unpriced"]),
  aggregatorId: z.string(),
  aggregatorInput: z.number().nonnegative().nullable(),
  aggregatorOutput: z.number().nonnegative().nullable(),
  aggregatorContextWindow: z.number().int().positive().nullable(),
});

export type PriceCheck = z.infer<typeof PriceCheckSchema>;

/** Who stated a price. */
export const PriceSourceSchema = z.enum(["curated", "aggregator"]);
export type PriceSource = z.infer<typeof PriceSourceSchema>;

/** One source's statement of a model's price and when it was observed. */
export const PriceObservationSchema = z.strictObject({
  source: PriceSourceSchema,
  inputCostPer1M: z.number().nonnegative(),
  outputCostPer1M: z.number().nonnegative(),
  /**
   * When the source stated this price: the provider's check date at 00:00 UTC (curated), the first capture of
   * the aggregator's list that showed these figures (aggregator; kept while they do not change).
   */
  observedAt: z.iso.datetime(),
  /** Where it was read: the provider's pricing page, or the aggregator's model list. */
  url: httpUrl,
});
export type PriceObservation = z.infer<typeof PriceObservationSchema>;

/** One model as the snapshot carries it. */
export const PricingModelSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  provider: z.string(),
  /** The served input price: the newest observation's. */
  inputCostPer1M: z.number().nonnegative(),
  /** The served output price: the newest observation's. */
  outputCostPer1M: z.number().nonnegative(),
  currency: z.literal("USD"),
  /** Which observation the served prices are (the newest; the curated one on a tie). */
  priceServed: PriceSourceSchema,
  /** When the served price was observed. */
  priceObservedAt: z.iso.datetime(),
  /** Every source's price for this model, newest first (curated always; the aggregator's when it states one). */
  priceObservations: z.array(PriceObservationSchema).min(1),
  contextWindow: z.number().int().positive(),
  maxOutput: z.number().int().positive().nullable(),
  capabilities: z.array(CapabilitySchema),
  releaseDate: z.iso.date(),
  openSource: z.boolean(),
  tier: TierSchema,
  aggregatorId: z.string(),
  /** Where the price was read (the model's override or its provider's pricing page). */
  pricingSource: httpUrl,
  priceNote: z.string().nullable(),
  /** Null when the aggregator could not be read this run. */
  priceCheck: PriceCheckSchema.nullable(),
});

export type PricingModel = z.infer<typeof PricingModelSchema>;

/** One provider group of the snapshot. */
export const PricingProviderSchema = z.strictObject({
  id: z.string(),
  name: z.string(),
  url: httpUrl,
  statusPageUrl: httpUrl.nullable(),
  pricingSource: httpUrl,
  checked: z.iso.date(),
  pricingNote: z.string().nullable(),
  models: z.array(PricingModelSchema),
});

/** The `pricing` snapshot body. */
export const PricingSnapshotSchema = z.strictObject({
  /** The newest `checked` date among providers: from the data, never the clock. */
  lastUpdated: z.iso.date(),
  providers: z.array(PricingProviderSchema),
});

export type PricingSnapshot = z.infer<typeof PricingSnapshotSchema>;

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Bodies written before prices carried their observations (every model served its curated price) read as
 * exactly that: one curated observation, made on the provider's check date. Anything else passes unchanged.
 */
function upgradeLegacyPricing(raw: unknown): unknown {
  if (!isObject(raw) || !Array.isArray(raw.providers)) return raw;
  return {
    ...raw,
    providers: raw.providers.map((p: unknown) => {
      if (!isObject(p) || !Array.isArray(p.models) || typeof p.checked !== "string") return p;
      const observedAt = `${p.checked}T00:00:00.000Z`;
      return {
        ...p,
        models: p.models.map((m: unknown) => {
          if (!isObject(m) || "priceObservations" in m) return m;
          const url = typeof m.pricingSource === "string" ? m.pricingSource : p.pricingSource;
          const observation = { source: "curated", inputCostPer1M: m.inputCostPer1M, outputCostPer1M: m.outputCostPer1M, observedAt, url };
          return { ...m, priceServed: "curated", priceObservedAt: observedAt, priceObservations: [observation] };
        }),
      };
    }),
  };
}

/** The `pricing` body of any version the store may hold (older bodies upgraded), as the current schema. */
export const PricingSnapshotStoredSchema = z.preprocess(upgradeLegacyPricing, PricingSnapshotSchema);

/** The `pricing` snapshot type. */
export const pricingSnapshotType = {
  type: "pricing",
  title: "Model catalog and prices",
  cron: "7 * * * *",
  cadence: "hourly",
  slaSeconds: 7200,
  schema: PricingSnapshotStoredSchema,
} satisfies SnapshotType<PricingSnapshot>;
