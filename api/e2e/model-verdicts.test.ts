/**
 * The model verdicts over real HTTP, billed on a real Postgres: benchmark trust (and its free preview), the
 * price-performance frontier and model migration, served by an API process on the bundled snapshots and their
 * warehouse, plus a second process on the same snapshots without a warehouse (every no-data outcome). Each
 * premium path answers 402 before checking its input; bad input after payment is a 4xx and not charged; each
 * no-charge outcome is answered and not charged; a success is charged 1 credit with a receipt.
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { freshBundledCopy } from "../testing/bundled-server.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

type Json = Record<string, any>;

let temp: TempDatabase | undefined;
let api: SpawnedApi | undefined;
let bare: SpawnedApi | undefined;
let bareDir = "";
let freshDir = "";
let token = "";
const GRANT = 30;

beforeAll(async () => {
  temp = await openTempDatabase();
  // Copies of the bundled snapshots refreshed now (paid calls are charged), with and without the warehouse.
  [freshDir, bareDir] = await Promise.all([freshBundledCopy(), freshBundledCopy({ warehouse: false })]);
  const env = { DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off" };
  [api, bare] = await Promise.all([spawnApi({ ...env, SNAPSHOTS_DIR: freshDir }), spawnApi({ ...env, SNAPSHOTS_DIR: bareDir })]);
  const credits = createCredits(temp.db as Database);
  const minted = await credits.mintToken(temp.db, { kind: "paid" });
  await credits.grant(temp.db, minted.id, GRANT, { reason: "purchase", ref: "test:model-verdicts" });
  token = minted.token;
  // Builds the OpenAPI contract checker once (seconds of CPU) before the timed-out keep-alive sockets matter.
  await (await fetch(`${api.base}/api/payment/info`)).json();
}, 180_000);

afterAll(async () => {
  await Promise.all([api?.stop(), bare?.stop()]);
  await temp?.close();
  await Promise.all([freshDir, bareDir].filter(Boolean).map((dir) => rm(dir, { recursive: true, force: true })));
});

const get = async (path: string, { server = api, auth = true }: { server?: SpawnedApi; auth?: boolean } = {}) => {
  const res = await fetch(server!.base + path, { headers: auth ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Json };
};
const balance = async () => (await get("/api/payment/balance")).body.credits as number;
const charged = (body: Json) => {
  expect(body.billing.credits_charged).toBe(1);
  expect(body.receipt).toBeTruthy();
};
const notCharged = (body: Json, reason: string) => expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: reason });

describe("model verdicts over HTTP", () => {
  it("every premium path answers 402 before checking its input", async () => {
    for (const path of [
      "/api/premium/benchmark-trust-verdict?benchmark=a%20b",
      "/api/premium/models/frontier?task=poetry",
      "/api/premium/model-migration-verdict?deadline=never",
    ]) {
      const { status, body } = await get(path, { auth: false });
      expect(status, path).toBe(402);
      expect(body.ok).toBe(false);
    }
  });

  it("benchmark trust: every catalog benchmark judged, charged with a receipt; filters narrow it", async () => {
    const { status, body } = await get("/api/premium/benchmark-trust-verdict");
    expect(status).toBe(200);
    charged(body);
    expect(body).toMatchObject({ ok: true, filter: { benchmark: null, category: null }, count: 5 });
    expect(body.capturedAt).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const v of body.verdicts as Json[]) {
      expect(v.trust_score).toBeGreaterThanOrEqual(0);
      expect(v.trust_score).toBeLessThanOrEqual(100);
      expect(v.leaderboard_url).toMatch(/^https:\/\//);
      expect(v.signals.models_scored).toBeGreaterThan(0);
    }
    const one = await get("/api/premium/benchmark-trust-verdict?benchmark=HumanEval");
    expect(one.body.verdicts.map((v: Json) => v.id)).toEqual(["humaneval"]);
    expect(one.body.filter).toEqual({ benchmark: "humaneval", category: null });
  });

  it("benchmark trust: bad or unknown filters are 4xx and not charged; no match and no scores are not charged", async () => {
    const before = await balance();
    const bad = await get("/api/premium/benchmark-trust-verdict?benchmark=a%20b");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: "invalid_query" });
    const unknown = await get("/api/premium/benchmark-trust-verdict?category=poetry");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: "unknown_category" });
    const none = await get("/api/premium/benchmark-trust-verdict?benchmark=humaneval&category=math");
    expect(none.status).toBe(200);
    expect(none.body.count).toBe(0);
    notCharged(none.body, "no_benchmark_matched");
    const empty = await get("/api/premium/benchmark-trust-verdict", { server: bare });
    expect(empty.status).toBe(200);
    expect(empty.body.capturedAt).toBeNull();
    notCharged(empty.body, "no_scores");
    expect(await balance()).toBe(before);
  });

  it("frontier: Pareto frontier and dominated models, charged; a bad task is 400 uncharged; no priced model is not charged", async () => {
    const { status, body } = await get("/api/premium/models/frontier?task=code");
    expect(status).toBe(200);
    charged(body);
    expect(body).toMatchObject({ verdict_kind: "price_performance_frontier", task: "code" });
    expect(body.counts.priced).toBe(body.counts.frontier + body.counts.dominated);
    expect(body.counts.frontier).toBeGreaterThan(0);
    const frontier = body.frontier as Json[];
    for (let i = 1; i < frontier.length; i++) {
      expect(frontier[i]!.blended_price).toBeGreaterThanOrEqual(frontier[i - 1]!.blended_price);
      expect(frontier[i]!.capability).toBeGreaterThan(frontier[i - 1]!.capability);
    }
    for (const d of body.dominated as Json[]) {
      expect(d.dominated_by.blended_price).toBeLessThanOrEqual(d.blended_price);
      expect(d.dominated_by.capability).toBeGreaterThanOrEqual(d.capability);
    }
    const before = await balance();
    const bad = await get("/api/premium/models/frontier?task=poetry");
    expect(bad.status).toBe(400);
    const empty = await get("/api/premium/models/frontier", { server: bare });
    expect(empty.status).toBe(200);
    expect(empty.body.counts).toEqual({ priced: 0, frontier: 0, dominated: 0 });
    notCharged(empty.body, "no_priced_models");
    expect(await balance()).toBe(before);
  });

  it("migration: a retired model with its successor, charged; bad or past deadline 400 uncharged; an untracked model not charged", async () => {
    const { status, body } = await get("/api/premium/model-migration-verdict?model=gpt-4.5-preview&deadline=2099-01-01");
    expect(status).toBe(200);
    charged(body);
    expect(body).toMatchObject({ verdict_kind: "model_migration", verdict: "MIGRATE_NOW", model: { id: "gpt-4.5-preview" }, successor: { id: "gpt-4.1" } });
    expect(body.model.cost_blended_per_1m).toBeGreaterThan(body.successor.cost_blended_per_1m);
    expect(body.deltas.cost_pct).toBeLessThan(0);
    expect(body.deadline).toMatchObject({ date: "2099-01-01", sunset_before_deadline: true });
    const before = await balance();
    for (const [q, error] of [
      ["model=gpt-4.1&deadline=2026-02-30", "invalid_query"],
      ["deadline=2099-01-01", "invalid_query"],
      ["model=gpt-4.1&deadline=2000-01-01", "invalid_deadline"],
    ] as const) {
      const r = await get(`/api/premium/model-migration-verdict?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error });
    }
    const ghost = await get("/api/premium/model-migration-verdict?model=no-such-model");
    expect(ghost.status).toBe(200);
    expect(ghost.body.verdict).toBe("NO_ACTION");
    notCharged(ghost.body, "model_not_tracked");
    expect(await balance()).toBe(before);
  });

  it("the free benchmark trust preview shows band and score only, the premium answer's", async () => {
    const premium = await get("/api/premium/benchmark-trust-verdict?category=coding");
    const { status, body } = await get("/api/preview/benchmark-trust-verdict?category=coding", { auth: false });
    expect(status).toBe(200);
    expect(body).toMatchObject({ ok: true, preview: true, rate_limit: { limit: 10 } });
    expect(body.verdicts).toEqual(premium.body.verdicts.map((v: Json) => ({ id: v.id, trust_band: v.trust_band, trust_score: v.trust_score })));
    expect(body).not.toHaveProperty("receipt");
    expect(body).not.toHaveProperty("billing");
  });
});
