/**
 * The typed client against real processes: anvil with Test USDC and the API server (embedded Postgres) on
 * replayed snapshots. A free call, a premium call without a token (402), credits bought through the payment
 * helpers (quote → Test USDC transfer → confirm), the premium call charged with the kept token, trial credits
 * signed with a viem account, and an x402 retry whose new token the client keeps.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replaySnapshots } from "../../../scripts/lib/replay-snapshots.ts";
import { paymentEnvFor, startTestChain, type TestChain } from "../../../api/payments/testing/chain.ts";
import { spawnApi, type SpawnedApi } from "../../../api/testing/spawn-api.ts";
import { AgentfeedError, createAgentfeedClient, x402Headers } from "./index.ts";

let chain: TestChain | undefined;
let api: SpawnedApi | undefined;
const dirs: string[] = [];

beforeAll(async () => {
  const snapshots = await mkdtemp(join(tmpdir(), "agentfeed-client-e2e-"));
  const data = await mkdtemp(join(tmpdir(), "agentfeed-client-e2e-state-"));
  dirs.push(snapshots, data);
  chain = await startTestChain();
  await replaySnapshots(snapshots, ["news", "status", "pricing", "benchmarks", "gpu-pricing", "probe", "model-deprecations"]);
  api = await spawnApi({ SNAPSHOTS_DIR: snapshots, DATA_DIR: data, DATABASE_URL: "", RATE_LIMIT_PER_MINUTE: "0", ...paymentEnvFor(chain, privateKeyToAccount(generatePrivateKey()).address) });
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await chain?.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

describe("@agentfeed/client", () => {
  it("calls free and premium routes with typed answers and pays through its helpers", { timeout: 120_000 }, async () => {
    const client = createAgentfeedClient({ baseUrl: `${api!.base}/` });

    const cheapest = await client.GET("/api/gpu/pricing/cheapest", { params: { query: { gpu: "H100" } } });
    expect(cheapest.response.status).toBe(200);
    expect(cheapest.data?.offers.length).toBeGreaterThan(0);

    const unpaid = await client.GET("/api/premium/route-verdict", { params: { query: { task: "code" } } });
    expect(unpaid.response.status).toBe(402);
    expect(unpaid.data).toBeUndefined();

    // Quote → Test USDC transfer → confirm: the client keeps the token.
    const payer = await chain!.newWallet(2_000_000n);
    const quote = await client.payments.quote({ amountUsd: 1, senderWallet: payer.address });
    const tx = await chain!.transfer(payer, quote.wallet as `0x${string}`, 1_000_000n);
    await chain!.mine(1);
    const confirmed = await client.payments.confirm({ txHash: tx, memo: quote.memo });
    expect(client.token).toBe(confirmed.token);
    const before = (await client.payments.balance()).balance;

    const paid = await client.GET("/api/premium/route-verdict", { params: { query: { task: "code" } } });
    expect(paid.response.status).toBe(200);
    expect(paid.data?.query.task).toBe("code");
    expect(paid.data?.billing.credits_charged).toBe(1);
    expect((await client.payments.balance()).balance).toBe(before - 1);

    // A payment helper answers an error as AgentfeedError with the service's status and body.
    await expect(client.payments.quote({ amountUsd: 0.01, senderWallet: payer.address })).rejects.toBeInstanceOf(AgentfeedError);

    // Trial credits, signed with a viem account.
    const trialClient = createAgentfeedClient({ baseUrl: api!.base });
    const trial = await trialClient.payments.trial(privateKeyToAccount(generatePrivateKey()));
    expect(trial.credits).toBeGreaterThan(0);
    expect(trialClient.token).toBe(trial.token);

    // x402: pay a quote, retry with the payment headers; the client keeps the token the answer issues.
    const oneOff = createAgentfeedClient({ baseUrl: api!.base });
    const wallet = await chain!.newWallet(1_000_000n);
    const q = await oneOff.payments.quote({ amountUsd: 1, senderWallet: wallet.address });
    const paidTx = await chain!.transfer(wallet, q.wallet as `0x${string}`, 1_000_000n);
    await chain!.mine(1);
    const retried = await oneOff.GET("/api/premium/route-verdict", { params: { query: { task: "general" } }, headers: x402Headers({ txHash: paidTx, memo: q.memo }) });
    expect(retried.response.status).toBe(200);
    expect(oneOff.token).toMatch(/^afk_/);
  });
});
