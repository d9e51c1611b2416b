/** The `embeddings` snapshot: the hand-curated catalog of embedding models and rerankers. */
import { z } from "zod";
import { catalogId, checkedDate, oneLine, sourceUrls } from "../fields.ts";
import type { SnapshotType } from "../snapshot-type.ts";

export const embeddingTypes = ["embedding", "reranker"] as const;

export const embeddingType = z.enum(embeddingTypes);

/** One embedding model or reranker (strict). Rerankers have `dimensions: null`; embedding models an integer. */
export const embeddingEntrySchema = z
  .strictObject({
    id: catalogId,
    name: oneLine(80),
    provider: oneLine(80),
    type: embeddingType,
    dimensions: z.int().positive().nullable(),
    maxInputTokens: z.int().positive(),
    pricePer1MTokens: z.number().nonnegative().nullable(),
    openSource: z.boolean(),
    license: oneLine(120),
    multilingual: z.boolean(),
    mtebAvg: z.number().min(0).max(100).nullable(),
    note: oneLine(240),
    pricingNote: oneLine(240),
    source: sourceUrls,
    checked: checkedDate,
  })
  .superRefine((entry, ctx) => {
    if (entry.type === "reranker" && entry.dimensions !== null) {
      ctx.addIssue({ code: "custom", path: ["dimensions"], message: "a reranker has dimensions null" });
    }
    if (entry.type === "embedding" && entry.dimensions === null) {
      ctx.addIssue({ code: "custom", path: ["dimensions"], message: "an embedding model needs its dimensions" });
    }
    if (entry.type === "reranker" && entry.mtebAvg !== null) {
      ctx.addIssue({ code: "custom", path: ["mtebAvg"], message: "the MTEB embedding average does not apply to a reranker" });
    }
  });

export type EmbeddingEntry = z.infer<typeof embeddingEntrySchema>;

export type EmbeddingType = z.infer<typeof embeddingType>;

/** The `embeddings` snapshot body (strict). */
export const embeddingsSnapshotSchema = z.strictObject({
  /** Newest `checked` date among the entries. */
  lastUpdated: checkedDate,
  /** Entries sorted by type (embedding first), then id. */
  models: z.array(embeddingEntrySchema),
});

export type EmbeddingsSnapshot = z.infer<typeof embeddingsSnapshotSchema>;

/** The `embeddings` snapshot type. */
export const embeddingsSnapshotType = {
  type: "embeddings",
  title: "Embedding models and rerankers (curated)",
  cron: "19 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: embeddingsSnapshotSchema,
} satisfies SnapshotType<EmbeddingsSnapshot>;
