/**
 * The provider verdicts over real HTTP, billed on a real Postgres: API processes on (1) a fresh replay run of
 * the probe, status, pricing, news and benchmarks feeds (which wrote today's probe and status samples), (2) the
 * same run without any probe or status sample in the warehouse, and (3) the bundled snapshots, whose probe run
 * is days old. Checks 402 before validation, 400 and 404 after payment without a charge, every no-charge rule,
 * the charge and receipt on success, and the free preview's picks.
 */
import { cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { BUNDLED_SNAPSHOTS } from "../testing/bundled-server.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

let temp: TempDatabase | undefined;
let fresh: SpawnedApi | undefined;
let noSamples: SpawnedApi | undefined;
let stale: SpawnedApi | undefined;
let work = "";
let token = "";
let credits: ReturnType<typeof createCredits>;

beforeAll(async () => {
  temp = await openTempDatabase();
  work = await mkdtemp(join(tmpdir(), "agentfeed-provider-verdicts-"));
  const freshDir = join(work, "fresh");
  const emptyDir = join(work, "no-samples");
  const only = ["probe", "status", "pricing", "news", "benchmarks"] as const;
  await runFeeds({ feeds: Object.fromEntries(only.map((t) => [t, feeds[t]])), snapshotsDir: freshDir, replayDir: join(ROOT, "pipelines/fixtures") });
  await cp(freshDir, emptyDir, { recursive: true });
  await rm(join(emptyDir, "warehouse/probe_samples"), { recursive: true, force: true });
  await rm(join(emptyDir, "warehouse/status_samples"), { recursive: true, force: true });
  const env = { DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off" };
  [fresh, noSamples, stale] = await Promise.all([
    spawnApi({ ...env, SNAPSHOTS_DIR: freshDir }),
    spawnApi({ ...env, SNAPSHOTS_DIR: emptyDir }),
    spawnApi({ ...env, SNAPSHOTS_DIR: BUNDLED_SNAPSHOTS }),
  ]);
  credits = createCredits(temp.db as Database);
  const minted = await credits.mintToken(temp.db, { kind: "paid" });
  await credits.grant(temp.db, minted.id, 50, { reason: "purchase", ref: "test:provider-verdicts" });
  token = minted.token;
}, 240_000);

afterAll(async () => {
  await Promise.all([fresh?.stop(), noSamples?.stop(), stale?.stop()]);
  await temp?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const balance = async () => (await credits.tokenByBearer(token))!.balance;
const get = async (api: SpawnedApi, path: string, auth = true) => {
  const res = await fetch(api.base + path, { headers: auth ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.status, body: (await res.json()) as Json };
};
/** A paid call and the credits it took. */
const paid = async (api: SpawnedApi, path: string) => {
  const before = await balance();
  const answer = await get(api, path);
  return { ...answer, spent: before - (await balance()) };
};

describe("GET /api/premium/provider-reliability-verdict", () => {
  it("402 without a credential", async () => {
    expect((await get(fresh!, "/api/premium/provider-reliability-verdict", false)).status).toBe(402);
  });

  it("charges 1 credit for a fresh ranking, with a receipt", async () => {
    const { status, body, spent } = await paid(fresh!, "/api/premium/provider-reliability-verdict");
    expect(status).toBe(200);
    expect(spent).toBe(1);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeTruthy();
    expect(body.coverage.fully_measured).toBeGreaterThan(0);
    expect(body.ranking[0]).toMatchObject({ rank: 1, measured: true });
    expect(body.verdict.most_dependable.provider).toBe(body.ranking[0].provider);
    expect(Date.now() - Date.parse(body.capturedAt)).toBeLessThan(3_600_000);
  });

  it("does not charge stale probes (stale_data), nor a warehouse without samples (no_probe_data)", async () => {
    const old = await paid(stale!, "/api/premium/provider-reliability-verdict");
    expect(old.status).toBe(200);
    expect(old.body.ranking.length).toBeGreaterThan(0);
    expect(old.body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
    expect(old.spent).toBe(0);
    const none = await paid(noSamples!, "/api/premium/provider-reliability-verdict");
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ ranking: [], capturedAt: null, billing: { credits_charged: 0, no_charge_reason: "no_probe_data" } });
    expect(none.spent).toBe(0);
  });
});

describe("GET /api/premium/resilience/concentration-verdict", () => {
  it("402 before validation", async () => {
    expect((await get(fresh!, "/api/premium/resilience/concentration-verdict", false)).status).toBe(402);
    expect((await get(fresh!, "/api/premium/resilience/concentration-verdict?providers=%3B%3B", false)).status).toBe(402);
  });

  it("400 after payment without a charge", async () => {
    const missing = await paid(fresh!, "/api/premium/resilience/concentration-verdict");
    expect([missing.status, missing.body.error, missing.spent]).toEqual([400, "invalid_query", 0]);
    const odd = await paid(fresh!, "/api/premium/resilience/concentration-verdict?providers=openai%3Bdrop");
    expect([odd.status, odd.spent]).toEqual([400, 0]);
  });

  it("charges a verdict over aliases, with a receipt", async () => {
    const { status, body, spent } = await paid(fresh!, "/api/premium/resilience/concentration-verdict?providers=ChatGPT,Claude,gemini");
    expect(status).toBe(200);
    expect(spent).toBe(1);
    expect(body).toMatchObject({ ok: true, verdict_kind: "dependency_concentration", provider_count: 3, untracked: [] });
    expect(["RESILIENT", "EXPOSED", "CRITICAL"]).toContain(body.verdict);
    expect(["openai", "anthropic", "google"]).toContain(body.weakest_link.provider);
    expect(body.diversification.suggested.map((s: Json) => s.provider)).not.toContain("openai");
    expect(body.receipt).toBeTruthy();
  });

  it("does not charge when no listed provider is tracked", async () => {
    const { status, body, spent } = await paid(fresh!, "/api/premium/resilience/concentration-verdict?providers=nobody-ai,acme");
    expect(status).toBe(200);
    expect(body).toMatchObject({ verdict: null, untracked: ["nobody-ai", "acme"], billing: { credits_charged: 0, no_charge_reason: "no_tracked_provider" } });
    expect(spent).toBe(0);
  });
});

describe("GET /api/premium/providers/{name}", () => {
  it("402 before validation", async () => {
    expect((await get(fresh!, "/api/premium/providers/anthropic", false)).status).toBe(402);
    expect((await get(fresh!, `/api/premium/providers/${"x".repeat(80)}`, false)).status).toBe(402);
  });

  it("400 for a bad name and 404 for an unknown one, after payment, without a charge", async () => {
    const bad = await paid(fresh!, `/api/premium/providers/${"x".repeat(80)}`);
    expect([bad.status, bad.body.ok, bad.spent]).toEqual([400, false, 0]);
    const unknown = await paid(fresh!, "/api/premium/providers/nobody-ai");
    expect([unknown.status, unknown.body.error, unknown.spent]).toEqual([404, "unknown_provider", 0]);
  });

  it("charges a profile; the agent traffic counts this server's own answers to the provider's bots", async () => {
    const ua = "Mozilla/5.0 (compatible; ClaudeBot/1.0; +claudebot@anthropic.com)";
    expect((await fetch(`${fresh!.base}/api/status`, { headers: { "user-agent": ua } })).status).toBe(200);
    const { status, body, spent } = await paid(fresh!, "/api/premium/providers/anthropic");
    expect(status).toBe(200);
    expect(spent).toBe(1);
    expect(body.provider.id).toBe("anthropic");
    expect(body.status.components.length).toBeGreaterThan(0);
    expect(body.models.length).toBeGreaterThan(0);
    expect(body.agent_traffic_24h.by_bot.ClaudeBot).toBeGreaterThanOrEqual(1);
    expect(body.agent_traffic_24h.requests).toBeGreaterThanOrEqual(1);
    expect(body.receipt).toBeTruthy();
  });
});

describe("GET /api/preview/provider-reliability-verdict", () => {
  it("shows the premium verdict's picks only, ten times a day, then 429", async () => {
    const premium = await get(fresh!, "/api/premium/provider-reliability-verdict");
    for (let i = 0; i < 10; i++) {
      const { status, body } = await get(fresh!, "/api/preview/provider-reliability-verdict", false);
      expect(status).toBe(200);
      expect(body).toMatchObject({ ok: true, preview: true, capturedAt: premium.body.capturedAt, verdict: premium.body.verdict, rate_limit: { limit: 10, remaining: 9 - i } });
      expect(body).not.toHaveProperty("ranking");
      expect(body).not.toHaveProperty("coverage");
      expect(body).not.toHaveProperty("receipt");
    }
    const over = await get(fresh!, "/api/preview/provider-reliability-verdict", false);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ ok: false, error: "preview_limit_reached" });
  });
});
