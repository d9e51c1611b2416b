import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { readSnapshotFacts } from "./premium-route-verdict-reads.ts";
import { premiumRouteVerdictRoutes, renderRouteVerdict, RouteVerdictQuery, RouteVerdictResponse, routeNoCharge } from "./premium-route-verdict.ts";

// Bundled snapshots give model names, status page URLs and the deprecation calendar; a small warehouse written
// by the real writer gives prices, scores, status samples and probes of 2026-03-09 and 2026-03-10.
const NOW = new Date("2026-03-10T12:00:00Z");
const { ctx: bundled } = useBundledSnapshots(NOW);
let dir: string;
let reader: OpenWarehouseReader;
const batch = (table: keyof typeof WAREHOUSE_TABLES, rows: Record<string, string | number | boolean | null>[]) => ({ table, key: [...WAREHOUSE_TABLES[table].key], rows });
const price = (date: string, provider: string, model_id: string, input: number, output: number, source = "curated", observed_at = `${date}T00:00:00Z`) => ({
  date, provider, model_id, input_per_1m: input, output_per_1m: output, context_window: 128000, source, source_url: null, observed_at,
});
const score = (date: string, model_id: string, s: number) => ({ date, benchmark: "gpqa-diamond", model_id, score: s, source: "https://example.test/gpqa", reported_date: "2026-01-01" });
const sample = (ts: string, provider: string, status: string) => ({ ts, date: ts.slice(0, 10), provider, status, components_total: 3, components_degraded: status === "degraded" ? 1 : 0, components_down: status === "down" ? 1 : 0 });
const probe = (ts: string, provider: string, total: number) => ({ ts, date: ts.slice(0, 10), provider, url: `https://api.${provider}.test/v1/models`, status: 200, ok: true, ttfb_ms: total / 2, total_ms: total });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-route-verdict-"));
  await writeWarehouse(dir, "2026-03-09", [
    // Yesterday gpt-4o cost more; today's file states the new price.
    batch("model_prices", [price("2026-03-09", "openai", "gpt-4o", 5, 15), price("2026-03-09", "deepseek", "deepseek-v3", 0.3, 0.9)]),
    batch("status_samples", [sample("2026-03-09T23:00:00Z", "deepseek", "operational")]),
  ]);
  await writeWarehouse(dir, "2026-03-10", [
    batch("model_prices", [
      price("2026-03-10", "openai", "gpt-4o", 2.5, 10),
      price("2026-03-10", "openai", "gpt-4o", 2.4, 9.6, "aggregator", "2026-03-10T06:00:00Z"),
      price("2026-03-10", "anthropic", "claude-sonnet-4", 3, 15),
      price("2026-03-10", "anthropic", "claude-3-opus", 15, 75),
    ]),
    batch("benchmark_scores", [score("2026-03-10", "gpt-4o", 53), score("2026-03-10", "claude-sonnet-4", 70), score("2026-03-10", "deepseek-v3", 59), score("2026-03-10", "claude-3-opus", 50)]),
    batch("status_samples", [
      sample("2026-03-10T11:40:00Z", "openai", "operational"),
      sample("2026-03-10T11:00:00Z", "anthropic", "operational"),
      sample("2026-03-10T11:50:00Z", "anthropic", "degraded"),
    ]),
    batch("probe_samples", [probe("2026-03-10T11:00:00Z", "openai", 100), probe("2026-03-10T11:15:00Z", "openai", 120), probe("2026-03-10T11:00:00Z", "anthropic", 300)]),
  ]);
  reader = await openWarehouseReader({ dirs: [dir] });
});
afterAll(async () => {
  reader?.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (now = NOW): RenderContext => ({ ...bundled(), now, warehouse: reader });
const render = async (query: Record<string, string>, now = NOW) => RouteVerdictResponse.parse(await renderRouteVerdict(ctx(now), RouteVerdictQuery.parse(query)));

async function apiError(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("GET /api/premium/route-verdict", () => {
  it("is a 1-credit premium route with a 30-minute SLA on the status layer and two no-charge outcomes", () => {
    const [r] = premiumRouteVerdictRoutes;
    expect([r!.path, r!.tier, r!.cost, r!.snapshots, r!.freshness!.slaSeconds]).toEqual(["/api/premium/route-verdict", "premium", 1, ["status"], 1800]);
    expect(Object.keys(r!.noCharge!.outcomes)).toEqual(["operational_layer_stale", "no_eligible_model"]);
  });

  it("states each model's context window from the catalog, not from the price rows (128,000 on every row here)", async () => {
    const body = await render({ task: "reasoning" });
    const catalog = new Map(readSnapshotFacts(ctx()).models.map((m) => [m.id, m.contextWindow]));
    const all = [body.verdict!, ...body.runners_up];
    expect(all.some((e) => catalog.get(e.model.id) !== 128000)).toBe(true);
    for (const e of all) expect(e.model.contextWindow).toBe(catalog.get(e.model.id));
  });

  it("ranks the warehouse's models with their newest price, measured latency, status and deprecation", async () => {
    const body = await render({ task: "reasoning" });
    const all = [body.verdict!, ...body.runners_up];
    // claude-3-opus is retired on the calendar (claude-3-opus-20240229, sunset 2026-01-05); deepseek-v3 keeps yesterday's price.
    expect(all.map((e) => e.model.id).sort()).toEqual(["claude-sonnet-4", "deepseek-v3", "gpt-4o"]);
    const gpt = all.find((e) => e.model.id === "gpt-4o")!;
    expect(gpt.pricing).toEqual({ input: 2.4, output: 9.6, blended: 4.2, currency: "USD", unit: "per_1m_tokens", source: "aggregator", observed_at: "2026-03-10T06:00:00.000Z" });
    expect(gpt.model).toEqual({ id: "gpt-4o", name: "GPT-4o", provider: "openai", openSource: false, contextWindow: 128000 });
    expect(gpt.latency.measured_p95_ms).toBe(119);
    expect(gpt.operational).toEqual({ ok: true, status: "operational", source: "https://status.openai.com", as_of: "2026-03-10T11:40:00.000Z" });
    const claude = all.find((e) => e.model.id === "claude-sonnet-4")!;
    expect(claude.operational).toMatchObject({ ok: false, status: "degraded" });
    expect(body.trust.operational_layer).toMatchObject({ as_of: "2026-03-10T11:50:00.000Z", age_seconds: 600, fresh: true });
    expect(body.capturedAt).toBe("2026-03-10T11:50:00.000Z");
    expect(routeNoCharge(body)).toBeNull();
  });

  it("keeps a model priced only yesterday, and never ranks a retired one", async () => {
    const body = await render({ task: "reasoning", model: "deepseek-v3" });
    expect(body.verdict).toMatchObject({ model: { id: "deepseek-v3" }, pricing: { input: 0.3, output: 0.9 }, latency: { measured_p95_ms: null, source: null } });
    const opus = await render({ task: "reasoning", model: "Claude 3 Opus" });
    expect(opus.query.model).toBe("claude-3-opus");
    expect(opus.verdict).toMatchObject({ rank: null, deprecation: { flagged: true, status: "retired", sunset_date: "2026-01-05" } });
  });

  it("applies require_operational and max_latency_p95_ms, and answers null (not charged) when nothing qualifies", async () => {
    const operational = await render({ task: "reasoning", require_operational: "true" });
    expect([operational.verdict!, ...operational.runners_up].every((e) => e.operational.ok)).toBe(true);
    expect(operational.query).toMatchObject({ require_operational: true, exclude_deprecated: false });
    const none = await render({ task: "reasoning", max_latency_p95_ms: "50" });
    expect(none.verdict).toBeNull();
    expect(none.note).toBe("no model passes the filters");
    expect(routeNoCharge(none)).toBe("no_eligible_model");
  });

  it("is not charged when the newest status sample is more than 30 minutes old", async () => {
    const body = await render({ task: "reasoning" }, new Date("2026-03-10T12:20:01Z"));
    expect(body.trust.operational_layer).toMatchObject({ age_seconds: 1801, fresh: false });
    expect(routeNoCharge(body)).toBe("operational_layer_stale");
  });

  it("answers 404 unknown_model for a model outside the catalog, 400 on bad input, 503 without a warehouse", async () => {
    const e = await apiError(() => render({ model: "no-such-model" }));
    expect([e.status, e.code]).toEqual([404, "unknown_model"]);
    expect(RouteVerdictQuery.safeParse({ task: "poetry" }).success).toBe(false);
    expect(RouteVerdictQuery.safeParse({ require_operational: "yes" }).success).toBe(false);
    expect(RouteVerdictQuery.safeParse({ max_latency_p95_ms: "-1" }).success).toBe(false);
    expect(RouteVerdictQuery.safeParse({ model: "x".repeat(121) }).success).toBe(false);
    expect(RouteVerdictQuery.safeParse({ model: "gpt-4o; DROP" }).success).toBe(false);
    const noWarehouse = await apiError(() => renderRouteVerdict({ ...bundled(), now: NOW }, RouteVerdictQuery.parse({})));
    expect([noWarehouse.status, noWarehouse.code]).toEqual([503, "warehouse_unavailable"]);
  });

  it("serves its example on the bundled snapshots and warehouse", async () => {
    const bundledReader = await openWarehouseReader({ dirs: ["snapshots"] });
    try {
      const [r] = premiumRouteVerdictRoutes;
      const query = Object.fromEntries(new URL(r!.example!, "http://x").searchParams);
      const body = RouteVerdictResponse.parse(await renderRouteVerdict({ ...bundled(), now: new Date("2026-11-22T02:30:00Z"), warehouse: bundledReader }, RouteVerdictQuery.parse(query)));
      expect(body.verdict!.rank).toBe(1);
      expect(body.runners_up).toHaveLength(4);
      expect(body.trust.operational_layer.fresh).toBe(true);
    } finally {
      bundledReader.close();
    }
  });
});
