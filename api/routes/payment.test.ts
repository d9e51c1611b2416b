import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { createApp, type ServedSnapshots } from "../app.ts";
import type { PaymentDeps } from "../payments/deps.ts";
import { startTestChain, type TestChain } from "../payments/testing/chain.ts";
import { testPaymentDeps } from "../payments/testing/deps.ts";
import { trialMessage } from "../payments/trial-message.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { createPaymentRoutes, paymentRoutes } from "./payment.ts";

const snapshots: ServedSnapshots = { generation: 1, get: () => undefined, types: () => [], dates: () => [], dated: async () => undefined };
const publisher = privateKeyToAccount(generatePrivateKey()).address;
let temp: TempDatabase;
let chain: TestChain;
let deps: PaymentDeps;

beforeAll(async () => {
  [temp, chain] = await Promise.all([openTempDatabase(), startTestChain()]);
  deps = testPaymentDeps(temp, { rpcUrl: chain.anvil.rpcUrl, usdc: chain.usdc, publisher });
}, 60_000);
afterAll(async () => {
  await Promise.all([temp?.close(), chain?.stop()]);
});

function app(routes = createPaymentRoutes(() => deps)) {
  return createApp({ routes, snapshots, baseUrl: "http://x.test", rateLimitPerMinute: 0, trustProxy: null }).app;
}

async function call(path: string, init: { body?: unknown; raw?: string; bearer?: string; authorization?: string } = {}, routes?: ReturnType<typeof createPaymentRoutes>) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (init.bearer) headers.authorization = `Bearer ${init.bearer}`;
  if (init.authorization) headers.authorization = init.authorization;
  const post = init.body !== undefined || init.raw !== undefined;
  const res = await app(routes).request(path, { method: post ? "POST" : "GET", headers, body: init.raw ?? (post ? JSON.stringify(init.body) : undefined) });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describe("paymentRoutes", () => {
  it("paymentRoutes answer 503 payments_not_configured without deps or without a publisher wallet", async () => {
    for (const path of ["/api/payment/info", "/api/payment/balance"]) {
      const r = await call(path, {}, paymentRoutes);
      expect(r.status).toBe(503);
      expect(r.body).toMatchObject({ ok: false, error: "payments_not_configured" });
    }
    const off = testPaymentDeps(temp, { rpcUrl: chain.anvil.rpcUrl, publisher, env: { PUBLISHER_WALLET: "" } });
    const r = await call("/api/payment/buy-credits", { body: { amount_usd: 1, sender_wallet: publisher } }, createPaymentRoutes(off));
    expect(r).toMatchObject({ status: 503, body: { error: "payments_not_configured" } });
    expect(paymentRoutes.every((route) => route.tier === "payment")).toBe(true);
  });

  it("GET /api/payment/info shows the wallet, bundles, flows, rules and the trial statement", async () => {
    const r = await call("/api/payment/info");
    expect(r.status).toBe(200);
    expect(r.body.wallet).toMatchObject({ address: publisher, currency: "USDC", network: "base", contract: getAddress(chain.usdc) });
    expect(r.body.pricing.base_rate).toBe(50);
    expect(r.body.pricing.volume_bundles).toEqual([
      { usd: 1, credits: 50, discount_pct: 0 },
      { usd: 5, credits: 275, discount_pct: 10 },
      { usd: 30, credits: 1950, discount_pct: 25 },
      { usd: 200, credits: 16000, discount_pct: 40 },
    ]);
    expect(r.body.verification).toMatchObject({ min_confirmations: 1, amount_tolerance_usd: 0.01, quote_ttl_seconds: 1800 });
    expect(r.body.trial.statement).toBe("agentfeed trial credits request");
    expect(r.body.flow.with_quote.length).toBeGreaterThan(2);
    expect(r.body.flow.x402_fallback.join(" ")).toContain("X-Payment-Quote");
  });

  it("POST /api/payment/buy-credits → transfer → confirm → balance works end to end", async () => {
    const payer = await chain.newWallet(10_000_000n);
    const quote = await call("/api/payment/buy-credits", { body: { amount_usd: 1, sender_wallet: payer.address.toLowerCase() } });
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ ok: true, wallet: publisher, sender_wallet: payer.address, credits: 50, amount_usd: 1, ttl_seconds: 1800, proven: false });
    const hash = await chain.transfer(payer, publisher, 1_000_000n);
    const noNonce = await call("/api/payment/confirm", { body: { tx_hash: hash } });
    expect(noNonce).toMatchObject({ status: 400, body: { ok: false, error: "invalid_body", message: "body nonce: nonce is required: send the memo of the quote from POST /api/payment/buy-credits" } });
    const blank = await call("/api/payment/confirm", { body: { tx_hash: hash, nonce: " " } });
    expect(blank).toMatchObject({ status: 400, body: { ok: false, error: "nonce_required" } });
    const confirmed = await call("/api/payment/confirm", { body: { tx_hash: hash, nonce: quote.body.memo } });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toMatchObject({ ok: true, credits: 100, balance: 100, tx_amount_usd: 1, rate: "base", welcome_bonus_credits: 50, is_first_payment: true });
    const again = await call("/api/payment/confirm", { body: { tx_hash: hash, nonce: quote.body.memo } });
    expect(again).toMatchObject({ status: 409, body: { error: "tx_already_used" } });
    const balance = await call("/api/payment/balance", { bearer: confirmed.body.token });
    expect(balance.status).toBe(200);
    expect(balance.body).toMatchObject({ ok: true, balance: 100, total_purchased: 50, kind: "paid" });
    expect(balance.body.expires_at).toBeUndefined();
    expect(typeof balance.body.created).toBe("string");
  });

  it("POST /api/payment/buy-credits refuses more than 6 decimals, a bad checksum and a missing wallet with 400", async () => {
    const w = "0x52908400098527886E0F7030069857D2E4169EE7";
    const decimals = await call("/api/payment/buy-credits", { raw: `{"amount_usd": 1.0000001, "sender_wallet": "${w}"}` });
    expect(decimals).toMatchObject({ status: 400, body: { error: "invalid_amount" } });
    const checksum = await call("/api/payment/buy-credits", { body: { amount_usd: 1, sender_wallet: w.replace("EE7", "Ee7") } });
    expect(checksum).toMatchObject({ status: 400, body: { error: "invalid_wallet" } });
    const missing = await call("/api/payment/buy-credits", { body: { amount_usd: 1 } });
    expect(missing).toMatchObject({ status: 400, body: { error: "invalid_body" } });
    const low = await call("/api/payment/buy-credits", { body: { amount_usd: 0.4, sender_wallet: w } });
    expect(low.status).toBe(400);
  });

  it("GET /api/payment/balance answers 401 invalid_token without or with an unknown token", async () => {
    expect(await call("/api/payment/balance")).toMatchObject({ status: 401, body: { error: "invalid_token" } });
    expect(await call("/api/payment/balance", { bearer: `afk_${"1".repeat(64)}` })).toMatchObject({ status: 401, body: { error: "invalid_token" } });
    const basic = await call("/api/payment/balance", { authorization: "Basic dXNlcjpwYXNz" });
    expect(basic).toMatchObject({ status: 401, body: { error: "invalid_token", message: expect.stringMatching(/must be "Bearer <token>".*got the Basic scheme$/) } });
    // A confirm with another scheme is refused before anything is checked, not taken as "no token" (which mints one).
    const confirm = await call("/api/payment/confirm", { authorization: "Basic dXNlcjpwYXNz", body: { tx_hash: `0x${"ab".repeat(32)}`, nonce: "0123456789abcdef" } });
    expect(confirm).toMatchObject({ status: 401, body: { error: "invalid_token" } });
  });

  it("POST /api/payment/trial-credits grants a trial token that balance shows with its expiry", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const message = trialMessage({ wallet: wallet.address, timestamp: new Date(), nonce: "00112233445566ff" });
    const signature = await wallet.signMessage({ message });
    const r = await call("/api/payment/trial-credits", { body: { message, signature } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ ok: true, credits: 25, wallet: wallet.address });
    const balance = await call("/api/payment/balance", { bearer: r.body.token });
    expect(balance.body).toMatchObject({ balance: 25, kind: "trial", expires_at: r.body.expires_at });
    const replay = await call("/api/payment/trial-credits", { body: { message, signature } });
    expect(replay).toMatchObject({ status: 409, body: { error: "nonce_used" } });
    const bad = await call("/api/payment/trial-credits", { body: { message, signature: "0x00" } });
    expect(bad).toMatchObject({ status: 400, body: { error: "invalid_signature" } });
  });
});
