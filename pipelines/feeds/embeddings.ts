/**
 * Feed `embeddings`: the embeddings and rerankers catalog. No upstream: it validates the hand-curated
 * catalog (pipelines/catalog/embeddings.ts) with its strict schema and emits it.
 */
import { z } from "zod";
import { assertUniqueIds, checkedDate, newestChecked, parseEntries } from "../catalog/curated-fields.ts";
import { embeddingEntrySchema, embeddingsCatalog } from "../catalog/embeddings.ts";
import type { Feed } from "../lib/types.ts";

/** The `embeddings` snapshot body (strict). */
export const embeddingsSnapshotSchema = z.strictObject({
  /** Newest `checked` date among the entries. */
  lastUpdated: checkedDate,
  /** Entries sorted by type (embedding first), then id. */
  models: z.array(embeddingEntrySchema),
});

export type EmbeddingsSnapshot = z.infer<typeof embeddingsSnapshotSchema>;

/** Validate the catalog (strict schema, unique ids) and build the snapshot body; throws CatalogError on bad data. */
export function buildEmbeddingsSnapshot(entries: readonly unknown[]): EmbeddingsSnapshot {
  const models = parseEntries("embeddings", embeddingEntrySchema, entries).sort(
    (a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  assertUniqueIds("embeddings", models);
  return embeddingsSnapshotSchema.parse({ lastUpdated: newestChecked("embeddings", models), models });
}

/** The embeddings and rerankers feed: daily, offline, curated. */
export const embeddingsFeed = {
  type: "embeddings",
  title: "Embedding models and rerankers (curated)",
  cron: "19 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: embeddingsSnapshotSchema,
  urls: () => [],
  async run() {
    const data = buildEmbeddingsSnapshot(embeddingsCatalog);
    return { data, rows: data.models.length, sources: [{ id: "catalog:embeddings", ok: true, rows: data.models.length }] };
  },
} satisfies Feed<EmbeddingsSnapshot>;
