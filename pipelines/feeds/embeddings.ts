/**
 * Feed `embeddings`: the embeddings and rerankers catalog. No upstream: it validates the hand-curated
 * catalog (pipelines/catalog/embeddings.ts) with its strict schema and emits it.
 */
import { assertUniqueIds, newestChecked, parseEntries } from "../catalog/curated-fields.ts";
import { embeddingsCatalog } from "../catalog/embeddings.ts";
import type { Feed } from "../lib/types.ts";
import { embeddingEntrySchema, type EmbeddingsSnapshot, embeddingsSnapshotSchema, embeddingsSnapshotType } from "../contract/snapshots/embeddings.ts";

export { type EmbeddingsSnapshot, embeddingsSnapshotSchema } from "../contract/snapshots/embeddings.ts";

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
  ...embeddingsSnapshotType,
  urls: () => [],
  async run() {
    const data = buildEmbeddingsSnapshot(embeddingsCatalog);
    return { data, rows: data.models.length, sources: [{ id: "catalog:embeddings", ok: true, rows: data.models.length }] };
  },
} satisfies Feed<EmbeddingsSnapshot>;
