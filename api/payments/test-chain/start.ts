/**
 * The local test chain `npm start` runs when no payment network is configured: anvil on 127.0.0.1 with chain id
 * 31337 (never Base's 8453), the committed TestUSDC ("Test USDC", tUSDC, 6 decimals) deployed by a throwaway
 * key, dev account 0 as the publisher wallet, and 1,000 tUSDC minted to each of dev accounts 1–9 so a newcomer
 * can buy credits with them. Standard x402 `exact` payments are settled by a throwaway account of its own (test
 * ETH only, its key never leaves this process): a settler whose key is public, such as a dev account, would race
 * anyone paying from that account for its nonce. Everything lives in anvil's memory: it is gone when the server
 * stops. The token gets a new address at every start (random deployer), so no payment transaction of a fresh
 * chain can repeat the hash of one an earlier run already confirmed.
 */
import { createPublicClient, createTestClient, createWalletClient, defineChain, getAddress, http, parseEther } from "viem";
import { generatePrivateKey, mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { startAnvil, type Anvil } from "./anvil.ts";
import { TEST_USDC_ABI, TEST_USDC_BYTECODE } from "./test-usdc-artifact.ts";

/** Chain id of the local test chain (anvil's default; Base mainnet is 8453). */
export const TEST_CHAIN_ID = 31337;
/** The token's name and symbol on the test chain. */
export const TEST_TOKEN = { name: "Test USDC", symbol: "tUSDC", decimals: 6 } as const;
/** anvil's well-known development mnemonic: its accounts are public knowledge and hold only test money. */
export const DEV_MNEMONIC = "test test test test test test test test test test test junk";
/** Dev accounts (by index) that get test USDC at deploy. */
export const FUNDED_ACCOUNT_INDEXES = [1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
/** Test ETH given to the settler of exact payments, for gas. */
export const SETTLER_ETH = parseEther("1000");
/** Test USDC minted to each funded account: 1,000.000000 tUSDC in base units. */
export const FUNDED_UNITS = 1_000_000_000n;
/** Index of the dev account that receives payments (the publisher wallet). */
export const PUBLISHER_ACCOUNT_INDEX = 0;

/** The dev account at `index` of {@link DEV_MNEMONIC} (a local account that signs with its key). */
export function devAccount(index: number) {
  return mnemonicToAccount(DEV_MNEMONIC, { addressIndex: index });
}

/** The viem chain definition of a test chain at `rpcUrl`. */
export function testChainDefinition(rpcUrl: string) {
  return defineChain({
    id: TEST_CHAIN_ID,
    name: "anvil-local test chain (TEST MONEY)",
    nativeCurrency: { name: "Test Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    testnet: true,
  });
}

/** A running local test chain. */
export interface LocalTestChain {
  anvil: Anvil;
  rpcUrl: string;
  /** The test USDC contract. */
  usdc: `0x${string}`;
  /** Publisher wallet: dev account 0. */
  publisher: `0x${string}`;
  /** Dev accounts holding {@link FUNDED_UNITS} tUSDC each. */
  funded: `0x${string}`[];
  /** A throwaway account with test ETH that settles x402 exact payments; no dev account, never listed for payers. */
  settler: PrivateKeyAccount;
  stop(): Promise<void>;
}

/** Start anvil, deploy the test USDC and fund the dev accounts; anvil is stopped again if any step fails. */
export async function startLocalTestChain(options: { anvilBin?: string } = {}): Promise<LocalTestChain> {
  const anvil = await startAnvil({ chainId: TEST_CHAIN_ID, ...(options.anvilBin ? { bin: options.anvilBin } : {}) });
  try {
    const chain = testChainDefinition(anvil.rpcUrl);
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 });
    const deployer = privateKeyToAccount(generatePrivateKey());
    const settler = privateKeyToAccount(generatePrivateKey());
    const testClient = createTestClient({ chain, transport, mode: "anvil" });
    await testClient.setBalance({ address: deployer.address, value: parseEther("1") });
    await testClient.setBalance({ address: settler.address, value: SETTLER_ETH });
    const wallet = createWalletClient({ account: deployer, chain, transport });
    const deployTx = await wallet.deployContract({ abi: TEST_USDC_ABI, bytecode: TEST_USDC_BYTECODE, args: [TEST_TOKEN.name, TEST_TOKEN.symbol] });
    const deployed = await publicClient.waitForTransactionReceipt({ hash: deployTx, pollingInterval: 50 });
    if (deployed.status !== "success" || !deployed.contractAddress) throw new Error(`test chain: deploying ${TEST_TOKEN.symbol} failed (tx ${deployTx})`);
    const usdc = getAddress(deployed.contractAddress);
    const funded = FUNDED_ACCOUNT_INDEXES.map((i) => devAccount(i).address);
    // Sequential nonces from one sender; wait for the last one only.
    let last: `0x${string}` | undefined;
    for (const address of funded) {
      last = await wallet.writeContract({ address: usdc, abi: TEST_USDC_ABI, functionName: "mint", args: [address, FUNDED_UNITS] });
    }
    if (last) await publicClient.waitForTransactionReceipt({ hash: last, pollingInterval: 50 });
    return { anvil, rpcUrl: anvil.rpcUrl, usdc, publisher: devAccount(PUBLISHER_ACCOUNT_INDEX).address, funded, settler, stop: () => anvil.stop() };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
