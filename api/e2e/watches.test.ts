/**
 * Watches over real HTTP: an API server process on a small snapshot folder, billed on a real Postgres. Checks
 * registration (1 credit; 400 before any charge for a bad spec or callback; the 26th active watch refused),
 * the free owner-only list, read, delete and test routes, and that a pipeline-style snapshot change writes
 * exactly one outbox row with the delivery payload, and a second identical run none.
 */
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
import { createSnapshotFixture, STATUS_BODY, type SnapshotFixture } from "./snapshot-fixture.ts";

type Json = Record<string, any>;
const ROOT = resolve(import.meta.dirname, "../..");

let temp: TempDatabase | undefined;
let api: SpawnedApi | undefined;
let fixture: SnapshotFixture | undefined;
let pricing: Json;
let token = "";
let other = "";
let tokenId = "";
const credits = () => createCredits(temp!.db as Database);

beforeAll(async () => {
  temp = await openTempDatabase();
  pricing = JSON.parse(await readFile(resolve(ROOT, "snapshots/pricing/latest.json"), "utf8")) as Json;
  fixture = await createSnapshotFixture([
    { type: "pricing", dated: { "2026-11-21": pricing, "2026-11-22": pricing } },
    { type: "status", dated: { "2026-11-22": STATUS_BODY } },
  ]);
  api = await spawnApi({ SNAPSHOTS_DIR: fixture.dir, DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off", PAYMENT_RATE_LIMIT_PER_MINUTE: "0" });
  const minted = await credits().mintToken(temp.db, { kind: "paid" });
  await credits().grant(temp.db, minted.id, 40, { reason: "purchase", ref: "test:watches" });
  token = minted.token;
  tokenId = minted.id;
  const second = await credits().mintToken(temp.db, { kind: "paid" });
  await credits().grant(temp.db, second.id, 5, { reason: "purchase", ref: "test:watches-other" });
  other = second.token;
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await temp?.close();
  await fixture?.remove();
});

const auth = (t: string) => ({ authorization: `Bearer ${t}` });
const call = async (method: string, path: string, body?: unknown, t: string | null = token): Promise<{ status: number; body: Json }> => {
  const res = await fetch(api!.base + path, {
    method,
    headers: { ...(t ? auth(t) : {}), ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Json };
};
const balance = async () => (await credits().tokenByBearer(token))!.balance;
const firstModel = () => pricing.providers[0].models[0] as Json;
const priceSpec = () => ({ type: "price", model: firstModel().id, field: "inputPrice", op: "lt", threshold: firstModel().inputCostPer1M / 2 });
const hook = "https://hooks.example.com/agentfeed";
const outbox = async (watchId: string) =>
  (await temp!.db.query<{ id: string; kind: string; body: string; state: string }>("SELECT id, kind, body, state FROM webhook_deliveries WHERE watch_id = $1 ORDER BY created_at, id", [watchId])).rows;

/** Wait (bounded) until `check` holds: the server evaluates after it noticed the new snapshot. */
async function until<T>(what: string, check: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 600; i++) {
    const v = await check();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`gave up waiting for ${what}`);
}

let priceWatch = "";
let statusWatch = "";

describe("POST /api/premium/watches", () => {
  it("answers 402 without a credential, before looking at the body", async () => {
    expect((await call("POST", "/api/premium/watches", { nonsense: true }, null)).status).toBe(402);
  });

  it("refuses a bad spec or callback with a 400 and charges nothing", async () => {
    const before = await balance();
    const cases: [unknown, string][] = [
      [{ spec: { ...priceSpec(), model: "no-such-model" }, callback_url: hook }, "unknown_model"],
      [{ spec: { type: "status", provider: "no-such-provider", op: "changes" }, callback_url: hook }, "unknown_provider"],
      [{ spec: { type: "leaderboard_rank", provider: "no-such-provider", op: "changes" }, callback_url: hook }, "unknown_provider"],
      [{ spec: { ...priceSpec(), threshold: undefined }, callback_url: hook }, "invalid_body"],
      [{ spec: { ...priceSpec(), op: "below" }, callback_url: hook }, "invalid_body"],
      [{ spec: { type: "digest", cadence: "hourly" }, callback_url: hook }, "invalid_body"],
      [{ spec: priceSpec(), callback_url: "ftp://hooks.example.com/x" }, "invalid_callback_url"],
      [{ spec: priceSpec(), callback_url: "https://user:pw@hooks.example.com/x" }, "invalid_callback_url"],
      [{ spec: priceSpec(), callback_url: "http://127.0.0.1:9/hook" }, "callback_not_public"],
      [{ spec: priceSpec(), callback_url: hook, fire_cap: 1001 }, "invalid_body"],
    ];
    for (const [body, code] of cases) {
      const r = await call("POST", "/api/premium/watches", body);
      expect(r.status, code).toBe(400);
      expect(r.body).toMatchObject({ ok: false, error: code });
    }
    expect(await balance()).toBe(before);
  });

  it("registers a watch for 1 credit, returns the generated secret once, and never shows it again", async () => {
    const before = await balance();
    const r = await call("POST", "/api/premium/watches", { spec: priceSpec(), callback_url: hook });
    expect(r.status).toBe(200);
    expect(r.body.billing.credits_charged).toBe(1);
    expect(await balance()).toBe(before - 1);
    expect(r.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(r.body.secret.slice(6), "base64")).toHaveLength(32);
    const w = r.body.watch;
    expect(w).toMatchObject({ spec: priceSpec(), callback_url: hook, fire_count: 0, fire_cap: 100, status: "active", last_seen: { value: firstModel().inputCostPer1M } });
    expect(w.id).toMatch(/^wat_[0-9a-f]{24}$/);
    expect(Date.parse(w.expires_at) - Date.parse(w.created)).toBe(90 * 86_400_000);
    priceWatch = w.id;

    const given = await call("POST", "/api/premium/watches", { spec: { type: "status", provider: "openai", op: "becomes", value: "down" }, callback_url: hook, secret: "my-own-secret-0123456789", fire_cap: 3 });
    expect(given.status).toBe(200);
    expect(given.body.secret).toBeNull();
    expect(given.body.watch).toMatchObject({ fire_cap: 3, last_seen: { value: "degraded" } });
    statusWatch = given.body.watch.id;

    for (const path of ["/api/premium/watches", `/api/premium/watches/${priceWatch}`]) {
      const text = await (await fetch(api!.base + path, { headers: auth(token) })).text();
      expect(text).not.toContain(r.body.secret);
      expect(text).not.toContain("my-own-secret");
    }
  });
});

describe("the free owner routes", () => {
  it("list, read, test: free, bearer required, another token's watch is 404", async () => {
    const before = await balance();
    const list = await call("GET", "/api/premium/watches");
    expect(list.status).toBe(200);
    expect(list.body).toMatchObject({ ok: true, count: 2, active: 2, limit_active: 25 });
    expect((await call("GET", "/api/premium/watches", undefined, null)).status).toBe(401);
    expect((await call("GET", "/api/premium/watches", undefined, other)).body).toMatchObject({ count: 0, watches: [] });

    expect((await call("GET", `/api/premium/watches/${priceWatch}`, undefined, other)).status).toBe(404);
    expect((await call("DELETE", `/api/premium/watches/${priceWatch}`, undefined, other)).status).toBe(404);
    expect((await call("POST", `/api/premium/watches/${priceWatch}/test`, undefined, other)).status).toBe(404);
    expect((await call("GET", "/api/premium/watches/not-an-id")).status).toBe(400);

    const test = await call("POST", `/api/premium/watches/${priceWatch}/test`);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ ok: true, event: "watch.test", state: "pending" });
    const [row] = await outbox(priceWatch);
    expect(row).toMatchObject({ id: test.body.delivery_id, kind: "test", state: "pending" });
    expect(JSON.parse(row!.body)).toMatchObject({ event: "watch.test", watch_id: priceWatch, spec: priceSpec(), match: { type: "test" } });

    const one = await call("GET", `/api/premium/watches/${priceWatch}`);
    expect(one.body.deliveries).toEqual([expect.objectContaining({ id: test.body.delivery_id, kind: "test", state: "pending", attempts: 0, attempt_log: [] })]);
    expect(await balance()).toBe(before);
  });
});

describe("evaluation after a snapshot change", () => {
  it("a price crossing writes one outbox row with the payload; a second identical run writes none", { timeout: 150_000 }, async () => {
    const cheaper = structuredClone(pricing);
    const model = cheaper.providers[0].models[0];
    const was = model.inputCostPer1M;
    model.inputCostPer1M = was / 4;
    model.priceObservations[0].inputCostPer1M = was / 4;
    await fixture!.write({ type: "pricing", dated: { "2026-11-23": cheaper } });
    const fire = await until("the fire row", async () => (await outbox(priceWatch)).find((r) => r.kind === "fire"));
    expect(fire.state).toBe("pending");
    const payload = JSON.parse(fire.body);
    expect(payload).toMatchObject({
      event: "watch.fire",
      watch_id: priceWatch,
      spec: priceSpec(),
      match: { type: "price", model: model.id, provider: cheaper.providers[0].id, field: "inputPrice", from: was, to: was / 4, delta_pct: -75, threshold: was / 2, crossed: "below" },
    });
    expect(Date.parse(payload.fired_at)).not.toBeNaN();

    // The same prices again plus a status change: the status watch firing proves the second run happened.
    const down = structuredClone(STATUS_BODY);
    down.services[1]!.status = "down";
    await fixture!.write({ type: "pricing", dated: { "2026-11-23": cheaper } });
    await fixture!.write({ type: "status", dated: { "2026-11-23": down } });
    const statusFire = await until("the status fire", async () => (await outbox(statusWatch)).find((r) => r.kind === "fire"));
    expect(JSON.parse(statusFire.body).match).toEqual({ type: "status", provider: "openai", from: "degraded", to: "down" });
    expect((await outbox(priceWatch)).filter((r) => r.kind === "fire")).toHaveLength(1);
    const read = await call("GET", `/api/premium/watches/${priceWatch}`);
    expect(read.body.watch).toMatchObject({ fire_count: 1, last_seen: { value: was / 4 } });
  });
});

describe("limits and deletion", () => {
  it("the 26th active watch is refused without a charge; deleting is free, refunds nothing and frees a place", async () => {
    for (let i = 0; i < 23; i++) expect((await call("POST", "/api/premium/watches", { spec: { type: "digest", cadence: "daily" }, callback_url: `${hook}/${i}` })).status).toBe(200);
    const before = await balance();
    const refused = await call("POST", "/api/premium/watches", { spec: { type: "digest", cadence: "weekly" }, callback_url: hook });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ ok: false, error: "watch_limit_reached" });
    expect(await balance()).toBe(before);

    const deleted = await call("DELETE", `/api/premium/watches/${priceWatch}`);
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ ok: true, refunded_credits: 0, watch: { id: priceWatch, status: "deleted" } });
    expect(await balance()).toBe(before);
    expect((await call("POST", `/api/premium/watches/${priceWatch}/test`)).status).toBe(409);
    expect((await call("GET", "/api/premium/watches")).body.count).toBe(24);
    const again = await call("POST", "/api/premium/watches", { spec: { type: "digest", cadence: "weekly" }, callback_url: hook });
    expect(again.status).toBe(200);
    expect(await balance()).toBe(before - 1);
    const { rows } = await temp!.db.query("SELECT count(*)::int AS n FROM watches WHERE token_id = $1 AND status = 'active'", [tokenId]);
    expect(rows[0]).toEqual({ n: 25 });
  });
});
