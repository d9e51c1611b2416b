/**
 * Feed `vector-dbs`: the vector databases catalog. No upstream: it validates the hand-curated catalog
 * (pipelines/catalog/vector-dbs.ts) with its strict schema and emits it.
 */
import { z } from "zod";
import { assertUniqueIds, checkedDate, newestChecked, parseEntries } from "../catalog/curated-fields.ts";
import { vectorDbEntrySchema, vectorDbsCatalog } from "../catalog/vector-dbs.ts";
import type { Feed } from "../lib/types.ts";

/** The `vector-dbs` snapshot body (strict). */
export const vectorDbsSnapshotSchema = z.strictObject({
  /** Newest `checked` date among the entries. */
  lastUpdated: checkedDate,
  /** Entries sorted by id. */
  databases: z.array(vectorDbEntrySchema),
});

export type VectorDbsSnapshot = z.infer<typeof vectorDbsSnapshotSchema>;

/** Validate the catalog (strict schema, unique ids) and build the snapshot body; throws CatalogError on bad data. */
export function buildVectorDbsSnapshot(entries: readonly unknown[]): VectorDbsSnapshot {
  const databases = parseEntries("vector-dbs", vectorDbEntrySchema, entries).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  assertUniqueIds("vector-dbs", databases);
  return vectorDbsSnapshotSchema.parse({ lastUpdated: newestChecked("vector-dbs", databases), databases });
}

/** The vector databases feed: daily, offline, curated. */
export const vectorDbsFeed = {
  type: "vector-dbs",
  title: "Vector databases (curated)",
  cron: "21 5 * * *",
  cadence: "daily",
  slaSeconds: 2 * 24 * 60 * 60,
  schema: vectorDbsSnapshotSchema,
  urls: () => [],
  async run() {
    const data = buildVectorDbsSnapshot(vectorDbsCatalog);
    return { data, rows: data.databases.length, sources: [{ id: "catalog:vector-dbs", ok: true, rows: data.databases.length }] };
  },
} satisfies Feed<VectorDbsSnapshot>;
