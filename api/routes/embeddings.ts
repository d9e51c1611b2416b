/**
 * GET /api/embeddings: the curated embeddings and rerankers catalog (snapshot type `embeddings`), optionally
 * restricted to one type.
 */
import { z } from "zod";
import { defineRoute } from "../registry/define.ts";
import { readSnapshot } from "../serve/read-snapshot.ts";
import { embeddingEntrySchema, type EmbeddingsSnapshot, embeddingsSnapshotSchema, embeddingsSnapshotType, embeddingType } from "../../pipelines/contract/snapshots/embeddings.ts";

/** Query of GET /api/embeddings; any other parameter or value answers 400. */
export const EmbeddingsQuery = z.strictObject({
  type: embeddingType.optional().meta({ description: "Only embedding models or only rerankers; omit for both." }),
});

export type EmbeddingsQueryInput = z.infer<typeof EmbeddingsQuery>;

/** Body of GET /api/embeddings. */
export const EmbeddingsResponse = z.strictObject({
  ok: z.literal(true),
  lastUpdated: z.iso.date().meta({ description: "Newest date an entry was checked (from the data, not the clock)." }),
  count: z.int().nonnegative(),
  models: z.array(embeddingEntrySchema),
});

export type EmbeddingsBody = z.infer<typeof EmbeddingsResponse>;

/** Filter the catalog by the query: `type` keeps one kind; no filter keeps all. Pure. */
export function selectEmbeddings(data: EmbeddingsSnapshot, query: EmbeddingsQueryInput): EmbeddingsBody {
  const models = query.type ? data.models.filter((m) => m.type === query.type) : data.models;
  return { ok: true, lastUpdated: data.lastUpdated, count: models.length, models };
}

/** The route family of the embeddings catalog. */
export const embeddingsRoutes = [
  defineRoute({
    method: "GET",
    path: "/api/embeddings",
    tier: "free",
    summary: "Curated catalog of embedding models and rerankers: dimensions, limits, price, license, MTEB.",
    description:
      "type=embedding|reranker filters; anything else answers 400. dimensions is null for rerankers. pricePer1MTokens is USD per 1M input tokens, null when there is no per-token price (open weights you host, per-search pricing; see pricingNote). mtebAvg is the English MTEB (v1, 56 datasets) average as published by the provider's docs or the model card (the note says which); null when not attributable. lastUpdated is the newest check date in the data.",
    tags: ["catalogs"],
    query: EmbeddingsQuery,
    response: EmbeddingsResponse,
    snapshots: ["embeddings"],
    freshness: { cadence: embeddingsSnapshotType.cadence, slaSeconds: embeddingsSnapshotType.slaSeconds },
    render: (ctx, { query }): EmbeddingsBody => selectEmbeddings(readSnapshot(ctx.snapshots, "embeddings", embeddingsSnapshotSchema).data, query),
  }),
];
