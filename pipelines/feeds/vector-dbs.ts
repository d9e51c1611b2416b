/**
 * Feed `vector-dbs`: the vector databases catalog. No upstream: it validates the hand-curated catalog
 * (pipelines/catalog/vector-dbs.ts) with its strict schema and emits it.
 */
import { assertUniqueIds, newestChecked, parseEntries } from "../catalog/curated-fields.ts";
import { vectorDbsCatalog } from "../catalog/vector-dbs.ts";
import type { Feed } from "../lib/types.ts";
import { vectorDbEntrySchema, type VectorDbsSnapshot, vectorDbsSnapshotSchema, vectorDbsSnapshotType } from "../contract/snapshots/vector-dbs.ts";

export { type VectorDbsSnapshot, vectorDbsSnapshotSchema } from "../contract/snapshots/vector-dbs.ts";

/** Validate the catalog (strict schema, unique ids) and build the snapshot body; throws CatalogError on bad data. */
export function buildVectorDbsSnapshot(entries: readonly unknown[]): VectorDbsSnapshot {
  const databases = parseEntries("vector-dbs", vectorDbEntrySchema, entries).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  assertUniqueIds("vector-dbs", databases);
  return vectorDbsSnapshotSchema.parse({ lastUpdated: newestChecked("vector-dbs", databases), databases });
}

/** The vector databases feed: daily, offline, curated. */
export const vectorDbsFeed = {
  ...vectorDbsSnapshotType,
  urls: () => [],
  async run() {
    const data = buildVectorDbsSnapshot(vectorDbsCatalog);
    return { data, rows: data.databases.length, sources: [{ id: "catalog:vector-dbs", ok: true, rows: data.databases.length }] };
  },
} satisfies Feed<VectorDbsSnapshot>;
