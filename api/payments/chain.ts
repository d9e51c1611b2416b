/** The read-only chain access payments need, over viem's public client (JSON-RPC to BASE_RPC_URL). */
import { createPublicClient, http, type PublicClient } from "viem";

/** What confirm reads from the chain; a viem PublicClient satisfies it. */
export type ChainReader = Pick<PublicClient, "getChainId" | "getTransactionReceipt" | "getTransaction" | "getBlock" | "getBlockNumber">;

/** A public client for the configured RPC endpoint (10 s timeout, 2 retries). */
export function createChainReader(rpcUrl: string): ChainReader {
  return createPublicClient({ transport: http(rpcUrl, { timeout: 10_000, retryCount: 2 }) });
}
