import { describe, expect, it } from "vitest";
import { CatalogError } from "../catalog/curated-fields.ts";
import { embeddingsCatalog, type EmbeddingEntry } from "../catalog/embeddings.ts";
import { buildEmbeddingsSnapshot, embeddingsFeed, embeddingsSnapshotSchema } from "./embeddings.ts";

const embedding = embeddingsCatalog.find((m) => m.type === "embedding")!;
const reranker = embeddingsCatalog.find((m) => m.type === "reranker")!;
const entry = (over: Partial<EmbeddingEntry>, base: EmbeddingEntry = embedding): EmbeddingEntry => ({ ...base, ...over });

describe("embeddings catalog", () => {
  it("embeddingsCatalog holds at least 20 entries, both types, unique ids", () => {
    expect(embeddingsCatalog.length).toBeGreaterThanOrEqual(20);
    expect(new Set(embeddingsCatalog.map((m) => m.id)).size).toBe(embeddingsCatalog.length);
    expect(embeddingsCatalog.filter((m) => m.type === "reranker").length).toBeGreaterThanOrEqual(3);
  });

  it("embeddingsCatalog keeps dimensions null exactly for rerankers and mtebAvg null for them", () => {
    for (const m of embeddingsCatalog) {
      expect(m.dimensions === null, m.id).toBe(m.type === "reranker");
      if (m.type === "reranker") expect(m.mtebAvg, m.id).toBeNull();
    }
  });

  it("embeddingsCatalog explains every null price in pricingNote and names the source of every MTEB number", () => {
    for (const m of embeddingsCatalog) {
      expect(m.pricingNote.length, m.id).toBeGreaterThan(10);
      if (m.mtebAvg !== null) expect(m.note, m.id).toMatch(/MTEB [\d.]+ .*(model card|OpenAI's embeddings guide)/);
    }
  });
});

describe("buildEmbeddingsSnapshot()", () => {
  it("buildEmbeddingsSnapshot() validates the catalog and passes the strict snapshot schema", () => {
    const data = buildEmbeddingsSnapshot(embeddingsCatalog);
    expect(() => embeddingsSnapshotSchema.parse(data)).not.toThrow();
    expect(data.models).toHaveLength(embeddingsCatalog.length);
    const firstReranker = data.models.findIndex((m) => m.type === "reranker");
    expect(data.models.slice(firstReranker).every((m) => m.type === "reranker")).toBe(true);
  });

  it("buildEmbeddingsSnapshot() takes lastUpdated from the newest checked date in the data", () => {
    const data = buildEmbeddingsSnapshot([entry({ id: "a", checked: "2025-06-30" }), entry({ id: "b", checked: "2026-02-01" })]);
    expect(data.lastUpdated).toBe("2026-02-01");
  });

  it("buildEmbeddingsSnapshot() rejects a duplicate id", () => {
    expect(() => buildEmbeddingsSnapshot([entry({ id: "x" }), entry({ id: "x" }, reranker)])).toThrow(CatalogError);
  });

  it("buildEmbeddingsSnapshot() rejects a reranker with dimensions and an embedding without", () => {
    expect(() => buildEmbeddingsSnapshot([entry({ dimensions: 1024 }, reranker)])).toThrow(/dimensions/);
    expect(() => buildEmbeddingsSnapshot([entry({ dimensions: null })])).toThrow(/dimensions/);
  });

  it("buildEmbeddingsSnapshot() rejects non-integer limits, negative prices, unknown types and extra fields", () => {
    expect(() => buildEmbeddingsSnapshot([entry({ maxInputTokens: 512.5 })])).toThrow(/maxInputTokens/);
    expect(() => buildEmbeddingsSnapshot([entry({ pricePer1MTokens: -1 })])).toThrow(/pricePer1MTokens/);
    expect(() => buildEmbeddingsSnapshot([{ ...entry({}), type: "classifier" }])).toThrow(/type/);
    expect(() => buildEmbeddingsSnapshot([{ ...entry({}), mtebSource: "leaderboard" }])).toThrow(CatalogError);
  });
});

describe("embeddingsFeed", () => {
  it("embeddingsFeed.run() emits the validated catalog offline with a daily cadence and a 2-day SLA", async () => {
    expect(embeddingsFeed.urls()).toEqual([]);
    expect(embeddingsFeed.type).toBe("embeddings");
    expect(embeddingsFeed.slaSeconds).toBe(172_800);
    const out = await embeddingsFeed.run();
    expect(embeddingsFeed.schema.parse(out.data)).toEqual(out.data);
    expect(out.rows).toBe(embeddingsCatalog.length);
    expect(out.data.lastUpdated).toBe([...embeddingsCatalog.map((m) => m.checked)].sort().at(-1));
  });
});
