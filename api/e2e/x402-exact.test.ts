/**
 * Standard x402 `exact` payments over real HTTP: the official x402 client (@x402/fetch with @x402/evm's exact
 * scheme) reads our 402, signs an EIP-3009 authorization with the payer's key and retries; the API process settles
 * it on a local chain (anvil, test USDC with EIP-3009) with its settler key, only when the call is charged.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { x402Facilitator } from "@x402/core/facilitator";
import { decodePaymentResponseHeader, wrapFetchWithPaymentFromConfig } from "@x402/fetch";
import { ExactEvmScheme, toFacilitatorEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/facilitator";
import { createWalletClient, http, parseEther, parseAbi, publicActions } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { devAccount } from "../payments/test-chain/start.ts";
import { paymentEnvFor, startTestChain, type TestChain } from "../payments/testing/chain.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

type Json = Record<string, any>;
const PRICE = 20_000n; // one credit, USDC base units
const SERIES = "/api/premium/x402-registry/series?from=2026-11-01&to=2026-11-25";

let chain: TestChain | undefined;
let temp: TempDatabase | undefined;
let api: SpawnedApi | undefined;
let payer: PrivateKeyAccount | undefined;
let viaFacilitator: SpawnedApi | undefined;
let facilitatorServer: Server | undefined;
const facilitatorCalls: string[] = [];
const publisher = privateKeyToAccount(generatePrivateKey()).address;
const settlerKey = generatePrivateKey();

beforeAll(async () => {
  [chain, temp] = await Promise.all([startTestChain(), openTempDatabase()]);
  await chain.testClient.setBalance({ address: privateKeyToAccount(settlerKey).address, value: parseEther("10") });
  payer = await chain.newWallet(1_000_000n);
  api = await spawnApi({ DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENT_RATE_LIMIT_PER_MINUTE: "0", ...paymentEnvFor(chain, publisher), X402_SETTLER_PRIVATE_KEY: settlerKey });

  // A facilitator over HTTP (x402's own facilitator with its exact EVM scheme, its own gas account), and a second
  // API process on the same database that settles through it (X402_FACILITATOR_URL).
  const facilitatorAccount = privateKeyToAccount(generatePrivateKey());
  await chain.testClient.setBalance({ address: facilitatorAccount.address, value: parseEther("10") });
  const wallet = createWalletClient({ account: facilitatorAccount, chain: chain.publicClient.chain!, transport: http(chain.anvil.rpcUrl) }).extend(publicActions);
  const facilitator = registerExactEvmScheme(new x402Facilitator(), {
    signer: toFacilitatorEvmSigner({ ...(wallet as unknown as Parameters<typeof toFacilitatorEvmSigner>[0]), address: facilitatorAccount.address }),
    networks: "eip155:8453",
  });
  facilitatorServer = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString("utf8")));
    req.on("end", () => {
      void (async () => {
        const body = JSON.parse(raw) as Json;
        facilitatorCalls.push(req.url ?? "");
        const answer = req.url === "/verify" ? await facilitator.verify(body.paymentPayload, body.paymentRequirements) : await facilitator.settle(body.paymentPayload, body.paymentRequirements);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v)));
      })().catch((err: unknown) => res.writeHead(500).end(String(err)));
    });
  });
  await new Promise<void>((ok) => facilitatorServer!.listen(0, "127.0.0.1", ok));
  const port = (facilitatorServer.address() as AddressInfo).port;
  viaFacilitator = await spawnApi({ DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENT_RATE_LIMIT_PER_MINUTE: "0", ...paymentEnvFor(chain, publisher), X402_FACILITATOR_URL: `http://127.0.0.1:${port}` });
}, 180_000);

afterAll(async () => {
  await Promise.all([api?.stop(), viaFacilitator?.stop()]);
  await new Promise((ok) => (facilitatorServer ? facilitatorServer.close(ok) : ok(undefined)));
  await Promise.all([chain?.stop(), temp?.close()]);
});

const balance = (who: `0x${string}`) =>
  chain!.publicClient.readContract({ address: chain!.usdc, abi: parseAbi(["function balanceOf(address) view returns (uint256)"]), functionName: "balanceOf", args: [who] });

/** The official client, paying from `payer`; every request's PAYMENT-SIGNATURE is recorded. */
function payingFetch(sent: string[] = []) {
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input as ConstructorParameters<typeof Request>[0], init);
    const signature = request.headers.get("payment-signature");
    if (signature) sent.push(signature);
    return fetch(request);
  };
  // The test USDC is not one of the client's default assets: allow it, capped at one cent.
  return wrapFetchWithPaymentFromConfig(recording, {
    schemes: [{ network: "eip155:8453", client: new ExactEvmScheme(payer!) }],
    spendControls: { allowedAssets: [{ network: "eip155:8453", asset: chain!.usdc, maxAmountPerPayment: "100000" }] },
  });
}

describe("standard x402 exact payments", () => {
  it("the 402 offers the exact scheme with the token's EIP-712 name and version", async () => {
    const res = await fetch(`${api!.base}/api/premium/routing`);
    expect(res.status).toBe(402);
    const required = JSON.parse(Buffer.from(res.headers.get("payment-required")!, "base64").toString("utf8")) as Json;
    expect(required.accepts[0]).toMatchObject({ scheme: "exact", network: "eip155:8453", amount: PRICE.toString(), payTo: publisher, extra: { name: "Test USD Coin", version: "2" } });
    expect(required.error).toMatch(/PAYMENT-SIGNATURE/);
    const info = (await (await fetch(`${api!.base}/api/payment/info`)).json()) as Json;
    expect(info.flow.x402_exact.join(" ")).toMatch(/settled by this service \(settler 0x/);
  });

  it("pays a call: the data, a receipt, the settlement answer, and the price moved from payer to publisher once", async () => {
    const [payerBefore, publisherBefore] = await Promise.all([balance(payer!.address), balance(publisher)]);
    const sent: string[] = [];
    // A route without a freshness SLA, so the bundled (replay) snapshots are charged: the registry series.
    const res = await payingFetch(sent)(`${api!.base}${SERIES}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Json;
    expect(body.points.some((p: Json) => p.has_data)).toBe(true);
    expect(body.billing, JSON.stringify(body.billing)).toMatchObject({ credits_charged: 1 });
    expect(body.receipt.signed.credits_charged).toBe(1);
    const settlement = decodePaymentResponseHeader(res.headers.get("payment-response")!);
    expect(settlement).toMatchObject({ success: true, network: "eip155:8453", payer: payer!.address.toLowerCase() });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(res.headers.get("x-payment-token")).toMatch(/^afk_/);
    expect(await balance(publisher)).toBe(publisherBefore + PRICE);
    expect(await balance(payer!.address)).toBe(payerBefore - PRICE);
    // The ledger: a purchase of one credit and its charge, on a token of the payer.
    const { rows } = await (temp!.db as Database).query<{ status: string; tx_hash: string }>("SELECT status, tx_hash FROM x402_exact_payments");
    expect(rows).toEqual([{ status: "settled", tx_hash: settlement.transaction }]);

    // The same signed payment again: refused, nothing moves.
    expect(sent).toHaveLength(1);
    const again = await fetch(`${api!.base}${SERIES}`, { headers: { "payment-signature": sent[0]! } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as Json).error).toBe("payment_already_used");
    expect(await balance(publisher)).toBe(publisherBefore + PRICE);
  });

  it("a bad parameter after payment is a 400 and nothing moves on chain; an uncharged outcome settles nothing either", async () => {
    const [payerBefore, publisherBefore] = await Promise.all([balance(payer!.address), balance(publisher)]);
    const bad = await payingFetch()(`${api!.base}/api/premium/x402-registry/series?from=2026-11-25&to=2026-11-01`);
    expect(bad.status).toBe(400);
    expect(bad.headers.get("payment-response")).toBeNull();
    // A no-charge outcome (stale data against the routing SLA): served, nothing settled.
    const free = await payingFetch()(`${api!.base}/api/premium/routing?task=code`);
    expect(free.status).toBe(200);
    expect(((await free.json()) as Json).billing).toMatchObject({ credits_charged: 0, no_charge_reason: "stale_data" });
    expect(free.headers.get("payment-response")).toBeNull();
    expect(await balance(publisher)).toBe(publisherBefore);
    expect(await balance(payer!.address)).toBe(payerBefore);
    const { rows } = await (temp!.db as Database).query<{ n: number }>("SELECT count(*)::int AS n FROM x402_exact_payments WHERE status = 'pending'");
    expect(rows[0]!.n).toBe(0);
  });

  it("refuses a payment for less than the price, one made for another call, and a header that is not a payment, before running anything", async () => {
    const sent: string[] = [];
    await payingFetch(sent)(`${api!.base}/api/premium/routing?task=reasoning`);
    const payload = JSON.parse(Buffer.from(sent[0]!, "base64").toString("utf8")) as Json;
    payload.accepted.amount = "1";
    const cheap = await fetch(`${api!.base}/api/premium/routing?task=general`, { headers: { "payment-signature": Buffer.from(JSON.stringify(payload)).toString("base64") } });
    expect(cheap.status).toBe(402);
    expect(((await cheap.json()) as Json).error).toBe("payment_mismatch");
    // The untouched payment was made for task=reasoning (and left unspent: stale data charges nothing); it does not pay task=general.
    const elsewhere = await fetch(`${api!.base}/api/premium/routing?task=general`, { headers: { "payment-signature": sent[0]! } });
    expect(elsewhere.status).toBe(402);
    expect((await elsewhere.json()) as Json).toMatchObject({ error: "payment_mismatch", message: expect.stringMatching(/made for another resource \(http:\/\/[^/]+\/api\/premium\/routing\?task=reasoning\)/) });
    const same = await fetch(`${api!.base}/api/premium/routing?task=reasoning`, { headers: { "payment-signature": sent[0]! } });
    expect(same.status).toBe(200);
    const garbage = await fetch(`${api!.base}/api/premium/routing`, { headers: { "payment-signature": "not base64 json" } });
    expect(garbage.status).toBe(400);
    expect(((await garbage.json()) as Json).error).toBe("invalid_payment_signature");
  });
});

describe("standard x402 exact payments through a facilitator (X402_FACILITATOR_URL)", () => {
  it("verifies and settles through the facilitator's HTTP API, only for a charged call", async () => {
    const publisherBefore = await balance(publisher);
    const bad = await payingFetch()(`${viaFacilitator!.base}/api/premium/x402-registry/series?from=2026-11-25&to=2026-11-01`);
    expect(bad.status).toBe(400);
    expect(facilitatorCalls.filter((c) => c === "/settle")).toHaveLength(0);
    const res = await payingFetch()(`${viaFacilitator!.base}${SERIES}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).billing.credits_charged).toBe(1);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({ success: true, network: "eip155:8453" });
    expect(facilitatorCalls).toEqual(["/verify", "/verify", "/settle"]);
    expect(await balance(publisher)).toBe(publisherBefore + PRICE);
  });
});

describe("standard x402 exact payments on the default local test chain", () => {
  let local: SpawnedApi | undefined;
  let db: TempDatabase | undefined;
  afterAll(async () => {
    await local?.stop();
    await db?.close();
  });

  it("a fresh start on the test chain takes an exact payment from a funded dev account, settled by the chain's own settler", { timeout: 120_000 }, async () => {
    db = await openTempDatabase();
    local = await spawnApi({ DATABASE_URL: db.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENT_RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "on", X402_SETTLER_PRIVATE_KEY: "", X402_FACILITATOR_URL: "" });
    const challenge = await fetch(`${local.base}${SERIES}`);
    const required = JSON.parse(Buffer.from(challenge.headers.get("payment-required")!, "base64").toString("utf8")) as Json;
    expect(required.accepts[0]).toMatchObject({ scheme: "exact", network: "eip155:31337", extra: { name: "Test USDC", version: "2" } });
    const pay = wrapFetchWithPaymentFromConfig(fetch, {
      schemes: [{ network: "eip155:31337", client: new ExactEvmScheme(devAccount(1)) }],
      spendControls: { allowedAssets: [{ network: "eip155:31337", asset: required.accepts[0].asset, maxAmountPerPayment: "100000" }] },
    });
    const res = await pay(`${local.base}${SERIES}`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as Json).billing.credits_charged).toBe(1);
    expect(decodePaymentResponseHeader(res.headers.get("payment-response")!)).toMatchObject({ success: true, network: "eip155:31337" });
  });
});
