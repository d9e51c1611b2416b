/**
 * The test USDC's EIP-3009 transferWithAuthorization on anvil: both call forms (v, r, s and a bytes signature)
 * move the authorized amount once, under the token's EIP-712 domain (its name, version "2"); a reused nonce, a
 * signature by someone else and an expired authorization are refused.
 */
import { createWalletClient, http, parseSignature, toHex, type PrivateKeyAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestChain, type TestChain } from "../testing/chain.ts";
import { compileTestUsdc } from "../testing/compile.ts";

let chain: TestChain | undefined;
beforeAll(async () => {
  chain = await startTestChain();
}, 120_000);
afterAll(async () => {
  await chain?.stop();
});

const { abi } = compileTestUsdc();
const TYPES = {
  TransferWithAuthorization: [
    { name: "from", type: "address" },
    { name: "to", type: "address" },
    { name: "value", type: "uint256" },
    { name: "validAfter", type: "uint256" },
    { name: "validBefore", type: "uint256" },
    { name: "nonce", type: "bytes32" },
  ],
} as const;

async function authorize(signer: PrivateKeyAccount, from: `0x${string}`, to: `0x${string}`, value: bigint, validBefore?: bigint) {
  const now = BigInt(Math.floor((await chain!.latestTime()).getTime() / 1000));
  const message = { from, to, value, validAfter: 0n, validBefore: validBefore ?? now + 600n, nonce: toHex(crypto.getRandomValues(new Uint8Array(32))) };
  const name = (await chain!.publicClient.readContract({ address: chain!.usdc, abi, functionName: "name" })) as string;
  const signature = await signer.signTypedData({ domain: { name, version: "2", chainId: chain!.anvil.chainId, verifyingContract: chain!.usdc }, types: TYPES, primaryType: "TransferWithAuthorization", message });
  return { message, signature };
}

const balance = (who: `0x${string}`) => chain!.publicClient.readContract({ address: chain!.usdc, abi, functionName: "balanceOf", args: [who] }) as Promise<bigint>;

describe("TestUSDC transferWithAuthorization (EIP-3009)", () => {
  it("moves the amount once in the (v, r, s) form and in the bytes form, with version 2", async () => {
    const payer = await chain!.newWallet(5_000_000n);
    const settler = await chain!.newWallet();
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const wallet = createWalletClient({ account: settler, transport: http(chain!.anvil.rpcUrl) });
    expect(await chain!.publicClient.readContract({ address: chain!.usdc, abi, functionName: "version" })).toBe("2");

    const first = await authorize(payer, payer.address, payee, 1_000_000n);
    const { v, r, s } = parseSignature(first.signature);
    const m1 = first.message;
    await chain!.publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({ chain: null, address: chain!.usdc, abi, functionName: "transferWithAuthorization", args: [m1.from, m1.to, m1.value, m1.validAfter, m1.validBefore, m1.nonce, Number(v), r, s] }),
    });
    const second = await authorize(payer, payer.address, payee, 250_000n);
    const m2 = second.message;
    await chain!.publicClient.waitForTransactionReceipt({
      hash: await wallet.writeContract({ chain: null, address: chain!.usdc, abi, functionName: "transferWithAuthorization", args: [m2.from, m2.to, m2.value, m2.validAfter, m2.validBefore, m2.nonce, second.signature] }),
    });
    expect(await balance(payee)).toBe(1_250_000n);
    expect(await balance(payer.address)).toBe(3_750_000n);
    expect(await chain!.publicClient.readContract({ address: chain!.usdc, abi, functionName: "authorizationState", args: [payer.address, m1.nonce] })).toBe(true);

    // The same authorization again: refused.
    await expect(
      chain!.publicClient.simulateContract({ account: settler, address: chain!.usdc, abi, functionName: "transferWithAuthorization", args: [m2.from, m2.to, m2.value, m2.validAfter, m2.validBefore, m2.nonce, second.signature] }),
    ).rejects.toThrow(/authorization is used/);
  });

  it("refuses a signature by another key and an expired authorization", async () => {
    const payer = await chain!.newWallet(5_000_000n);
    const thief = privateKeyToAccount(generatePrivateKey());
    const payee = privateKeyToAccount(generatePrivateKey()).address;
    const forged = await authorize(thief, payer.address, payee, 1_000_000n);
    const f = forged.message;
    await expect(
      chain!.publicClient.simulateContract({ account: payer, address: chain!.usdc, abi, functionName: "transferWithAuthorization", args: [f.from, f.to, f.value, f.validAfter, f.validBefore, f.nonce, forged.signature] }),
    ).rejects.toThrow(/invalid signature/);
    const late = await authorize(payer, payer.address, payee, 1_000_000n, 1n);
    const l = late.message;
    await expect(
      chain!.publicClient.simulateContract({ account: payer, address: chain!.usdc, abi, functionName: "transferWithAuthorization", args: [l.from, l.to, l.value, l.validAfter, l.validBefore, l.nonce, late.signature] }),
    ).rejects.toThrow(/expired/);
  });
});
