/** How payment answers name the network: "base" on the real network, a loud TEST MONEY label on the local test chain. */
import type { PaymentConfig } from "./config.ts";
import { TEST_CHAIN_ID, TEST_TOKEN } from "./test-chain/start.ts";


/** The `network` of /api/payment/info and of quotes on the local test chain. */
export const TEST_NETWORK_LABEL = "anvil-local (chain id 31337) — TEST MONEY, not Base";
/** The values `network` takes. */
export const NETWORK_LABELS = ["base", TEST_NETWORK_LABEL] as const;
/** One sentence every test-chain answer carries. */
export const TEST_CHAIN_WARNING = `TEST CHAIN: this instance takes payments on a local anvil chain (chain id ${TEST_CHAIN_ID}) in ${TEST_TOKEN.name} (${TEST_TOKEN.symbol}), which is TEST MONEY worth nothing — never send real USDC or use Base (chain id 8453) for it.`;

/** The network name for `config`: "base", or the test-chain label. */
export function networkLabel(config: Pick<PaymentConfig, "testChain">): (typeof NETWORK_LABELS)[number] {
  return config.testChain ? TEST_NETWORK_LABEL : "base";
}

/** How a transfer is described in instructions: "USDC on Base" or "Test USDC (tUSDC) on the local test chain 31337". */
export function currencyOnNetwork(config: Pick<PaymentConfig, "testChain" | "chainId">): string {
  return config.testChain
    ? `${TEST_TOKEN.name} (${TEST_TOKEN.symbol}, TEST MONEY) on the local test chain (chain id ${config.chainId}, not Base)`
    : "USDC on Base";
}
