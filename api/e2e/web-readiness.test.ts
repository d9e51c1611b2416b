/**
 * The web-readiness routes over real HTTP: two API server processes on replay runs of the crawl (one fresh, one
 * run 9 days ago, past the 8-day SLA), billed on a real Postgres. Checks the 402 challenge, a charged call with
 * its receipt, the stale crawl served free, and the free aggregates.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AI_BOTS, WEB_DOMAINS } from "../../pipelines/catalog/web-domains.ts";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { webReadinessRows } from "../../pipelines/feeds/web-readiness.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import type { WebReadinessSnapshot } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { addDays } from "../verdicts/history-range.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";
import { startPaidServers, type PaidServers } from "./paid-servers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

const dirs: string[] = [];
let run: PaidServers<"fresh" | "stale"> | undefined;
let fresh: SpawnedApi | undefined;
let stale: SpawnedApi | undefined;
let today = "";

async function crawl(now: Date): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "agentfeed-web-"));
  dirs.push(dir);
  const [result] = await runFeeds({ feeds: { "web-readiness": feeds["web-readiness"] }, snapshotsDir: dir, now, replayDir: join(ROOT, "pipelines/fixtures") });
  if (result?.status === "failed") throw new Error(`web-readiness replay failed: ${JSON.stringify(result)}`);
  return dir;
}

beforeAll(async () => {
  const [freshDir, staleDir] = await Promise.all([crawl(new Date()), crawl(new Date(Date.now() - 9 * 86_400_000))]);
  // A week ago nytimes.com still allowed GPTBot and had no ai.txt.
  today = new Date().toISOString().slice(0, 10);
  const latest = JSON.parse(await readFile(join(freshDir, "web-readiness/latest.json"), "utf8")) as WebReadinessSnapshot;
  const earlier = structuredClone(latest);
  const nyt = earlier.domains.find((d) => d.domain === "nytimes.com")!;
  nyt.bots.GPTBot = "allowed";
  nyt.aiTxt = "absent";
  await writeWarehouse(freshDir, addDays(today, -7), webReadinessRows(earlier, addDays(today, -7)));
  run = await startPaidServers({ fresh: freshDir, stale: staleDir }, 10, "test:web-readiness");
  ({ fresh, stale } = run.servers);
}, 180_000);

afterAll(async () => {
  await run?.stop();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const paid = (api: SpawnedApi, path: string) => run!.paid(api, path);

describe("GET /api/premium/ai-crawler-access/full", () => {
  it("answers 402 without a credential", async () => {
    const res = await fetch(`${fresh!.base}/api/premium/ai-crawler-access/full`);
    expect(res.status).toBe(402);
  });

  it("charges a fresh crawl and signs a receipt: every domain, each bot, presence and statistics", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/ai-crawler-access/full");
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
    expect(body.domains).toHaveLength(WEB_DOMAINS.length);
    const nyt = body.domains.find((d: Json) => d.domain === "nytimes.com");
    expect(nyt).toMatchObject({ sector: "news-media", robotsStatus: "present", hasAiTxt: true, hasLlmsTxt: false });
    expect(nyt.bots.GPTBot).toBe("blocked");
    expect(Object.keys(nyt.bots).sort()).toEqual(AI_BOTS.map((b) => b.token).sort());
    const unreachable = body.domains.filter((d: Json) => d.robotsStatus === "unreachable");
    expect(unreachable.length).toBeGreaterThan(0);
    for (const d of unreachable) expect(new Set(Object.values(d.bots))).toEqual(new Set(["unknown"]));
    expect(body.stats.domainsWithData).toBe(WEB_DOMAINS.length - unreachable.length);
    expect(body.stats.bySector["news-media"].botBlockedPct).toBeGreaterThan(body.stats.bySector["ai-lab"].botBlockedPct);
    expect(body.note).toMatch(/not enforcement/);
  });

  it("serves a crawl older than 8 days without charge (stale_data)", async () => {
    const { status, body } = await paid(stale!, "/api/premium/ai-crawler-access/full");
    expect(status).toBe(200);
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
    expect(body.domains).toHaveLength(WEB_DOMAINS.length);
  });
});

describe("GET /api/premium/agent-ready/full", () => {
  it("answers 402 without a credential", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/agent-ready/full`)).status).toBe(402);
  });

  it("charges and scores with the contract's weights", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/agent-ready/full");
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.domains.length + body.unscored).toBe(WEB_DOMAINS.length);
    const weights = { x402: 25, agentJson: 20, openapi: 20, llmsTxt: 15, crawlable: 15, aiTxt: 5 } as Record<string, number>;
    for (const d of body.domains) {
      const sum = Object.entries(d.readiness.surfaces).reduce((s, [k, on]) => s + (on ? weights[k]! : 0), 0);
      expect(d.readiness.score).toBe(sum);
    }
    expect(body.domains.find((d: Json) => d.domain === "base.org").readiness.surfaces.x402).toBe(true);
  });

  it("serves a stale crawl without charge", async () => {
    const { body } = await paid(stale!, "/api/premium/agent-ready/full");
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
  });
});

describe("GET /api/premium/ai-crawler-access/changes", () => {
  it("answers 402 before checking parameters", async () => {
    expect((await fetch(`${fresh!.base}/api/premium/ai-crawler-access/changes`)).status).toBe(402);
  });

  it("rejects a missing or reversed range with 400, not charged", async () => {
    expect((await paid(fresh!, "/api/premium/ai-crawler-access/changes?from=2026-11-01")).status).toBe(400);
    const reversed = await paid(fresh!, "/api/premium/ai-crawler-access/changes?from=2026-11-10&to=2026-11-01");
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toBe("invalid_range");
  });

  it("reports each field that changed between the two crawls, charged", async () => {
    const { status, body } = await paid(fresh!, `/api/premium/ai-crawler-access/changes?from=${addDays(today, -10)}&to=${today}&domain=nytimes.com`);
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body).toMatchObject({ has_data: true, domain: "nytimes.com", captured_at: today });
    expect(body.changes).toEqual([
      { domain: "nytimes.com", field: "ai.txt", from: "absent", to: "present", at: today },
      { domain: "nytimes.com", field: "GPTBot", from: "allowed", to: "blocked", at: today },
    ]);
  });

  it("does not charge a range without any crawl", async () => {
    const { status, body } = await paid(fresh!, "/api/premium/ai-crawler-access/changes?from=2020-01-01&to=2020-01-31");
    expect(status).toBe(200);
    expect(body).toMatchObject({ has_data: false, changes: [] });
    expect(body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_data_in_range" });
  });
});

describe("free summaries", () => {
  it("GET /api/ai-crawler-access/summary.json gives aggregates only", async () => {
    const res = await fetch(`${fresh!.base}/api/ai-crawler-access/summary.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.domains).toBeUndefined();
    expect(body.stats.domains).toBe(WEB_DOMAINS.length);
    const gpt = body.bots.GPTBot;
    expect(gpt.allowed + gpt.blocked + gpt.partial + gpt.unknown).toBe(WEB_DOMAINS.length);
  });

  it("GET /api/agent-ready/summary.json gives tiers and adoption counts", async () => {
    const res = await fetch(`${fresh!.base}/api/agent-ready/summary.json`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    const tiers = Object.values(body.tiers as Record<string, number>).reduce((a, b) => a + b, 0);
    expect(tiers).toBe(body.domains);
    expect(body.domains + body.unscored).toBe(WEB_DOMAINS.length);
    expect(body.surfaces.x402).toBe(5);
  });
});

describe("GET /api/x402-index/publishers", () => {
  it("lists the crawled domains whose x402 discovery names a payee, free, with checksummed wallets and CAIP-2 networks", async () => {
    const res = await fetch(`${fresh!.base}/api/x402-index/publishers`);
    const body = (await res.json()) as Json;
    expect(res.status).toBe(200);
    expect(body.count).toBe(body.publishers.length);
    expect(body.count).toBeGreaterThan(0);
    const base = body.publishers.find((p: Json) => p.domain === "base.org");
    // The crawl written a week earlier already listed it.
    expect(base).toMatchObject({ listed_now: true, first_seen: addDays(today, -7) });
    expect(base.pay_to_wallets[0]).toMatchObject({ network: "eip155:8453", last_seen: today, sources: ["discovery"] });
    expect(base.pay_to_wallets[0].address).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(body.publishers.map((p: Json) => p.domain)).toEqual([...body.publishers.map((p: Json) => p.domain)].sort());
  });
});
