/**
 * The OpenAPI document tells the truth: every registered operation is called over HTTP on real servers (an
 * API process with its embedded Postgres and a local chain with a test USDC, and a data-only server), in its
 * success and its error cases (400, 401, 402 both kinds, 404, 405, 409, 429, 503), and every answer is held
 * against the document by `contractFetch`, which fails the call naming the operation, the status and the
 * validator's message.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApi, operationIdOf } from "../docs/openapi.ts";
import { trialMessage } from "../payments/trial-message.ts";
import { startTestChain, type TestChain, paymentEnvFor } from "../payments/testing/chain.ts";
import { routes } from "../registry/index.ts";
import { startServer, type RunningServer } from "../server.ts";
import { BUNDLED_SNAPSHOTS } from "../testing/bundled-server.ts";
import { contractFetch as fetch, OpenApiContract, serviceContract } from "../testing/openapi-contract.ts";
import { freePort } from "../testing/free-port.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
import { feeds } from "../../pipelines/feeds/index.ts";
import { runFeeds } from "../../pipelines/runner/run-feeds.ts";
import { examplePath } from "./helpers.ts";

const ROOT = join(import.meta.dirname, "../..");
/** The premium GET routes (POST /api/premium/watches has its own test below), and the snapshot types they read (refreshed by a replay run, so calls are charged). */
const PREMIUM = routes.filter((r) => r.tier === "premium" && r.method === "GET");
/** The free previews: counted in the state database, so served by the stateful instance only. */
const PREVIEWS = routes.filter((r) => r.tier === "preview");
const PREMIUM_INPUTS = [...new Set([...PREMIUM, ...PREVIEWS].flatMap((r) => r.snapshots ?? []))];

let chain: TestChain | undefined;
let api: SpawnedApi | undefined;
let dataOnly: RunningServer | undefined;
let limited: RunningServer | undefined;
let dataDir = "";
let work = "";

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "agentfeed-contract-state-"));
  work = await mkdtemp(join(tmpdir(), "agentfeed-contract-"));
  const snapshotsDir = join(work, "snapshots");
  await runFeeds({ feeds: Object.fromEntries(PREMIUM_INPUTS.map((t) => [t, feeds[t as keyof typeof feeds]])), snapshotsDir, replayDir: join(ROOT, "pipelines/fixtures") });
  chain = await startTestChain();
  const publisher = privateKeyToAccount(generatePrivateKey());
  api = await spawnApi({
    PORT: String(await freePort()),
    SNAPSHOTS_DIR: snapshotsDir,
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    ...paymentEnvFor(chain, publisher.address),
    RATE_LIMIT_PER_MINUTE: "10000",
  });
  const common = { port: 0, host: "127.0.0.1", snapshotsDir: BUNDLED_SNAPSHOTS, trustProxy: null, onWarn: () => {} } as const;
  dataOnly = await startServer({ ...common, state: false, rateLimitPerMinute: 0 });
  limited = await startServer({ ...common, state: false, rateLimitPerMinute: 1 });
}, 120_000);

afterAll(async () => {
  await api?.stop();
  await chain?.stop();
  await dataOnly?.close();
  await limited?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
  if (work) await rm(work, { recursive: true, force: true });
});

const json = async (res: Response) => (await res.json()) as Record<string, any>;
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Quote, pay and confirm `usd` from a fresh wallet; returns the confirm body. */
async function buyCredits(base: string, usd: number): Promise<Record<string, any>> {
  const payer = await chain!.newWallet(BigInt(Math.round(usd * 1e6)));
  const quote = await json(await post(`${base}/api/payment/buy-credits`, { amount_usd: usd, sender_wallet: payer.address }));
  const tx = await chain!.transfer(payer, quote.wallet as `0x${string}`, BigInt(Math.round(usd * 1e6)));
  await chain!.mine(1);
  const res = await post(`${base}/api/payment/confirm`, { tx_hash: tx, nonce: quote.memo });
  expect(res.status).toBe(200);
  return json(res);
}

describe("every operation answers what /openapi.json declares", () => {
  it("the served document is the one built from the registry, and valid OpenAPI 3.1", async () => {
    const served = await json(await fetch(`${dataOnly!.url}/openapi.json`));
    const built = buildOpenApi(routes, { baseUrl: "http://unused" });
    expect({ ...served, servers: null }).toEqual({ ...built, servers: null });
    await expect(OpenApiContract.load(served)).resolves.toBeInstanceOf(OpenApiContract);
  });

  it("free and discovery routes: 200 (304 on a matching ETag), 400 and 404 on bad path parameters", async () => {
    for (const route of routes.filter((r) => r.method === "GET" && (r.tier === "free" || r.tier === "discovery"))) {
      const res = await fetch(dataOnly!.url + examplePath(route).replace("2025-01-14", dataOnly!.store.dates("status").at(-1) ?? ""));
      expect(res.status, route.path).toBe(200);
      const etag = res.headers.get("etag");
      if (etag) expect((await fetch(dataOnly!.url + examplePath(route).replace("2025-01-14", dataOnly!.store.dates("status").at(-1) ?? ""), { headers: { "if-none-match": etag } })).status).toBe(304);
    }
    expect((await fetch(`${dataOnly!.url}/api/history/2025-02-30/status`)).status).toBe(400);
    expect((await fetch(`${dataOnly!.url}/api/history/2025-01-14/unicorns`)).status).toBe(404);
    expect((await fetch(`${dataOnly!.url}/api/receipt/verify?receipt=%25%25`)).status).toBe(400);
    expect((await post(`${dataOnly!.url}/api/receipt/verify`, { nothing: true })).status).toBe(400);
  });

  it("answers outside every operation: 404 for an unknown path, 405 for a method a path does not serve", async () => {
    expect((await fetch(`${dataOnly!.url}/api/nothing-here`)).status).toBe(404);
    expect((await fetch(`${dataOnly!.url}/api/history`, { method: "DELETE" })).status).toBe(405);
  });

  it("429 with Retry-After and RateLimit headers past the per-IP limit", async () => {
    expect((await fetch(`${limited!.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${limited!.url}/api/health`)).status).toBe(429);
  });

  it("503 from payment and premium routes on an instance without state", async () => {
    for (const route of routes.filter((r) => r.tier === "payment" || r.tier === "premium")) {
      const url = dataOnly!.url + (route.example ?? route.path);
      const res = route.method === "POST" ? await post(url, {}) : await fetch(url, { method: route.method });
      // a POST body that fails its schema is refused before the state is needed
      expect([400, 503], `${route.method} ${route.path}`).toContain(res.status);
    }
  });

  it("payment routes: info, quote, confirm (mint, top-up and a repeated confirm), trial, balance, and their 400, 401, 404 and 409", { timeout: 120_000 }, async () => {
    const base = api!.base;
    expect((await fetch(`${base}/api/payment/info`)).status).toBe(200);
    expect((await post(`${base}/api/payment/buy-credits`, { amount_usd: "five" })).status).toBe(400);
    const minted = await buyCredits(base, 1);
    expect(minted).toMatchObject({ credits: 100, rate: "base" });
    // A confirm repeated after its answer was lost: the same token again, marked replayed, nothing added.
    const payer = await chain!.newWallet(1_000_000n);
    const quote = await json(await post(`${base}/api/payment/buy-credits`, { amount_usd: 1, sender_wallet: payer.address }));
    const tx = await chain!.transfer(payer, quote.wallet as `0x${string}`, 1_000_000n);
    await chain!.mine(1);
    const once = await json(await post(`${base}/api/payment/confirm`, { tx_hash: tx, nonce: quote.memo }));
    const twice = await post(`${base}/api/payment/confirm`, { tx_hash: tx, nonce: quote.memo });
    expect(twice.status).toBe(200);
    expect(await json(twice)).toMatchObject({ token: once.token, credits: 100, balance: 100, replayed: true });
    const missing = await post(`${base}/api/payment/confirm`, { tx_hash: `0x${"ab".repeat(32)}`, nonce: "0".repeat(32) });
    expect(missing.status).toBe(404);
    const topUpUnknown = await post(`${base}/api/payment/confirm`, { tx_hash: `0x${"cd".repeat(32)}`, nonce: (await json(await post(`${base}/api/payment/buy-credits`, { amount_usd: 1, sender_wallet: (await chain!.newWallet()).address }))).memo }, bearer("afk_" + "0".repeat(64)));
    expect(topUpUnknown.status).toBe(401);
    expect((await fetch(`${base}/api/payment/balance`, { headers: bearer(minted.token) })).status).toBe(200);
    expect((await fetch(`${base}/api/payment/balance`)).status).toBe(401);

    const wallet = privateKeyToAccount(generatePrivateKey());
    const trial = async () => {
      const message = trialMessage({ wallet: wallet.address, timestamp: new Date(), nonce: randomBytes(8).toString("hex") });
      const signature = await createWalletClient({ account: wallet, transport: http(chain!.anvil.rpcUrl) }).signMessage({ message });
      return post(`${base}/api/payment/trial-credits`, { message, signature });
    };
    expect((await trial()).status).toBe(200);
    expect((await trial()).status).toBe(409);
  });

  it("premium routes: 402 challenge, paid 200 with billing and receipt, 400, 409 on a reused Idempotency-Key, 402 insufficient_credits, x402 retry", { timeout: 120_000 }, async () => {
    const base = api!.base;
    const { token } = await buyCredits(base, 5);
    expect(PREMIUM.length).toBeGreaterThan(0);
    for (const route of PREMIUM) {
      const path = route.example ?? route.path;
      const challenge = await fetch(base + path);
      expect(challenge.status, route.path).toBe(402);
      expect(challenge.headers.get("payment-required")).toBeTruthy();
      const paid = await fetch(base + path, { headers: bearer(token) });
      expect(paid.status, route.path).toBe(200);
      const body = await json(paid);
      expect(body.receipt.signed.endpoint).toBe(`${route.method} ${route.path}`);
      const verified = await json(await post(`${base}/api/receipt/verify`, { receipt: body.receipt, response: body }));
      expect(verified.valid).toBe(true);
      expect((await fetch(`${base}/api/receipt/verify?receipt=${Buffer.from(JSON.stringify(body.receipt)).toString("base64url")}`)).status).toBe(200);
      // A paid call refuses a parameter its route does not declare (api/security.md), and a declared one with a value no schema takes.
      const declared = Object.keys((route.query as { shape?: Record<string, unknown> } | undefined)?.shape ?? {})[0];
      if (declared) expect((await fetch(`${base}${route.path}?${declared}=${"x".repeat(600)}`, { headers: bearer(token) })).status, route.path).toBe(400);
      const undeclared = await fetch(`${base}${path}${path.includes("?") ? "&" : "?"}not_a_parameter=1`, { headers: bearer(token) });
      expect(undeclared.status, route.path).toBe(400);
      expect((await json(undeclared)).error, route.path).toBe("invalid_query");
    }
    const routing = "/api/premium/routing";
    // The 402 names the resource from the path and its declared parameters.
    const challenge = await fetch(`${base}${routing}?task=code`);
    expect(challenge.status).toBe(402);
    expect((await json(challenge)).resource.url).toMatch(new RegExp(`^http://[^/]+${routing}\\?task=code$`));
    // An undeclared parameter is refused before the challenge (a paid retry at the challenge's URL would drop it),
    // and a 15,000-character one is not echoed back.
    const padded = await fetch(`${base}${routing}?task=code&pad=${"y".repeat(15_000)}`);
    expect(padded.status).toBe(400);
    expect(padded.headers.get("payment-required")).toBeNull();
    const refused = await padded.text();
    expect(refused.length).toBeLessThan(2_000);
    expect(JSON.parse(refused)).toMatchObject({ ok: false, error: "invalid_query", issues: [{ code: "unrecognized_keys" }] });
    const key = { ...bearer(token), "idempotency-key": `contract-${randomBytes(4).toString("hex")}` };
    expect((await fetch(`${base}${routing}?task=code`, { headers: key })).status).toBe(200);
    expect((await fetch(`${base}${routing}?task=code`, { headers: key })).headers.get("idempotent-replayed")).toBe("true");
    expect((await fetch(`${base}${routing}?task=creative`, { headers: key })).status).toBe(409);

    // A trial token spent down to nothing: the next call is 402 insufficient_credits.
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = trialMessage({ wallet: wallet.address, timestamp: new Date(), nonce: randomBytes(8).toString("hex") });
    const signature = await createWalletClient({ account: wallet, transport: http(chain!.anvil.rpcUrl) }).signMessage({ message });
    const trial = await json(await post(`${base}/api/payment/trial-credits`, { message, signature }));
    for (let i = 0; i < trial.credits; i++) {
      const spent = await fetch(`${base}${routing}?top_n=${(i % 10) + 1}&w_latency=0.${i}`, { headers: bearer(trial.token) });
      expect(spent.status).toBe(200);
      expect((await json(spent)).billing.credits_charged).toBe(1);
    }
    const broke = await fetch(`${base}${routing}?task=reasoning`, { headers: bearer(trial.token) });
    expect(broke.status).toBe(402);
    expect((await json(broke)).error).toBe("insufficient_credits");

    // x402: pay a quote and retry with the payment headers instead of a token.
    const payer = await chain!.newWallet(1_000_000n);
    const quote = await json(await post(`${base}/api/payment/buy-credits`, { amount_usd: 1, sender_wallet: payer.address }));
    const tx = await chain!.transfer(payer, quote.wallet as `0x${string}`, 1_000_000n);
    await chain!.mine(1);
    const retry = await fetch(`${base}${routing}?task=general`, { headers: { "x-payment-tx": tx, "x-payment-quote": quote.memo } });
    expect(retry.status).toBe(200);
    expect(retry.headers.get("x-payment-token")).toBeTruthy();
  });

  it("preview routes: 200 with their quota on the stateful instance, 503 on one without state", async () => {
    expect(PREVIEWS.length).toBeGreaterThan(0);
    for (const route of PREVIEWS) {
      const path = route.example ?? route.path;
      const res = await fetch(api!.base + path);
      expect(res.status, route.path).toBe(200);
      expect(await json(res)).toMatchObject({ ok: true, preview: true, upgrade: { premium_endpoint: expect.stringMatching(/^\/api\/premium\//) } });
      const off = await fetch(dataOnly!.url + path);
      expect(off.status, route.path).toBe(503);
      expect((await json(off)).error).toBe("previews_unavailable");
    }
  });

  it("mcp route: a JSON-RPC initialize answers 200 with the server's capabilities", async () => {
    const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "contract", version: "1" } } };
    const res = await post(`${api!.base}/mcp`, init, { accept: "application/json, text/event-stream" });
    expect(res.status).toBe(200);
    expect(await json(res)).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "agentfeed" }, capabilities: { tools: {}, resources: {} } } });
  });

  it("watch routes: register (paid), list, read, test and delete (free, owner only)", { timeout: 60_000 }, async () => {
    const base = api!.base;
    const { token } = await buyCredits(base, 1);
    const created = await post(`${base}/api/premium/watches`, { spec: { type: "digest", cadence: "daily" }, callback_url: "https://hooks.example.com/contract" }, bearer(token));
    expect(created.status).toBe(200);
    const id = (await json(created)).watch.id as string;
    expect((await fetch(`${base}/api/premium/watches`, { headers: bearer(token) })).status).toBe(200);
    expect((await fetch(`${base}/api/premium/watches/${id}`, { headers: bearer(token) })).status).toBe(200);
    expect((await post(`${base}/api/premium/watches/${id}/test`, {}, bearer(token))).status).toBe(200);
    expect((await fetch(`${base}/api/premium/watches/${id}`, { method: "DELETE", headers: bearer(token) })).status).toBe(200);
  });

  it("covered every registered operation with a success, and the error statuses the document declares", async () => {
    const seen = (await serviceContract()).seen;
    const succeeded = new Set(seen.filter((a) => a.status < 300 && a.operationId).map((a) => a.operationId));
    expect(routes.map(operationIdOf).filter((id) => !succeeded.has(id))).toEqual([]);
    const statuses = new Set(seen.map((a) => a.status));
    for (const status of [304, 400, 401, 402, 404, 405, 409, 429, 503]) expect(statuses, String(status)).toContain(status);
  });
});
