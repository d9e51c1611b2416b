/**
 * The x402 settlement index over real HTTP: an API process whose payments run on a local chain (anvil with the test
 * USDC) indexes USDC transfers to the publisher registry's wallets on its own (periodic passes), and the premium
 * reads answer from what it stored — the publisher rollup, the series, the settlement verdict and its preview,
 * with the 402 challenge before the parameter check and every no-charge rule.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { feeds } from "../../pipelines/feeds/index.ts";
import { webReadinessRows } from "../../pipelines/feeds/web-readiness.ts";
import { writeWarehouse } from "../../pipelines/lib/warehouse/write.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import type { WebReadinessSnapshot } from "../../pipelines/contract/snapshots/web-readiness.ts";
import { paymentEnvFor, startTestChain, type TestChain } from "../payments/testing/chain.ts";
import { contractFetch as fetch } from "../testing/openapi-contract.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";
import { addDays } from "../verdicts/history-range.ts";
import { startPaidServers, type PaidServers } from "./paid-servers.ts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

const walletA = privateKeyToAccount(generatePrivateKey()).address; // base.org
const shared = privateKeyToAccount(generatePrivateKey()).address; // circle.com and coinbase.com
const walletC = privateKeyToAccount(generatePrivateKey()).address; // coinbase.com
const outsider = privateKeyToAccount(generatePrivateKey()).address; // in no discovery document
const HOUR = 3600;

let chain: TestChain | undefined;
let run: PaidServers<"api"> | undefined;
let api: SpawnedApi | undefined;
let dir = "";
/** UTC days of the two batches of transfers, and the first and last block days. */
let priorDay = "";
let currentDay = "";
let firstDay = "";
let weekAgo = "";

const usdc = (n: number) => BigInt(Math.round(n * 1_000_000));

beforeAll(async () => {
  chain = await startTestChain();
  dir = await mkdtemp(join(tmpdir(), "agentfeed-x402-index-"));
  const [result] = await runFeeds({ feeds: { "web-readiness": feeds["web-readiness"] }, snapshotsDir: dir, now: new Date(), replayDir: join(ROOT, "pipelines/fixtures") });
  if (result?.status === "failed") throw new Error(`web-readiness replay failed: ${JSON.stringify(result)}`);
  // A week ago the crawl found these wallets in three domains' discovery documents (the chain's id is Base's).
  const crawl = JSON.parse(await readFile(join(dir, "web-readiness/latest.json"), "utf8")) as WebReadinessSnapshot;
  const earlier = structuredClone(crawl);
  const payees = { "base.org": [walletA], "circle.com": [shared], "coinbase.com": [shared, walletC] } as Record<string, string[]>;
  for (const d of earlier.domains) d.x402Payees = (payees[d.domain] ?? []).map((payTo) => ({ payTo, network: "eip155:8453", source: "discovery" as const }));
  weekAgo = addDays(new Date().toISOString().slice(0, 10), -7);
  await writeWarehouse(dir, weekAgo, webReadinessRows(earlier, weekAgo));
  // Between the two, a crawl whose registry was not recorded (as from before the table): the readiness rows only.
  const unrecorded = addDays(weekAgo, 3);
  await writeWarehouse(dir, unrecorded, webReadinessRows(earlier, unrecorded).filter((b) => b.table === "web_readiness_daily"));

  // The chain's history: a first block now, a prior batch two days on, the current batch a day after that.
  firstDay = (await chain.latestTime()).toISOString().slice(0, 10);
  const payer = await chain.newWallet(usdc(1000));
  await chain.testClient.increaseTime({ seconds: 48 * HOUR });
  for (const [to, amount] of [[walletA, 1], [walletA, 1], [shared, 3], [walletA, 0], [outsider, 50]] as const) await chain.transfer(payer, to, usdc(amount));
  priorDay = (await chain.latestTime()).toISOString().slice(0, 10);
  await chain.testClient.increaseTime({ seconds: 24 * HOUR });
  const current: [`0x${string}`, number][] = [[walletA, 2], [walletA, 2], [walletA, 2], [shared, 1.5], [shared, 1.5], [shared, 1.5], [shared, 1.5], [walletC, 10]];
  for (const [to, amount] of current) await chain.transfer(payer, to, usdc(amount));
  await chain.mine(1);
  currentDay = (await chain.latestTime()).toISOString().slice(0, 10);

  run = await startPaidServers({ api: dir }, 20, "test:x402-index", {
    ...paymentEnvFor(chain, privateKeyToAccount(generatePrivateKey()).address),
    X402_INDEX_CONFIRMATIONS: "0",
    X402_INDEX_INTERVAL_SECONDS: "1",
    X402_INDEX_START_BLOCK: "0",
  });
  api = run.servers.api;
  // The server indexes on its own; wait until its cursor reaches the head.
  const head = await chain.publicClient.getBlockNumber();
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { rows } = await run.db.query<{ block_number: string }>("SELECT block_number::text FROM x402_index_cursor");
    if (rows[0] && BigInt(rows[0].block_number) >= head) break;
    if (Date.now() > deadline) throw new Error(`the server's indexer did not reach block ${head} in 30 s`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}, 240_000);

afterAll(async () => {
  await run?.stop();
  await chain?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const paid = (path: string) => run!.paid(api!, path);
const range = () => `from=${firstDay}&to=${currentDay}`;

describe("GET /api/premium/x402-index/publisher/{domain}", () => {
  it("answers 402 before it checks the parameters", async () => {
    const res = await fetch(`${api!.base}/api/premium/x402-index/publisher/base.org`);
    expect(res.status).toBe(402);
  });

  it("refuses a missing or reversed range with 400, and a domain outside the registry with 404 and a hint, uncharged", async () => {
    expect((await paid("/api/premium/x402-index/publisher/base.org")).status).toBe(400);
    expect((await paid(`/api/premium/x402-index/publisher/base.org?from=${currentDay}&to=${firstDay}`)).body.error).toBe("invalid_range");
    const unknown = await paid(`/api/premium/x402-index/publisher/nowhere.example?${range()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ ok: false, error: "unknown_publisher" });
    expect(unknown.body.hint).toMatch(/\/api\/x402-index\/publishers/);
  });

  it("sums the publisher's indexed settlements per day with zeros, leaving out zero-value and other transfers", async () => {
    const { status, body } = await paid(`/api/premium/x402-index/publisher/base.org?${range()}`);
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.receipt).toBeDefined();
    expect(body.rollup).toMatchObject({ volume_usdc: "8.00", count: 5, avg_amount: "1.60" });
    const byDay = Object.fromEntries(body.rollup.daily_series.map((p: Json) => [p.date, [p.volume_usdc, p.count, p.indexed]]));
    expect(byDay[priorDay]).toEqual(["2.00", 2, true]);
    expect(byDay[currentDay]).toEqual(["6.00", 3, true]);
    expect(body.rollup.daily_series).toHaveLength(body.window.days);
    expect(body.rollup.daily_series.filter((p: Json) => p.date !== priorDay && p.date !== currentDay).every((p: Json) => p.count === 0 && p.volume_usdc === "0.00")).toBe(true);
    const a = body.publisher.pay_to_wallets.find((w: Json) => w.address === walletA);
    expect(a).toMatchObject({ network: "eip155:8453", indexed: true, shared_with: [] });
    expect(body.coverage).toMatchObject({ network: "eip155:8453", token: chain!.usdc.toLowerCase(), stale: false });
  });

  it("counts a wallet several domains share for each of them, and names the others", async () => {
    const circle = (await paid(`/api/premium/x402-index/publisher/circle.com?${range()}`)).body;
    expect(circle.rollup).toMatchObject({ volume_usdc: "9.00", count: 5 });
    expect(circle.publisher.pay_to_wallets.find((w: Json) => w.address === shared).shared_with).toEqual(["coinbase.com"]);
    const coinbase = (await paid(`/api/premium/x402-index/publisher/coinbase.com?${range()}`)).body;
    expect(coinbase.rollup).toMatchObject({ volume_usdc: "19.00", count: 6 });
  });
});

describe("GET /api/premium/x402-index/series", () => {
  it("counts every settlement once at the ecosystem level, as volume or count, per day", async () => {
    const volume = await paid(`/api/premium/x402-index/series?metric=volume&${range()}`);
    expect(volume.status).toBe(200);
    expect(volume.body.billing.credits_charged).toBe(1);
    const v = Object.fromEntries(volume.body.series.map((p: Json) => [p.ts, p.value]));
    expect([v[priorDay], v[currentDay]]).toEqual(["5.00", "22.00"]);
    const count = (await paid(`/api/premium/x402-index/series?metric=count&${range()}&domain=coinbase.com`)).body;
    const c = Object.fromEntries(count.series.map((p: Json) => [p.ts, p.value]));
    expect([c[priorDay], c[currentDay]]).toEqual([1, 5]);
  });

  it("answers the hourly granularity with an empty series and a note, uncharged; an unknown domain with 404", async () => {
    const hour = await paid(`/api/premium/x402-index/series?metric=count&granularity=hour&${range()}`);
    expect(hour.status).toBe(200);
    expect(hour.body.series).toEqual([]);
    expect(hour.body.note).toMatch(/granularity=day/);
    expect(hour.body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "not_served" });
    expect((await paid(`/api/premium/x402-index/series?metric=count&${range()}&domain=nowhere.example`)).status).toBe(404);
    expect((await paid(`/api/premium/x402-index/series?metric=price&${range()}`)).status).toBe(400);
  });
});

describe("GET /api/premium/x402-settlement-verdict and its preview", () => {
  it("judges the last 24 h against the 24 h before: expanding, concentrated, led by the largest publisher", async () => {
    const { status, body } = await paid("/api/premium/x402-settlement-verdict?window=24h");
    expect(status).toBe(200);
    expect(body.billing.credits_charged).toBe(1);
    expect(body.verdict).toEqual({ momentum: "expanding", concentration: "concentrated", leading_publisher: "coinbase.com" });
    expect(body.ecosystem).toMatchObject({ volume_usdc: "22.00", count: 8, unique_publishers: 3, volume_change_pct: 340, prior_window_empty: false, hhi: 3554 });
    expect(body.ranking.map((r: Json) => [r.domain, r.volume_usdc, r.count])).toEqual([
      ["coinbase.com", "10.00", 1],
      ["circle.com", "6.00", 4],
      ["base.org", "6.00", 3],
    ]);
    expect(Date.parse(body.capturedAt)).toBe(Date.parse(body.window.to));
  });

  it("calls a window whose prior the index never covered nascent", async () => {
    const { body } = await paid("/api/premium/x402-settlement-verdict");
    expect(body.window_label).toBe("7d");
    expect(body.verdict.momentum).toBe("nascent");
    expect(body.ecosystem).toMatchObject({ volume_usdc: "27.00", count: 11, prior_window_empty: true });
    expect((await paid("/api/premium/x402-settlement-verdict?window=1y")).status).toBe(400);
  });

  it("previews the classifications only, free and counted", async () => {
    const res = await fetch(`${api!.base}/api/preview/x402-settlement-verdict?window=24h`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ ok: true, preview: true, window_label: "24h", verdict: { momentum: "expanding", leading_publisher: "coinbase.com" } });
    expect(body.ranking).toBeUndefined();
    expect(body.ecosystem).toBeUndefined();
    expect(body.receipt).toBeUndefined();
    expect(body.rate_limit.remaining).toBe(9);
  });
});

describe("GET /api/premium/x402-registry/series", () => {
  it("answers each crawl day of the registry with its changes since the crawl before, and a day without a crawl with nulls", async () => {
    const today = new Date().toISOString().slice(0, 10);
    const { status, body } = await paid(`/api/premium/x402-registry/series?from=${weekAgo}&to=${today}`);
    expect(status).toBe(200);
    expect(body.billing, JSON.stringify(body.billing)).toMatchObject({ credits_charged: 1 });
    expect(body.points).toHaveLength(8);
    const before = body.points.find((p: Json) => p.date === weekAgo);
    const now = body.points.find((p: Json) => p.date === today);
    // The five recorded x402 publishers were read on both crawls; no earlier crawl precedes the first.
    expect(before).toMatchObject({ has_data: true, total: 5, ok_count: 5, error_count: 0, paid_endpoints_total: 5, free_endpoints_total: 0, networks: ["eip155:8453"], added: null });
    // A week later every publisher names the recorded wallet instead of the ones it had: five wallet changes.
    expect(now).toMatchObject({ has_data: true, total: 5, added: 0, removed: 0, status_flips: 0, wallet_changes: 5 });
    expect(now.wallet_change_sample).toEqual(["base.org", "circle.com", "cloudflare.com", "coinbase.com", "vercel.com"]);
    expect(body.points.find((p: Json) => p.date === addDays(weekAgo, 1))).toMatchObject({ has_data: false, total: null });
    // A crawl day whose registry was not recorded has no data (not an empty registry, and no five "added" after it).
    expect(body.points.find((p: Json) => p.date === addDays(weekAgo, 3))).toMatchObject({ has_data: false, total: null });
    expect(body.delta_in_window).toEqual({ start_total: 5, end_total: 5, net: 0, start_ok: 5, end_ok: 5 });
  });

  it("does not charge a window without a crawl, and refuses a window over 90 days", async () => {
    const empty = await paid("/api/premium/x402-registry/series?from=2020-01-01&to=2020-01-31");
    expect(empty.status).toBe(200);
    expect(empty.body.billing).toMatchObject({ credits_charged: 0, no_charge_reason: "no_data_in_range" });
    expect((await paid("/api/premium/x402-registry/series?from=2020-01-01&to=2020-12-31")).body.error).toBe("range_too_long");
  });
});
