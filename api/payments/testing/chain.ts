/**
 * A test chain for payments: anvil plus two deployed 6-decimal tokens (a stand-in USDC and a second token to
 * test wrong_token), and helpers that fund fresh wallets and send real signed transfers.
 */
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  http,
  parseEther,
  type PublicClient,
  type TestClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { startAnvil, type Anvil } from "./anvil.ts";
import { compileTestUsdc } from "./compile.ts";

/** A running test chain with its tokens. */
export interface TestChain {
  anvil: Anvil;
  publicClient: PublicClient;
  testClient: TestClient;
  /** The stand-in USDC (configure it as USDC_ADDRESS). */
  usdc: `0x${string}`;
  /** Another 6-decimal token, for wrong_token. */
  otherToken: `0x${string}`;
  /** A fresh account with ETH for gas and `units` of `token` (USDC by default). */
  newWallet(units?: bigint, token?: `0x${string}`): Promise<PrivateKeyAccount>;
  /** Send `units` of `token` from `from` to `to`; returns the tx hash once mined (or sent, when automine is off). */
  transfer(from: PrivateKeyAccount, to: `0x${string}`, units: bigint, options?: { token?: `0x${string}`; gas?: bigint }): Promise<`0x${string}`>;
  /** Mine `blocks` empty blocks. */
  mine(blocks: number): Promise<void>;
  /** Timestamp of the latest block. */
  latestTime(): Promise<Date>;
  stop(): Promise<void>;
}

/** The payment settings of an API process that takes payments on `chain` for `publisherWallet` (one confirmation). */
export function paymentEnvFor(chain: TestChain, publisherWallet: `0x${string}`): Record<string, string> {
  return {
    BASE_RPC_URL: chain.anvil.rpcUrl,
    CHAIN_ID: String(chain.anvil.chainId),
    USDC_ADDRESS: chain.usdc,
    PUBLISHER_WALLET: publisherWallet,
    MIN_CONFIRMATIONS: "1",
  };
}

/** Start anvil (chain id 8453), deploy the two tokens, and return the helpers. */
export async function startTestChain(): Promise<TestChain> {
  const anvil = await startAnvil({ chainId: 8453 });
  try {
    const chain = defineChain({
      id: anvil.chainId,
      name: "anvil (base chain id)",
      nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    });
    const transport = http(anvil.rpcUrl);
    const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 }) as PublicClient;
    const testClient = createTestClient({ chain, transport, mode: "anvil" }) as unknown as TestClient;
    const { abi, bytecode } = compileTestUsdc();

    const fund = async (address: `0x${string}`) => testClient.setBalance({ address, value: parseEther("10") });
    const mined = async (hash: `0x${string}`) => publicClient.waitForTransactionReceipt({ hash, pollingInterval: 50 });

    const deployer = privateKeyToAccount(generatePrivateKey());
    await fund(deployer.address);
    const deployerClient = createWalletClient({ account: deployer, chain, transport });
    const deploy = async (name: string, symbol: string) => {
      const receipt = await mined(await deployerClient.deployContract({ abi, bytecode, args: [name, symbol] }));
      if (!receipt.contractAddress) throw new Error(`test chain: deploying ${symbol} gave no contract address`);
      return receipt.contractAddress;
    };
    const usdc = await deploy("Test USD Coin", "USDC");
    const otherToken = await deploy("Other Test Token", "OTT");

    const transfer: TestChain["transfer"] = async (from, to, units, options = {}) => {
      const client = createWalletClient({ account: from, chain, transport });
      const hash = await client.writeContract({
        address: options.token ?? usdc,
        abi,
        functionName: "transfer",
        args: [to, units],
        ...(options.gas ? { gas: options.gas } : {}),
      });
      const automine = await testClient.getAutomine();
      if (automine) await mined(hash);
      return hash;
    };

    return {
      anvil,
      publicClient,
      testClient,
      usdc,
      otherToken,
      async newWallet(units = 0n, token = usdc) {
        const account = privateKeyToAccount(generatePrivateKey());
        await fund(account.address);
        if (units > 0n) await mined(await deployerClient.writeContract({ address: token, abi, functionName: "mint", args: [account.address, units] }));
        return account;
      },
      transfer,
      async mine(blocks) {
        await testClient.mine({ blocks });
      },
      async latestTime() {
        const block = await publicClient.getBlock({ blockTag: "latest" });
        return new Date(Number(block.timestamp) * 1000);
      },
      stop: () => anvil.stop(),
    };
  } catch (err) {
    await anvil.stop();
    throw err;
  }
}
