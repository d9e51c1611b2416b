/**
 * Concurrent standard x402 `exact` payments settled by this service's own settler account: one account, one
 * nonce sequence. Payments from different payers arriving together must all settle (none may lose a race for the
 * settler's nonce), over real HTTP on the default local test chain and directly against the settlement code,
 * also when one of the settlements fails before it is sent.
 */
import type { PaymentPayload, PaymentRequirements } from "@x402/core/types";
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { ExactEvmScheme } from "@x402/evm";
import { createPublicClient, createWalletClient, getAddress, http, parseAbi, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
import { devAccount, FUNDED_ACCOUNT_INDEXES, PUBLISHER_ACCOUNT_INDEX, startLocalTestChain, testChainDefinition, type LocalTestChain } from "./test-chain/start.ts";
import { localSettler } from "./x402-exact.ts";

type Json = Record<string, any>;
const PAYERS = 8;
/** A charged route on the bundled snapshots (no freshness SLA): one credit. */
const SERIES = "/api/premium/x402-registry/series?from=2026-11-01&to=2026-11-25";
const TOKEN_ABI = parseAbi(["function mint(address to, uint256 value)", "function balanceOf(address) view returns (uint256)"]);

/** Fresh payers (no ETH: the settler pays the gas) holding `units` of the test token each, minted one after another by dev account 1. */
async function freshPayers(rpcUrl: string, token: `0x${string}`, count: number, units: bigint): Promise<PrivateKeyAccount[]> {
  const chain = testChainDefinition(rpcUrl);
  const reader = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: 50 });
  const minter = createWalletClient({ account: devAccount(1), chain, transport: http(rpcUrl) });
  const payers = Array.from({ length: count }, () => privateKeyToAccount(generatePrivateKey()));
  for (const payer of payers) {
    const hash = await minter.writeContract({ address: token, abi: TOKEN_ABI, functionName: "mint", args: [payer.address, units] });
    await reader.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  }
  return payers;
}

const balanceOf = (reader: PublicClient, token: `0x${string}`, who: `0x${string}`) => reader.readContract({ address: token, abi: TOKEN_ABI, functionName: "balanceOf", args: [who] });

describe("concurrent x402 exact payments over HTTP (default local test chain)", () => {
  let temp: TempDatabase | undefined;
  let api: SpawnedApi | undefined;
  beforeAll(async () => {
    temp = await openTempDatabase();
    api = await spawnApi(
      { DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENT_RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "on", X402_SETTLER_PRIVATE_KEY: "", X402_FACILITATOR_URL: "" },
      { timeoutMs: 90_000 },
    );
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await temp?.close();
  });

  it(`${PAYERS} payers paying at once all settle, and the publisher receives exactly ${PAYERS} × the price`, { timeout: 120_000 }, async () => {
    const info = (await (await fetch(`${api!.base}/api/payment/info`)).json()) as Json;
    const rpcUrl = info.test_chain.rpc_url as string;
    const publisher = info.wallet.address as `0x${string}`;
    // The settler is no account payers are given: not a funded dev account, no dev account at all.
    const settler = getAddress(/settler (0x[0-9a-fA-F]{40})/.exec(info.flow.x402_exact.join(" "))![1]!);
    const devAddresses = [PUBLISHER_ACCOUNT_INDEX, ...FUNDED_ACCOUNT_INDEXES].map((i) => devAccount(i).address);
    expect(info.test_chain.funded_accounts).toEqual(FUNDED_ACCOUNT_INDEXES.map((i) => devAccount(i).address));
    expect(devAddresses).not.toContain(settler);

    const challenge = await fetch(`${api!.base}${SERIES}`);
    expect(challenge.status).toBe(402);
    const accepted = (JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString("utf8")) as Json).accepts[0] as PaymentRequirements;
    const price = BigInt(accepted.amount);
    const token = accepted.asset as `0x${string}`;
    const payers = await freshPayers(rpcUrl, token, PAYERS, 10n * price);
    const reader = createPublicClient({ chain: testChainDefinition(rpcUrl), transport: http(rpcUrl) }) as PublicClient;
    const publisherBefore = await balanceOf(reader, token, publisher);
    const settlerNonceBefore = await reader.getTransactionCount({ address: settler });

    const results = await Promise.all(
      payers.map(async (payer) => {
        const pay = wrapFetchWithPaymentFromConfig(fetch, {
          schemes: [{ network: accepted.network, client: new ExactEvmScheme(payer) }],
          spendControls: { allowedAssets: [{ network: accepted.network, asset: token, maxAmountPerPayment: accepted.amount }] },
        });
        const res = await pay(`${api!.base}${SERIES}`);
        const body = (await res.json()) as Json;
        return { status: res.status, body, settlement: res.headers.get("payment-response") };
      }),
    );
    for (const r of results) expect(r.status, JSON.stringify(r.body).slice(0, 300)).toBe(200);
    expect(results.map((r) => r.body.billing.credits_charged)).toEqual(Array(PAYERS).fill(1));
    const settlements = results.map((r) => decodePaymentResponseHeader(r.settlement!));
    expect(settlements.map((s) => s.payer)).toEqual(payers.map((p) => p.address.toLowerCase()));
    expect(new Set(settlements.map((s) => s.transaction)).size).toBe(PAYERS);
    expect(await balanceOf(reader, token, publisher)).toBe(publisherBefore + BigInt(PAYERS) * price);
    for (const payer of payers) expect(await balanceOf(reader, token, payer.address)).toBe(9n * price);
    // One transaction per payment, none stuck behind a gap.
    expect(await reader.getTransactionCount({ address: settler })).toBe(settlerNonceBefore + PAYERS);
    expect(await reader.getTransactionCount({ address: settler, blockTag: "pending" })).toBe(settlerNonceBefore + PAYERS);
  });
});

describe("concurrent settlements through localSettler(), one of them failing before it is sent", () => {
  let chain: LocalTestChain | undefined;
  beforeAll(async () => {
    chain = await startLocalTestChain();
  }, 60_000);
  afterAll(async () => {
    await chain?.stop();
  });

  it("every good payment settles; the doomed one fails without stalling the settler's later transactions", { timeout: 60_000 }, async () => {
    const price = 20_000n;
    const requirements: PaymentRequirements = {
      scheme: "exact",
      network: "eip155:31337",
      asset: chain!.usdc,
      amount: price.toString(),
      payTo: chain!.publisher,
      maxTimeoutSeconds: 300,
      extra: { name: "Test USDC", version: "2" },
    };
    const sign = async (payer: PrivateKeyAccount): Promise<PaymentPayload> => ({ ...(await new ExactEvmScheme(payer).createPaymentPayload(2, requirements)), accepted: requirements });
    const settler = localSettler({ rpcUrl: chain!.rpcUrl, chainId: 31337, account: chain!.settler });
    const reader = createPublicClient({ chain: testChainDefinition(chain!.rpcUrl), transport: http(chain!.rpcUrl) }) as PublicClient;
    const payers = await freshPayers(chain!.rpcUrl, chain!.usdc, PAYERS, price);
    // A payer that signs two payments but can afford one: both verify, only one can move money; the other's
    // transaction fails when it is prepared (the transfer would revert), after the settler's nonce was counted.
    const [short] = await freshPayers(chain!.rpcUrl, chain!.usdc, 1, price);
    const payloads = [...(await Promise.all(payers.map(sign))), await sign(short!), await sign(short!)];
    for (const p of payloads) expect(await settler.verify(p, requirements)).toMatchObject({ isValid: true });
    const publisherBefore = await balanceOf(reader, chain!.usdc, chain!.publisher);

    const results = await Promise.all(payloads.map((p) => settler.settle(p, requirements).catch((err: unknown) => ({ success: false, errorReason: String(err), transaction: "" }))));
    expect(results.slice(0, PAYERS).map((r) => r.success)).toEqual(Array(PAYERS).fill(true));
    expect(results.slice(PAYERS).map((r) => r.success).sort()).toEqual([false, true]);
    expect(await balanceOf(reader, chain!.usdc, chain!.publisher)).toBe(publisherBefore + BigInt(PAYERS + 1) * price);

    // The settler goes on: a later payment settles at once, and no transaction waits behind a gap.
    const [later] = await freshPayers(chain!.rpcUrl, chain!.usdc, 1, price);
    expect(await settler.settle(await sign(later!), requirements)).toMatchObject({ success: true });
    const mined = await reader.getTransactionCount({ address: chain!.settler.address });
    expect(mined).toBe(PAYERS + 2);
    expect(await reader.getTransactionCount({ address: chain!.settler.address, blockTag: "pending" })).toBe(mined);
  });
});
