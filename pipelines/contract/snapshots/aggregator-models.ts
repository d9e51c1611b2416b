/** The `aggregator-models` snapshot: the aggregator's full model list (OpenRouter format) with per-token and per-1M prices. */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** The aggregator's model list endpoint (OpenRouter format); the snapshot's `source`. */
export const OPENROUTER_MODELS_URL = "https://openrouter.ai/api/v1/models";

/** One aggregator model as the snapshot carries it. */
export const AggregatorModelSchema = z.strictObject({
  id: z.string().min(1),
  name: z.string().min(1),
  namespace: z.string().min(1),
  created: z.iso.date().nullable(),
  context_length: z.number().int().positive().nullable(),
  max_output: z.number().int().positive().nullable(),
  modality: z.string().nullable(),
  input_modalities: z.array(z.string()),
  output_modalities: z.array(z.string()),
  pricing: z.strictObject({
    prompt_per_token: z.number().nonnegative().nullable(),
    completion_per_token: z.number().nonnegative().nullable(),
    input_per_1m: z.number().nonnegative().nullable(),
    output_per_1m: z.number().nonnegative().nullable(),
  }),
  free: z.boolean(),
});

export type AggregatorModel = z.infer<typeof AggregatorModelSchema>;

/** The `aggregator-models` snapshot body. */
export const AggregatorModelsSnapshotSchema = z.strictObject({
  source: z.literal(OPENROUTER_MODELS_URL),
  summary: z.strictObject({
    total: z.number().int().nonnegative(),
    free_count: z.number().int().nonnegative(),
    /** Distinct namespaces. */
    namespaces: z.number().int().nonnegative(),
    /** Models without a usable per-token price (variable-price routers). */
    unpriced_count: z.number().int().nonnegative(),
  }),
  models: z.array(AggregatorModelSchema).refine(
    (ms) => ms.every((m, i) => i === 0 || ms[i - 1]!.id < m.id),
    "models must be sorted by id with unique ids",
  ),
});

export type AggregatorModelsSnapshot = z.infer<typeof AggregatorModelsSnapshotSchema>;

/** The `aggregator-models` snapshot type. */
export const aggregatorModelsSnapshotType = {
  type: "aggregator-models",
  title: "Aggregator model catalog",
  cron: "0 14 * * *",
  cadence: "daily at 14:00 UTC",
  slaSeconds: 172_800,
  schema: AggregatorModelsSnapshotSchema,
} satisfies SnapshotType<AggregatorModelsSnapshot>;
