import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import type { RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { CompareModelsQuery, CompareModelsResponse, premiumCompareRoutes, renderCompareModels } from "./premium-compare.ts";

// Prices and scores written by the real writer on two days (the newest is read); the catalog, status and news are the bundled snapshots.
let dir: string;
let reader: OpenWarehouseReader;
let bundled: OpenWarehouseReader;
const { ctx: snapshotCtx } = useBundledSnapshots(new Date("2026-11-23T12:00:00Z"));
const batch = (table: keyof typeof WAREHOUSE_TABLES, rows: Record<string, string | number | null>[]) => ({ table, key: [...WAREHOUSE_TABLES[table].key], rows });
const price = (date: string, model_id: string, input: number, output: number, source: string, observed_at: string) => ({
  date, provider: "p", model_id, input_per_1m: input, output_per_1m: output, context_window: 1000, source, source_url: null, observed_at,
});
const score = (date: string, model_id: string, benchmark: string, s: number) => ({ date, benchmark, model_id, score: s, source: "s", reported_date: "2026-11-01" });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-compare-"));
  await writeWarehouse(dir, "2026-11-21", [batch("model_prices", [price("2026-11-21", "gpt-4o", 99, 99, "curated", "2026-11-21T00:00:00Z")]), batch("benchmark_scores", [score("2026-11-21", "gpt-4o", "old-bench", 1)])]);
  await writeWarehouse(dir, "2026-11-22", [
    batch("model_prices", [
      price("2026-11-22", "gpt-4o", 2.5, 10, "curated", "2026-11-01T00:00:00Z"),
      // The aggregator observed a newer price: it is the one served.
      price("2026-11-22", "gpt-4o", 2, 8, "aggregator", "2026-11-22T06:00:00Z"),
      price("2026-11-22", "claude-sonnet-4", 3, 15, "curated", "2026-11-01T00:00:00Z"),
    ]),
    batch("benchmark_scores", [score("2026-11-22", "gpt-4o", "gpqa", 50), score("2026-11-22", "claude-sonnet-4", "gpqa", 70), score("2026-11-22", "claude-sonnet-4", "swe", 60), score("2026-11-22", "o3", "hle", 20)]),
  ]);
  reader = await openWarehouseReader({ dirs: [dir] });
  bundled = await openWarehouseReader({ dirs: ["snapshots"] });
});
afterAll(async () => {
  reader?.close();
  bundled?.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (warehouse: OpenWarehouseReader = reader): RenderContext => ({ ...snapshotCtx(), warehouse });
const render = async (ids: string, c = ctx()) => CompareModelsResponse.parse(await renderCompareModels(c, CompareModelsQuery.parse({ ids })));
const route = premiumCompareRoutes[0]!;

describe("GET /api/premium/compare/models", () => {
  it("is a 1-credit premium route whose all-unknown outcome is free", () => {
    expect([route.path, route.tier, route.cost]).toEqual(["/api/premium/compare/models", "premium", 1]);
    expect(Object.keys(route.noCharge!.outcomes)).toEqual(["no_model_matched"]);
  });

  it("reads the newest day's served prices and scores for the asked models only", async () => {
    const body = await render("GPT-4o, claude-sonnet-4");
    expect(body.as_of).toEqual({ prices: "2026-11-22", benchmarks: "2026-11-22" });
    expect(body.benchmark_keys).toEqual(["gpqa", "swe"]);
    const [gpt, claude] = body.models;
    expect(gpt).toMatchObject({ matched: true, id: "gpt-4o", provider: "openai", tier: "mid", pricing: { input: 2, output: 8, blended: 3.5 }, benchmarks: { gpqa: 50, swe: null }, status: "operational" });
    expect(gpt!.context_window).toBeGreaterThan(0);
    expect(gpt!.capabilities.length).toBeGreaterThan(0);
    expect(claude).toMatchObject({ id: "claude-sonnet-4", provider: "anthropic", pricing: { blended: 6 }, status: "degraded" });
    expect(body.rankings.by_benchmark.gpqa!.map((r) => r.score)).toEqual([70, 50]);
    expect(body.rankings.cheapest_blended[0]!.blended).toBe(3.5);
    expect(route.noCharge!.check(body)).toBeNull();
  });

  it("answers unknown ids matched false, all unknown uncharged", async () => {
    const some = await render("gpt-4o,nope-1");
    expect(some.models[1]).toMatchObject({ matched: false, id: "nope-1", pricing: null });
    expect(route.noCharge!.check(some)).toBeNull();
    const none = await render("nope-1,nope-2");
    expect(none.matched_count).toBe(0);
    expect(route.noCharge!.check(none)).toBe("no_model_matched");
  });

  it("a catalog model the warehouse has no price for has null pricing", async () => {
    const body = await render("gpt-4o,o3");
    expect(body.models[1]).toMatchObject({ matched: true, id: "o3", pricing: null, benchmarks: { gpqa: null, hle: 20 } });
  });

  it("validates ids: 2 to 5, no repeats, safe characters", () => {
    const ok = (ids: string) => CompareModelsQuery.safeParse({ ids }).success;
    expect(ok("a")).toBe(false);
    expect(ok("a,b,c,d,e,f")).toBe(false);
    expect(ok("a,A")).toBe(false);
    expect(ok("a,b c")).toBe(false);
    expect(ok("a,,b")).toBe(true);
    expect(ok("a,b,c,d,e")).toBe(true);
    expect(ok("x".repeat(700))).toBe(false);
  });

  it("answers its example on the bundled warehouse", async () => {
    const body = await render(new URL(route.example!, "http://x").searchParams.get("ids")!, ctx(bundled));
    expect(body.matched_count).toBe(3);
    expect(body.models.every((m) => m.pricing !== null)).toBe(true);
    expect(body.benchmark_keys.length).toBeGreaterThan(0);
  });
});
