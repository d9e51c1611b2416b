import { describe, expect, it } from "vitest";
import { CatalogError } from "../catalog/curated-fields.ts";
import { vectorDbsCatalog, type VectorDbEntry } from "../catalog/vector-dbs.ts";
import { buildVectorDbsSnapshot, vectorDbsFeed, vectorDbsSnapshotSchema } from "./vector-dbs.ts";

const byType = (t: VectorDbEntry["type"]) => vectorDbsCatalog.find((d) => d.type === t)!;
const entry = (over: Partial<VectorDbEntry>, base: VectorDbEntry = byType("hybrid")): VectorDbEntry => ({ ...base, ...over });

describe("vector-dbs catalog", () => {
  it("vectorDbsCatalog holds at least 15 entries of every type with unique ids", () => {
    expect(vectorDbsCatalog.length).toBeGreaterThanOrEqual(15);
    expect(new Set(vectorDbsCatalog.map((d) => d.id)).size).toBe(vectorDbsCatalog.length);
    expect(new Set(vectorDbsCatalog.map((d) => d.type))).toEqual(new Set(["managed", "oss", "hybrid"]));
  });

  it("vectorDbsCatalog keeps openSource consistent with type", () => {
    for (const d of vectorDbsCatalog) expect(d.openSource, d.id).toBe(d.type !== "managed");
  });
});

describe("buildVectorDbsSnapshot()", () => {
  it("buildVectorDbsSnapshot() validates the catalog and passes the strict snapshot schema", () => {
    const data = buildVectorDbsSnapshot(vectorDbsCatalog);
    expect(() => vectorDbsSnapshotSchema.parse(data)).not.toThrow();
    expect(data.databases.map((d) => d.id)).toEqual([...vectorDbsCatalog.map((d) => d.id)].sort());
  });

  it("buildVectorDbsSnapshot() takes lastUpdated from the newest checked date in the data", () => {
    const data = buildVectorDbsSnapshot([entry({ id: "a", checked: "2026-04-01" }), entry({ id: "b", checked: "2024-09-15" })]);
    expect(data.lastUpdated).toBe("2026-04-01");
  });

  it("buildVectorDbsSnapshot() rejects a duplicate id", () => {
    expect(() => buildVectorDbsSnapshot([entry({ id: "x" }), entry({ id: "x" })])).toThrow(CatalogError);
  });

  it("buildVectorDbsSnapshot() rejects type/openSource/price contradictions", () => {
    expect(() => buildVectorDbsSnapshot([entry({ openSource: true }, byType("managed"))])).toThrow(/openSource/);
    expect(() => buildVectorDbsSnapshot([entry({ openSource: false }, byType("oss"))])).toThrow(/openSource/);
    expect(() => buildVectorDbsSnapshot([entry({ startingPriceUSDMonth: 25 }, byType("oss"))])).toThrow(/startingPriceUSDMonth/);
  });

  it("buildVectorDbsSnapshot() rejects missing flags, empty hosting options and extra fields", () => {
    const { serverless: _drop, ...noFlag } = entry({});
    expect(() => buildVectorDbsSnapshot([noFlag])).toThrow(/serverless/);
    expect(() => buildVectorDbsSnapshot([entry({ hostingOptions: [] })])).toThrow(/hostingOptions/);
    expect(() => buildVectorDbsSnapshot([{ ...entry({}), rating: 5 }])).toThrow(CatalogError);
  });
});

describe("vectorDbsFeed", () => {
  it("vectorDbsFeed.run() emits the validated catalog offline with a daily cadence and a 2-day SLA", async () => {
    expect(vectorDbsFeed.urls()).toEqual([]);
    expect(vectorDbsFeed.type).toBe("vector-dbs");
    expect(vectorDbsFeed.slaSeconds).toBe(172_800);
    const out = await vectorDbsFeed.run();
    expect(vectorDbsFeed.schema.parse(out.data)).toEqual(out.data);
    expect(out.rows).toBe(vectorDbsCatalog.length);
    expect(out.data.lastUpdated).toBe([...vectorDbsCatalog.map((d) => d.checked)].sort().at(-1));
  });
});
