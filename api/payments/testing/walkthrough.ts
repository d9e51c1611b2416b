/**
 * The whole paid path across real processes: a local chain (anvil) with a 6-decimal test USDC, the API
 * server as a child process configured against it (embedded Postgres in a temp DATA_DIR, fresh snapshots
 * from a replay run), and a client that walks quote → USDC transfer → confirm → premium call → receipt
 * verification, then the x402 one-off retry and the trial grant. `npm run demo:pay` prints each step; the
 * end-to-end test asserts on what it returns.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createWalletClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { trialMessage } from "../trial-message.ts";
import { startTestChain, paymentEnvFor } from "./chain.ts";
import { freePort } from "../../testing/free-port.ts";
import { spawnApi, type SpawnedApi } from "../../testing/spawn-api.ts";
// Every answer is checked against the OpenAPI document (operation, status, headers, body).
import { contractFetch as fetch } from "../../testing/openapi-contract.ts";
import type { SnapshotBuilder } from "../../testing/snapshot-builder.ts";

/** Snapshot types the premium endpoints read; refreshed by a replay run so they are within their SLAs. */
const PREMIUM_INPUTS = ["news", "status", "pricing", "benchmarks"] as const;

/** What the walkthrough saw, for the test to check. */
export interface WalkthroughResult {
  publisherWallet: string;
  infoWallet: string;
  llmsTxtNamesWallet: boolean;
  quote: { memo: string; credits: number; wallet: string };
  confirm: { credits: number; balance: number; is_first_payment?: boolean; welcome_bonus_credits?: number };
  premium: { status: number; credits_charged: number; credits_remaining: number; recommendations: number };
  receiptValid: boolean;
  tamperedReceiptValid: boolean;
  balanceAfter: number;
  x402: { challengeStatus: number; challengeHeaderNetwork: string; retryStatus: number; tokenIssued: boolean; charged: number };
  trial: { credits: number; expires_at: string };
}



async function json(res: Response): Promise<Record<string, any>> {
  const text = await res.text();
  try {
    return JSON.parse(text) as Record<string, any>;
  } catch {
    throw new Error(`expected JSON from ${res.url} (${res.status}), got: ${text.slice(0, 200)}`);
  }
}

function expectOk(step: string, res: Response, body: Record<string, any>): void {
  if (!res.ok) throw new Error(`${step}: ${res.status} ${JSON.stringify(body)}`);
}

/** Run the walkthrough on the snapshots `buildSnapshots` writes; `log` receives one line per step. */
export async function runPaymentWalkthrough(buildSnapshots: SnapshotBuilder, log: (line: string) => void = () => {}): Promise<WalkthroughResult> {
  const work = await mkdtemp(join(tmpdir(), "agentfeed-walkthrough-"));
  const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-walkthrough-state-"));
  const chain = await startTestChain();
  let server: SpawnedApi | undefined;
  try {
    log(`chain: anvil at ${chain.anvil.rpcUrl} (chain id ${chain.anvil.chainId}), test USDC at ${chain.usdc}`);
    const publisher = privateKeyToAccount(generatePrivateKey());
    log(`publisher wallet: ${publisher.address}`);

    const snapshotsDir = join(work, "snapshots");
    log(`snapshots: replay run of ${await buildSnapshots(snapshotsDir, PREMIUM_INPUTS)}`);

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    server = await spawnApi({
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      SNAPSHOTS_DIR: snapshotsDir,
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      RECEIPT_SIGNING_KEY: "",
      ...paymentEnvFor(chain, publisher.address),
      RATE_LIMIT_PER_MINUTE: "0",
    });
    log(`server: ${base} (embedded Postgres in ${dataDir})`);

    // 1. The wallet check: info and llms.txt name the same publisher wallet.
    const info = await json(await fetch(`${base}/api/payment/info`));
    const llms = await (await fetch(`${base}/llms.txt`)).text();
    log(`info: pay ${info.wallet.currency} on ${info.wallet.network} to ${info.wallet.address}; llms.txt agrees: ${llms.includes(info.wallet.address)}`);

    // 2. Quote.
    const payer = await chain.newWallet(10_000_000n);
    log(`payer wallet: ${payer.address} holding 10.00 test USDC`);
    let res = await fetch(`${base}/api/payment/buy-credits`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount_usd: 5, sender_wallet: payer.address }),
    });
    const quote = await json(res);
    expectOk("buy-credits", res, quote);
    log(`quote: ${quote.amount_usd} USD → ${quote.credits} credits, memo ${quote.memo}, pay ${quote.wallet} before ${quote.expires_at}`);

    // 3. Transfer and confirm.
    const tx = await chain.transfer(payer, quote.wallet as `0x${string}`, 5_000_000n);
    await chain.mine(1);
    log(`transfer: 5.000000 USDC in ${tx}`);
    res = await fetch(`${base}/api/payment/confirm`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ tx_hash: tx, nonce: quote.memo }),
    });
    const confirm = await json(res);
    expectOk("confirm", res, confirm);
    const token = confirm.token as string;
    log(`confirm: ${confirm.credits} credits (first payment bonus ${confirm.welcome_bonus_credits ?? 0}), balance ${confirm.balance}, token ${token.slice(0, 10)}…`);

    // 4. A premium call with the token, and its receipt.
    res = await fetch(`${base}/api/premium/routing?task=code&top_n=3`, { headers: { authorization: `Bearer ${token}` } });
    const routing = await json(res);
    expectOk("premium routing", res, routing);
    log(`premium: ${routing.recommendations.length} recommendations, top ${routing.recommendations[0]?.model.id}; charged ${routing.billing.credits_charged}, remaining ${routing.billing.credits_remaining}`);
    const verify = async (receipt: unknown, response: unknown) =>
      json(await fetch(`${base}/api/receipt/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ receipt, response }) }));
    const verified = await verify(routing.receipt, routing);
    const tampered = await verify(routing.receipt, { ...routing, task: "general" });
    log(`receipt ${routing.receipt.id}: valid ${verified.valid}; with a changed response: valid ${tampered.valid}`);
    const balance = await json(await fetch(`${base}/api/payment/balance`, { headers: { authorization: `Bearer ${token}` } }));
    log(`balance: ${balance.balance} credits (purchased ${balance.total_purchased})`);

    // 5. x402: no token → 402 with PAYMENT-REQUIRED, then pay a quote and retry with the payment headers.
    const path = "/api/premium/cost/projection?model=gpt-4o,claude-sonnet-4&input_tokens_per_day=1000000&output_tokens_per_day=200000";
    const challenge = await fetch(base + path);
    const header = JSON.parse(Buffer.from(challenge.headers.get("payment-required") ?? "", "base64").toString("utf8")) as {
      accepts: { network: string; amount: string; payTo: string }[];
    };
    log(`x402: ${challenge.status}, accepts ${header.accepts[0]?.amount} units on ${header.accepts[0]?.network} to ${header.accepts[0]?.payTo}`);
    const oneOff = await chain.newWallet(1_000_000n);
    res = await fetch(`${base}/api/payment/buy-credits`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amount_usd: 1, sender_wallet: oneOff.address }),
    });
    const oneOffQuote = await json(res);
    expectOk("x402 quote", res, oneOffQuote);
    const oneOffTx = await chain.transfer(oneOff, oneOffQuote.wallet as `0x${string}`, 1_000_000n);
    await chain.mine(1);
    const retry = await fetch(base + path, { headers: { "x-payment-tx": oneOffTx, "x-payment-quote": oneOffQuote.memo } });
    const retryBody = await json(retry);
    log(`x402 retry: ${retry.status}, new token ${retry.headers.get("x-payment-token") ? "issued" : "missing"}, charged ${retryBody.billing?.credits_charged}, remaining ${retryBody.billing?.credits_remaining}`);

    // 6. Trial credits: a wallet signature, no transaction.
    const trialWallet = privateKeyToAccount(generatePrivateKey());
    const message = trialMessage({ wallet: trialWallet.address, timestamp: new Date(), nonce: randomBytes(8).toString("hex") });
    const signature = await createWalletClient({ account: trialWallet, transport: http(chain.anvil.rpcUrl) }).signMessage({ message });
    res = await fetch(`${base}/api/payment/trial-credits`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message, signature }),
    });
    const trial = await json(res);
    expectOk("trial", res, trial);
    log(`trial: ${trial.credits} credits for ${trial.wallet}, expires ${trial.expires_at}`);

    return {
      publisherWallet: publisher.address,
      infoWallet: info.wallet.address,
      llmsTxtNamesWallet: llms.includes(publisher.address),
      quote: { memo: quote.memo, credits: quote.credits, wallet: quote.wallet },
      confirm: {
        credits: confirm.credits,
        balance: confirm.balance,
        ...(confirm.is_first_payment !== undefined ? { is_first_payment: confirm.is_first_payment } : {}),
        ...(confirm.welcome_bonus_credits !== undefined ? { welcome_bonus_credits: confirm.welcome_bonus_credits } : {}),
      },
      premium: {
        status: 200,
        credits_charged: routing.billing.credits_charged,
        credits_remaining: routing.billing.credits_remaining,
        recommendations: routing.recommendations.length,
      },
      receiptValid: verified.valid,
      tamperedReceiptValid: tampered.valid,
      balanceAfter: balance.balance,
      x402: {
        challengeStatus: challenge.status,
        challengeHeaderNetwork: header.accepts[0]?.network ?? "",
        retryStatus: retry.status,
        tokenIssued: Boolean(retry.headers.get("x-payment-token")),
        charged: retryBody.billing?.credits_charged ?? -1,
      },
      trial: { credits: trial.credits, expires_at: trial.expires_at },
    };
  } finally {
    await server?.stop();
    await chain.stop();
    await rm(work, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
