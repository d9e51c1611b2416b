import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WAREHOUSE_TABLES } from "../../pipelines/contract/warehouse-tables.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { ApiError, type RenderContext } from "../registry/types.ts";
import { useBundledSnapshots } from "../testing/bundled-context.ts";
import { openWarehouseReader, type OpenWarehouseReader } from "../warehouse/reader.ts";
import { InferenceCostQuery, InferenceCostResponse, premiumInferenceCostRoutes, renderInferenceCost } from "./premium-inference-cost.ts";

// A small matrix written by the real writer: an older day with other prices, and the newest day read.
let dir: string;
let reader: OpenWarehouseReader;
let bundled: OpenWarehouseReader;
const { ctx: snapshotCtx } = useBundledSnapshots(new Date("2026-11-23T12:00:00Z"));
const endpoint = (date: string, model_id: string, provider: string, tag: string, input: number | null, output: number | null, tps: number | null = 100) => ({
  date, model_id, provider, tag, input_per_1m: input, output_per_1m: output, throughput_tps: tps, latency_ms: 400, uptime_pct: 99.5, context_length: 65536,
});
const batch = (rows: ReturnType<typeof endpoint>[]) => ({ table: "inference_providers_daily", key: [...WAREHOUSE_TABLES.inference_providers_daily.key], rows });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "agentfeed-cost-"));
  await writeWarehouse(dir, "2026-11-21", [batch([endpoint("2026-11-21", "deepseek/deepseek-r1", "DeepSeek", "deepseek", 0.01, 0.01)])]);
  await writeWarehouse(dir, "2026-11-22", [
    batch([
      endpoint("2026-11-22", "deepseek/deepseek-r1", "DeepSeek", "deepseek", 0.55, 2.19, 30),
      endpoint("2026-11-22", "deepseek/deepseek-r1", "DeepInfra", "deepinfra/fp8", 0.825, 3.285, 60),
      endpoint("2026-11-22", "deepseek/deepseek-r1", "Novita", "novita/fp8", 0.33, 1.314, null),
      endpoint("2026-11-22", "deepseek/deepseek-r1", "Ghost", "ghost", null, null),
      endpoint("2026-11-22", "acme/unpriced", "Acme", "acme", null, null),
    ]),
  ]);
  reader = await openWarehouseReader({ dirs: [dir] });
  bundled = await openWarehouseReader({ dirs: ["snapshots"] });
});
afterAll(async () => {
  reader?.close();
  bundled?.close();
  await rm(dir, { recursive: true, force: true });
});

const ctx = (warehouse: OpenWarehouseReader | undefined = reader): RenderContext => ({ ...snapshotCtx(), ...(warehouse ? { warehouse } : {}) });
const render = async (q: Record<string, string>, c = ctx()) => InferenceCostResponse.parse(await renderInferenceCost(c, InferenceCostQuery.parse(q)));
const route = premiumInferenceCostRoutes[0]!;

async function apiError(run: () => Promise<unknown>): Promise<ApiError> {
  try {
    await run();
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error("expected an ApiError");
}

describe("GET /api/premium/inference/cost-verdict over the warehouse", () => {
  it("is a 1-credit premium route with two no-charge outcomes", () => {
    expect([route.path, route.tier, route.cost]).toEqual(["/api/premium/inference/cost-verdict", "premium", 1]);
    expect(Object.keys(route.noCharge!.outcomes)).toEqual(["model_not_in_matrix", "no_priced_provider"]);
  });

  it("reads the newest day, prices every provider and compares with the current one", async () => {
    const body = await render({ model: "deepseek/deepseek-r1", monthly_tokens: "100000000", current_provider: "deepinfra" });
    expect(body).toMatchObject({ as_of: "2026-11-22", model_id: "deepseek/deepseek-r1", in_matrix: true, split: { input_tokens: 75_000_000, output_tokens: 25_000_000, basis: "default_3_to_1" } });
    // Novita: 75 × 0.33 + 25 × 1.314 = 57.60; DeepInfra: 75 × 0.825 + 25 × 3.285 = 144.00.
    expect(body.cheapest).toEqual({ provider: "Novita", tag: "novita/fp8", monthly_cost_usd: 57.6, output_tps: null });
    expect(body.current).toEqual({ provider: "DeepInfra", monthly_cost_usd: 144, basis: "current_provider" });
    expect(body.savings).toEqual({ vs_current_usd: 86.4, vs_current_pct: 60 });
    expect(body.recommendation).toBe("SWITCH");
    expect(body.providers.map((p) => p.provider)).toEqual(["Novita", "DeepSeek", "DeepInfra"]);
    expect(route.noCharge!.check(body)).toBeNull();
  });

  it("matches the catalog id through the snapshot and an exact split", async () => {
    const body = await render({ model: "DeepSeek-R1", input_tokens: "1000000", output_tokens: "0" });
    expect(body.model_id).toBe("deepseek/deepseek-r1");
    expect(body.split).toEqual({ input_tokens: 1_000_000, output_tokens: 0, basis: "exact" });
    expect(body.cheapest!.monthly_cost_usd).toBe(0.33);
    expect(body.current).toMatchObject({ provider: "DeepInfra", basis: "most_expensive" });
  });

  it("answers a model outside the matrix in_matrix false, and a model without prices NO_PRICED_PROVIDER, both uncharged", async () => {
    const out = await render({ model: "nobody/nothing", monthly_tokens: "5" });
    expect(out).toMatchObject({ in_matrix: false, recommendation: "NOT_IN_MATRIX", cheapest: null });
    expect(route.noCharge!.check(out)).toBe("model_not_in_matrix");
    const unpriced = await render({ model: "unpriced", monthly_tokens: "5" });
    expect(unpriced).toMatchObject({ model_id: "acme/unpriced", in_matrix: true, recommendation: "NO_PRICED_PROVIDER" });
    expect(route.noCharge!.check(unpriced)).toBe("no_priced_provider");
  });

  it("refuses a current_provider that does not serve the model with 400 unknown_provider", async () => {
    const e = await apiError(() => render({ model: "deepseek/deepseek-r1", monthly_tokens: "5", current_provider: "Together" }));
    expect([e.status, e.code]).toEqual([400, "unknown_provider"]);
    expect(e.message).toContain("DeepInfra");
  });

  it("answers 503 without a warehouse and NOT_IN_MATRIX before the first matrix day", async () => {
    expect((await apiError(() => render({ model: "x", monthly_tokens: "1" }, ctx(null as never)))).code).toBe("warehouse_unavailable");
    const early = { ...ctx(), now: new Date("2026-11-20T00:00:00Z") };
    expect(await render({ model: "deepseek/deepseek-r1", monthly_tokens: "1" }, early)).toMatchObject({ as_of: null, in_matrix: false });
  });

  it("validates the token parameters", () => {
    const bad = (q: Record<string, string>) => InferenceCostQuery.safeParse(q).success;
    expect(bad({ model: "m" })).toBe(false);
    expect(bad({ model: "m", input_tokens: "5" })).toBe(false);
    expect(bad({ model: "m", monthly_tokens: "9", input_tokens: "5", output_tokens: "5" })).toBe(false);
    expect(bad({ model: "m", monthly_tokens: "10", input_tokens: "5", output_tokens: "5" })).toBe(true);
    expect(bad({ model: "m", monthly_tokens: "-1" })).toBe(false);
    expect(bad({ model: "m", monthly_tokens: "1.5" })).toBe(false);
    expect(bad({ model: "m", monthly_tokens: "1e20" })).toBe(false);
    expect(bad({ model: "m; DROP", monthly_tokens: "1" })).toBe(false);
    expect(bad({ model: "m", monthly_tokens: "1", extra: "1" })).toBe(false);
    // No tokens, no verdict; one side may be 0.
    expect(bad({ model: "m", monthly_tokens: "0" })).toBe(false);
    expect(bad({ model: "m", input_tokens: "0", output_tokens: "0" })).toBe(false);
    expect(bad({ model: "m", input_tokens: "0", output_tokens: "7" })).toBe(true);
  });

  it("answers its example on the bundled warehouse", async () => {
    const q = Object.fromEntries(new URL(route.example!, "http://x").searchParams);
    const body = await render(q, ctx(bundled));
    expect(body.in_matrix).toBe(true);
    expect(body.providers.length).toBeGreaterThan(1);
    expect(body.current!.basis).toBe("current_provider");
  });
});
