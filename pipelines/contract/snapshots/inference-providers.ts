/** The `inference-providers` snapshot: each catalog model's inference providers and their prices as the aggregator lists them (OpenRouter endpoints). */
import { z } from "zod";
import type { SnapshotType } from "../snapshot-type.ts";

/** The URL pattern the snapshot names as its source. */
export const INFERENCE_PROVIDERS_SOURCE = "https://openrouter.ai/api/v1/models/{author}/{slug}/endpoints";

/** One provider serving a model, as the snapshot carries it. */
export const InferenceProviderSchema = z.strictObject({
  provider: z.string().min(1),
  tag: z.string().min(1),
  context_length: z.number().int().positive().nullable(),
  input_per_1m: z.number().nonnegative().nullable(),
  output_per_1m: z.number().nonnegative().nullable(),
  /** Median output tokens per second, last 30 minutes; null when the aggregator does not state it. */
  throughput_tps: z.number().nonnegative().nullable(),
  /** Median time to first token, ms, last 30 minutes; null when not stated. */
  latency_ms: z.number().nonnegative().nullable(),
  /** Successful requests, percent, last 30 minutes; null when not stated. */
  uptime_last_30m: z.number().min(0).max(100).nullable(),
  quantization: z.string().min(1).nullable(),
  /** The aggregator's endpoint status as given (0 in normal operation, negative otherwise); null when absent. */
  status: z.number().int().nullable(),
});

export type InferenceProvider = z.infer<typeof InferenceProviderSchema>;

/** One model and its providers (sorted by provider, then tag). */
export const InferenceModelSchema = z.strictObject({
  /** Aggregator model id (`author/slug`). */
  model_id: z.string().min(1),
  /** The curated catalog's model id (as /api/models serves it). */
  catalog_id: z.string().min(1),
  providers: z.array(InferenceProviderSchema),
});

export type InferenceModel = z.infer<typeof InferenceModelSchema>;

/** The `inference-providers` snapshot body. */
export const InferenceProvidersSnapshotSchema = z.strictObject({
  source: z.literal(INFERENCE_PROVIDERS_SOURCE),
  summary: z.strictObject({
    models: z.number().int().nonnegative(),
    /** Distinct provider names across all models. */
    providers: z.number().int().nonnegative(),
    /** Provider endpoints across all models. */
    endpoints: z.number().int().nonnegative(),
    /** Catalog models asked for whose listing failed this run (aggregator ids, sorted). */
    missing: z.array(z.string()),
  }),
  models: z.array(InferenceModelSchema).refine(
    (ms) => ms.every((m, i) => i === 0 || ms[i - 1]!.model_id < m.model_id),
    "models must be sorted by model_id with unique ids",
  ),
});

export type InferenceProvidersSnapshot = z.infer<typeof InferenceProvidersSnapshotSchema>;

/** The `inference-providers` snapshot type. */
export const inferenceProvidersSnapshotType = {
  type: "inference-providers",
  title: "Inference providers per model",
  cron: "29 */6 * * *",
  cadence: "every 6 hours",
  slaSeconds: 86_400,
  schema: InferenceProvidersSnapshotSchema,
} satisfies SnapshotType<InferenceProvidersSnapshot>;
