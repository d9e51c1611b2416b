/**
 * The route and failover verdicts and their previews over real HTTP: API processes on replayed snapshots (whose
 * feeds write today's warehouse day files), credits on a real Postgres. A paid call is charged 1 credit with a
 * receipt; no credential is 402 before the input is looked at; bad input after payment is a 4xx and not
 * charged; no eligible model and a status layer older than 30 minutes are answered and not charged. The previews
 * show their cut and answer 429 on the 11th call of the day.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

let temp: TempDatabase | undefined;
let fresh: SpawnedApi | undefined;
let stale: SpawnedApi | undefined;
const dirs: string[] = [];
let token = "";
let credits: ReturnType<typeof createCredits>;

/** A replay run of the feeds the verdicts read, at `now`, into a new folder. */
async function snapshotsAt(now: Date): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-route-verdict-e2e-"));
  dirs.push(dir);
  await runFeeds({
    feeds: { pricing: feeds.pricing, benchmarks: feeds.benchmarks, probe: feeds.probe, status: feeds.status, "model-deprecations": feeds["model-deprecations"] },
    snapshotsDir: dir,
    now,
    replayDir: join(ROOT, "pipelines/fixtures"),
  });
  return dir;
}

beforeAll(async () => {
  temp = await openTempDatabase();
  const [freshDir, staleDir] = await Promise.all([snapshotsAt(new Date()), snapshotsAt(new Date(Date.now() - 40 * 60_000))]);
  const env = { DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off" };
  [fresh, stale] = await Promise.all([spawnApi({ ...env, SNAPSHOTS_DIR: freshDir }), spawnApi({ ...env, SNAPSHOTS_DIR: staleDir })]);
  credits = createCredits(temp.db as Database);
  const minted = await credits.mintToken(temp.db, { kind: "paid" });
  await credits.grant(temp.db, minted.id, 50, { reason: "purchase", ref: "test:route-verdict" });
  token = minted.token;
}, 180_000);

afterAll(async () => {
  await Promise.all([fresh?.stop(), stale?.stop()]);
  await temp?.close();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

const balance = async () => (await credits.tokenByBearer(token))!.balance;
const paid = async (path: string, api = fresh!): Promise<{ status: number; body: Json }> => {
  const res = await fetch(api.base + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Json };
};
const free = async (path: string): Promise<{ status: number; headers: Headers; body: Json }> => {
  const res = await fetch(fresh!.base + path);
  return { status: res.status, headers: res.headers, body: (await res.json()) as Json };
};

describe("GET /api/premium/route-verdict", () => {
  it("answers 402 without a credential, before looking at the input", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/route-verdict?task=poetry`)).status).toBe(402);
  });

  it("charges 1 credit for a verdict, with a receipt", async () => {
    const before = await balance();
    const { status, body } = await paid("/api/premium/route-verdict?task=code");
    expect(status).toBe(200);
    expect(body.billing).toMatchObject({ credits_charged: 1 });
    expect(body.receipt).toBeDefined();
    expect(body.verdict).toMatchObject({ rank: 1, usage: { corroborated: false, source: null } });
    expect(body.runners_up.length).toBeGreaterThan(0);
    expect(body.trust.operational_layer).toMatchObject({ fresh: true, sla_seconds: 1800 });
    expect(body.verdict.operational.status).toMatch(/^(operational|degraded|down|unknown)$/);
    expect(await balance()).toBe(before - 1);
  });

  it("refuses bad input after payment with a 400, and an unknown model with a 404, neither charged", async () => {
    const before = await balance();
    const bad = await paid("/api/premium/route-verdict?task=poetry");
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ ok: false, error: "invalid_query" });
    const flag = await paid("/api/premium/route-verdict?require_operational=maybe");
    expect(flag.status).toBe(400);
    const unknown = await paid("/api/premium/route-verdict?model=no-such-model");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: "unknown_model" });
    expect(await balance()).toBe(before);
  });

  it("answers a named model by its display name", async () => {
    const { status, body } = await paid("/api/premium/route-verdict?model=GPT-4o&task=reasoning");
    expect(status).toBe(200);
    expect(body.query).toMatchObject({ task: "reasoning", model: "gpt-4o" });
    expect(body.verdict.model.id).toBe("gpt-4o");
  });

  it("does not charge when no model qualifies", async () => {
    const { status, body } = await paid("/api/premium/route-verdict?task=code&max_latency_p95_ms=0.001");
    expect(status).toBe(200);
    expect(body.verdict).toBeNull();
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_eligible_model" });
  });

  it("does not charge when the status layer is older than 30 minutes", async () => {
    const before = await balance();
    const { status, body } = await paid("/api/premium/route-verdict?task=code", stale!);
    expect(status).toBe(200);
    expect(body.trust.operational_layer.fresh).toBe(false);
    expect(body.trust.operational_layer.age_seconds).toBeGreaterThan(1800);
    expect(body.billing.credits_charged).toBe(0);
    expect(["stale_data", "operational_layer_stale"]).toContain(body.billing.no_charge_reason);
    expect(await balance()).toBe(before);
  });
});

describe("GET /api/premium/failover-verdict", () => {
  it("answers 402 without a credential, before looking at the input", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/failover-verdict`)).status).toBe(402);
  });

  it("charges 1 credit for a failover plan, with a receipt; from accepts an alias", async () => {
    const before = await balance();
    const { status, body } = await paid("/api/premium/failover-verdict?from=claude&task=code");
    expect(status).toBe(200);
    expect(body.billing).toMatchObject({ credits_charged: 1 });
    expect(body.receipt).toBeDefined();
    expect(body.from.provider).toBe("anthropic");
    expect(body.excluded_providers[0]).toEqual({ provider: "anthropic", reason: "the provider failed over from" });
    expect(body.failover_to.model.provider).not.toBe("anthropic");
    expect(body.alternatives.every((a: Json) => a.model.provider !== "anthropic")).toBe(true);
    if (body.from.in_incident) expect(body.from.incident.impact_classification).toMatch(/^(full_outage|partial_outage|degraded_performance)$/);
    else expect(body.from.incident).toBeNull();
    expect(await balance()).toBe(before - 1);
  });

  it("refuses a missing from with a 400 and an unknown one with a 404, neither charged", async () => {
    const before = await balance();
    const missing = await paid("/api/premium/failover-verdict?task=code");
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ ok: false, error: "invalid_query" });
    const unknown = await paid("/api/premium/failover-verdict?from=nobody");
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: "unknown_provider" });
    expect(await balance()).toBe(before);
  });

  it("does not charge when the status layer is older than 30 minutes", async () => {
    const { status, body } = await paid("/api/premium/failover-verdict?from=openai", stale!);
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(0);
  });
});

describe("the previews", () => {
  it("route-verdict: the premium top verdict, ten times a day, then 429", async () => {
    const premium = await paid("/api/premium/route-verdict?task=code");
    for (let i = 0; i < 10; i++) {
      const { status, body } = await free("/api/preview/route-verdict?task=code");
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: true, preview: true, task: "code", rate_limit: { limit: 10, remaining: 9 - i } });
      expect(body.verdict).toEqual(premium.body.verdict);
      for (const reserved of ["runners_up", "trust", "receipt", "billing"]) expect(body).not.toHaveProperty(reserved);
    }
    const over = await free("/api/preview/route-verdict?task=code");
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ ok: false, error: "preview_limit_reached" });
    expect(over.body.message).toContain("/api/premium/route-verdict");
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("failover-verdict: destination and reason only; an unknown provider is 404 and not counted", async () => {
    const unknown = await free("/api/preview/failover-verdict?from=nobody");
    expect(unknown.status).toBe(404);
    const { status, body } = await free("/api/preview/failover-verdict?from=openai");
    expect(status).toBe(200);
    expect(Object.keys(body).sort()).toEqual(["destination", "from", "ok", "preview", "rate_limit", "reason", "upgrade"]);
    expect(body.rate_limit).toMatchObject({ limit: 10, remaining: 9 });
    expect(body.destination.provider).not.toBe("openai");
  });
});
