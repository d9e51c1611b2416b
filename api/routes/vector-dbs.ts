/**
 * GET /api/vector-dbs: the curated vector databases catalog (snapshot type `vector-dbs`), filtered by type
 * and by open source.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { vectorDbEntrySchema, type VectorDbsSnapshot, vectorDbsSnapshotSchema, vectorDbsSnapshotType, vectorDbType } from "../../pipelines/contract/snapshots/vector-dbs.ts";

/** Accepted spellings of the open_source boolean: true/1 and false/0, nothing else. */
export const booleanParamValues = ["true", "false", "1", "0"] as const;

/** Query of GET /api/vector-dbs; any other parameter or value answers 400. */
export const VectorDbsQuery = z.strictObject({
  type: vectorDbType.optional().meta({
    description: "managed (hosted only), oss (self-host open source only) or hybrid (both); omit for all.",
  }),
  open_source: z.enum(booleanParamValues).optional().meta({
    description:
      "true (or 1) keeps open-source entries whatever their type; false (or 0) keeps the others. Combines with type (AND).",
  }),
});

export type VectorDbsQueryInput = z.infer<typeof VectorDbsQuery>;

/** Body of GET /api/vector-dbs. */
export const VectorDbsResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.iso.date().meta({ description: "Newest date an entry was checked (from the data, not the clock)." }),
  count: z.int().nonnegative(),
  databases: z.array(vectorDbEntrySchema),
});

export type VectorDbsBody = z.infer<typeof VectorDbsResponse>;

/** Filter the catalog: `type` keeps one type; `open_source` keeps entries whose openSource flag matches. Pure. */
export function selectVectorDbs(data: VectorDbsSnapshot, query: VectorDbsQueryInput): VectorDbsBody {
  const openSource = query.open_source === undefined ? undefined : query.open_source === "true" || query.open_source === "1";
  const databases = data.databases.filter(
    (db) => (query.type === undefined || db.type === query.type) && (openSource === undefined || db.openSource === openSource),
  );
  return { ok: true, lastUpdated: data.lastUpdated, count: databases.length, databases };
}

/** The route family of the vector databases catalog. */
export const vectorDbsRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/vector-dbs",
    tier: "free",
    summary: "Curated catalog of vector databases: hosting, free tier, starting price, license, features.",
    description:
      "type=managed|oss|hybrid and open_source=true|false|1|0 filter and combine with AND; open_source=true keeps every open-source entry (oss and hybrid), regardless of type. Any other value answers 400. startingPriceUSDMonth is null for usage-based-only or open-source-only offers (the note says why). lastUpdated is the newest check date in the data.",
    tags: ["catalogs"],
    query: VectorDbsQuery,
    response: VectorDbsResponse,
    snapshots: ["vector-dbs"],
    freshness: { cadence: vectorDbsSnapshotType.cadence, slaSeconds: vectorDbsSnapshotType.slaSeconds },
    render: (ctx, { query }): VectorDbsBody => selectVectorDbs(readSnapshot(ctx.snapshots, "vector-dbs", vectorDbsSnapshotSchema).data, query),
  }),
];
