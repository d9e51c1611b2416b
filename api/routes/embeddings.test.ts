import { describe, expect, it } from "vitest";
import { embeddingsFeed } from "../../pipelines/feeds/embeddings.ts";
import { createApp, type AnyRoute, type ServedSnapshots } from "../app.ts";
import { ApiError, type LoadedSnapshot, type RenderContext } from "../registry/types.ts";
import { EmbeddingsQuery, EmbeddingsResponse, embeddingsRoutes, selectEmbeddings } from "./embeddings.ts";
import type { EmbeddingsSnapshot } from "../../pipelines/contract/snapshots/embeddings.ts";

const data: EmbeddingsSnapshot = (await embeddingsFeed.run()).data;

function snapshots(body: unknown | undefined): ServedSnapshots {
  const loaded = body === undefined ? undefined : ({
    type: "embeddings",
    data: body,
    meta: {
      type: "embeddings", date: "2026-11-22", lastSuccess: "2026-11-22T05:19:02.000Z", lastAttempt: "2026-11-22T05:19:02.000Z",
      lastChanged: "2026-11-22T05:19:02.000Z", lastError: null, rows: 26, provenance: "live", slaSeconds: 172_800, cadence: "daily", sources: [],
    },
  } satisfies LoadedSnapshot);
  return {
    generation: 1,
    get: <T,>(type: string) => (type === "embeddings" ? (loaded as LoadedSnapshot<T> | undefined) : undefined),
    types: () => (loaded ? ["embeddings"] : []),
    dates: () => [],
    dated: async () => undefined,
  };
}

const ctx = (body: unknown | undefined): RenderContext => ({ snapshots: snapshots(body), baseUrl: "http://localhost:3000", now: new Date("2026-11-23T00:00:00Z") });
const render = embeddingsRoutes[0]!.render!;
const run = async (query: Record<string, string>) => EmbeddingsResponse.parse(await render(ctx(data), { query: EmbeddingsQuery.parse(query), params: {} }));

describe("GET /api/embeddings", () => {
  it("render() without a filter returns every model with count and lastUpdated from the data", async () => {
    const body = await run({});
    expect(body.models).toEqual(data.models);
    expect(body.count).toBe(data.models.length);
    expect(body.lastUpdated).toBe(data.lastUpdated);
  });

  it("render() with type=embedding and type=reranker splits the catalog without overlap", async () => {
    const embeddings = await run({ type: "embedding" });
    const rerankers = await run({ type: "reranker" });
    expect(embeddings.count).toBeGreaterThan(0);
    expect(rerankers.count).toBeGreaterThan(0);
    expect(embeddings.models.every((m) => m.type === "embedding" && m.dimensions !== null)).toBe(true);
    expect(rerankers.models.every((m) => m.type === "reranker" && m.dimensions === null)).toBe(true);
    expect(embeddings.count + rerankers.count).toBe(data.models.length);
  });

  it("selectEmbeddings() keeps lastUpdated of the whole catalog even when the filter leaves nothing", () => {
    const onlyEmbeddings = { ...data, models: data.models.filter((m) => m.type === "embedding") };
    expect(selectEmbeddings(onlyEmbeddings, { type: "reranker" })).toEqual({ ok: true, lastUpdated: data.lastUpdated, count: 0, models: [] });
  });

  it("EmbeddingsQuery rejects an unknown type, an empty value, a repeated value and unknown parameters", () => {
    for (const bad of [{ type: "sparse" }, { type: "" }, { type: "Embedding" }, { type: ["embedding", "reranker"] }, { q: "bge" }]) {
      expect(EmbeddingsQuery.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it("render() throws 503 snapshot_unavailable when the snapshot is missing or malformed", async () => {
    for (const body of [undefined, { lastUpdated: "2026-11-22", models: [{ id: "x" }] }]) {
      const err = await Promise.resolve()
        .then(() => render(ctx(body), { query: {}, params: {} }))
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 503, code: "snapshot_unavailable" });
    }
  });

  it("the served route answers 400 invalid_query for a bad type and 503 without a snapshot", async () => {
    const served = createApp({ routes: embeddingsRoutes as readonly AnyRoute[], snapshots: snapshots(data), baseUrl: "http://localhost", rateLimitPerMinute: 0, trustProxy: null });
    const empty = createApp({ routes: embeddingsRoutes as readonly AnyRoute[], snapshots: snapshots(undefined), baseUrl: "http://localhost", rateLimitPerMinute: 0, trustProxy: null });
    try {
      const ok = await served.app.fetch(new Request("http://localhost/api/embeddings?type=reranker"));
      expect(ok.status).toBe(200);
      expect(EmbeddingsResponse.parse(await ok.json()).models.every((m) => m.type === "reranker")).toBe(true);
      const bad = await served.app.fetch(new Request("http://localhost/api/embeddings?type=sparse"));
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ ok: false, error: "invalid_query" });
      const missing = await empty.app.fetch(new Request("http://localhost/api/embeddings"));
      expect(missing.status).toBe(503);
      expect(await missing.json()).toMatchObject({ ok: false, error: "snapshot_unavailable" });
    } finally {
      served.dispose();
      empty.dispose();
    }
  });
});
