/**
 * The market verdicts over real HTTP: an API server process on a copy of the bundled snapshots (manifest marked
 * fresh) with today's warehouse partitions written by the feeds' own row builders, billed on a real Postgres.
 * Each endpoint: 402 before validation, 400 after payment without a charge, its no-charge outcome, and the
 * 1-credit charge with a receipt on success.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BenchmarksSnapshot } from "../../pipelines/contract/snapshots/benchmarks.ts";
import type { InferenceProvidersSnapshot } from "../../pipelines/contract/snapshots/inference-providers.ts";
import type { PricingSnapshot } from "../../pipelines/contract/snapshots/pricing.ts";
import { benchmarkScoreRows } from "../../pipelines/feeds/benchmarks.ts";
import { inferenceProviderRows } from "../../pipelines/feeds/inference-providers.ts";
import { modelPriceRows } from "../../pipelines/feeds/pricing.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { freshBundledCopy } from "../testing/bundled-server.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

type Json = Record<string, any>;

let temp: TempDatabase | undefined;
let api: SpawnedApi | undefined;
let snapshotsDir = "";
let token = "";
let tokenId = "";
let matrix: InferenceProvidersSnapshot;
const credits = () => createCredits(temp!.db as Database);

const latest = async <T,>(type: string): Promise<T> => JSON.parse(await readFile(join(snapshotsDir, type, "latest.json"), "utf8")) as T;

beforeAll(async () => {
  temp = await openTempDatabase();
  // The bundled snapshots without their warehouse, every type fresh as of now, as if the pipelines had just run.
  const now = new Date();
  const today = now.toISOString().slice(0, 10);
  snapshotsDir = await freshBundledCopy({ warehouse: false, now });
  matrix = await latest<InferenceProvidersSnapshot>("inference-providers");
  await writeWarehouse(snapshotsDir, today, [
    inferenceProviderRows(matrix, today),
    modelPriceRows(await latest<PricingSnapshot>("pricing"), today, now.toISOString()),
    benchmarkScoreRows(await latest<BenchmarksSnapshot>("benchmarks"), today),
  ]);
  api = await spawnApi({ SNAPSHOTS_DIR: snapshotsDir, DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off" });
  const minted = await credits().mintToken(temp.db, { kind: "paid" });
  await credits().grant(temp.db, minted.id, 50, { reason: "purchase", ref: "test:market" });
  token = minted.token;
  tokenId = minted.id;
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await temp?.close();
  if (snapshotsDir) await rm(snapshotsDir, { recursive: true, force: true });
});

const paid = async (path: string): Promise<{ status: number; body: Json }> => {
  const res = await fetch(api!.base + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Json };
};
const balance = () => credits().ledgerSum(tokenId);

/** Call `path`, expect a 4xx with `error`, and no credit taken. */
async function refusedFree(path: string, status: number, error: string): Promise<Json> {
  const before = await balance();
  const { status: got, body } = await paid(path);
  expect([got, body.ok, body.error]).toEqual([status, false, error]);
  expect(await balance()).toBe(before);
  return body;
}

/** Call `path`, expect 200 with one credit charged and a receipt. */
async function charged(path: string): Promise<Json> {
  const before = await balance();
  const { status, body } = await paid(path);
  expect(status).toBe(200);
  expect(body.billing).toMatchObject({ credits_charged: 1 });
  expect(body.receipt).toBeTruthy();
  expect(await balance()).toBe(before - 1);
  return body;
}

/** Call `path`, expect 200 not charged for `reason`. */
async function free(path: string, reason: string): Promise<Json> {
  const before = await balance();
  const { status, body } = await paid(path);
  expect(status).toBe(200);
  expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: reason });
  expect(await balance()).toBe(before);
  return body;
}

describe("GET /api/premium/inference/cost-verdict", () => {
  const path = "/api/premium/inference/cost-verdict";

  it("answers 402 without a credential, before validating the query", async () => {
    expect((await fetch(`${api!.base}${path}`)).status).toBe(402);
    expect((await fetch(`${api!.base}${path}?monthly_tokens=-5`)).status).toBe(402);
  });

  it("charges 1 credit for the cheapest provider of a model in the matrix", async () => {
    const model = matrix.models.find((m) => m.providers.filter((p) => p.input_per_1m !== null).length > 1)!;
    const body = await charged(`${path}?model=${encodeURIComponent(model.catalog_id)}&monthly_tokens=1000000`);
    expect(body).toMatchObject({ ok: true, verdict_kind: "inference_cost", model_id: model.model_id, in_matrix: true, recommendation: "USE_CHEAPEST" });
    const costs = model.providers.filter((p) => p.input_per_1m !== null && p.output_per_1m !== null).map((p) => Math.round(750_000 * p.input_per_1m! + 250_000 * p.output_per_1m!) / 1e6);
    expect(body.cheapest.monthly_cost_usd).toBe(Math.min(...costs));
    expect(body.current.monthly_cost_usd).toBe(Math.max(...costs));
  });

  it("does not charge a model outside the matrix", async () => {
    const body = await free(`${path}?model=no-such-model&monthly_tokens=1000`, "model_not_in_matrix");
    expect(body).toMatchObject({ in_matrix: false, cheapest: null });
  });

  it("refuses bad input and an unknown current_provider with a 400 after payment, uncharged", async () => {
    await refusedFree(`${path}?model=gpt-4o`, 400, "invalid_query");
    await refusedFree(`${path}?model=gpt-4o&monthly_tokens=10&input_tokens=5`, 400, "invalid_query");
    const body = await refusedFree(`${path}?model=gpt-4o&monthly_tokens=10&current_provider=Nobody`, 400, "unknown_provider");
    expect(body.message).toContain("Nobody");
  });
});

describe("GET /api/premium/compare/models", () => {
  const path = "/api/premium/compare/models";

  it("answers 402 without a credential, before validating the query", async () => {
    expect((await fetch(`${api!.base}${path}?ids=one`)).status).toBe(402);
  });

  it("charges 1 credit for a comparison with the union of benchmark keys", async () => {
    const body = await charged(`${path}?ids=gpt-4o,claude-3.5-sonnet,unknown-model`);
    expect(body.models.map((m: Json) => [m.id, m.matched])).toEqual([["gpt-4o", true], ["claude-3.5-sonnet", true], ["unknown-model", false]]);
    expect(body.benchmark_keys.length).toBeGreaterThan(0);
    for (const m of body.models) expect(Object.keys(m.benchmarks)).toEqual(body.benchmark_keys);
    expect(body.rankings.cheapest_blended).toHaveLength(2);
  });

  it("does not charge when no id is in the catalog", async () => {
    const body = await free(`${path}?ids=nope-a,nope-b`, "no_model_matched");
    expect(body.matched_count).toBe(0);
  });

  it("refuses fewer than 2, more than 5 or repeated ids with a 400 after payment, uncharged", async () => {
    await refusedFree(`${path}?ids=gpt-4o`, 400, "invalid_query");
    await refusedFree(`${path}?ids=a,b,c,d,e,f`, 400, "invalid_query");
    await refusedFree(`${path}?ids=gpt-4o,GPT-4o`, 400, "invalid_query");
  });
});

describe("GET /api/premium/agents/directory", () => {
  const path = "/api/premium/agents/directory";

  it("answers 402 without a credential, before validating the query", async () => {
    expect((await fetch(`${api!.base}${path}?limit=5000`)).status).toBe(402);
  });

  it("charges 1 credit and counts agent traffic the server itself recorded", async () => {
    // A request from OpenAI's user agent bot, answered by a free route, is counted by the server's tracker.
    expect((await fetch(`${api!.base}/api/agents/news`, { headers: { "user-agent": "Mozilla/5.0 (compatible; ChatGPT-User/1.0; +https://openai.com/bot)" } })).status).toBe(200);
    const body = await charged(`${path}?sort=traffic&limit=3`);
    expect(body).toMatchObject({ ok: true, sort: "traffic", returned: 3, filters_applied: { category: null, status: null } });
    expect(body.agents[0].provider).toBe("OpenAI");
    expect(body.agents[0].agent_traffic_24h).toBeGreaterThanOrEqual(1);
    expect(body.total).toBeGreaterThan(3);
  });

  it("does not charge a filter that keeps no agent", async () => {
    const body = await free(`${path}?category=general&status=down`, "no_match");
    expect(body).toMatchObject({ total: 0, returned: 0, agents: [] });
  });

  it("refuses a bad limit, sort or category with a 400 after payment, uncharged", async () => {
    await refusedFree(`${path}?limit=101`, 400, "invalid_query");
    await refusedFree(`${path}?sort=random`, 400, "invalid_query");
    await refusedFree(`${path}?category=robots`, 400, "invalid_query");
  });
});
