/**
 * Settings of the settlement indexer, from the environment. The chain, its RPC endpoint and the token are the
 * payments' own (BASE_RPC_URL, CHAIN_ID, USDC_ADDRESS, or the local test chain): the index reads the chain the
 * service is paid on. These tune it, make an instance only read what another one indexes, or turn it off.
 */
import { z } from "zod";
import { envIssueLine } from "../config-issue.ts";

const EnvSchema = z.object({
  X402_INDEX: z.enum(["on", "read", "off"]).default("on"),
  X402_INDEX_CONFIRMATIONS: z.coerce.number().int().min(0).max(10_000).default(12),
  X402_INDEX_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(30),
  X402_INDEX_BATCH_BLOCKS: z.coerce.number().int().min(1).max(100_000).default(10_000),
  X402_INDEX_START_BLOCK: z.coerce.bigint().nonnegative().optional(),
});

/** The indexer's settings. */
export interface X402IndexConfig {
  /**
   * on: index (when payments have a chain) and serve the index; read: serve the index another instance sharing
   * the database (DATABASE_URL) keeps, for CHAIN_ID and USDC_ADDRESS, without indexing; off: neither.
   */
  mode: "on" | "read" | "off";
  /** Blocks below the head that count as final (Base makes one every 2 s: 12 is about 24 s). */
  confirmations: number;
  intervalMs: number;
  batchBlocks: number;
  /** First block when the index is empty (default: the chain's current final block, forward-only). */
  startBlock: bigint | undefined;
}

/** Read the indexer settings; a value that cannot be used throws one clear line. */
export function loadX402IndexConfig(env: Record<string, string | undefined> = process.env): X402IndexConfig {
  const parsed = EnvSchema.safeParse({
    X402_INDEX: env.X402_INDEX?.trim().toLowerCase() || undefined,
    X402_INDEX_CONFIRMATIONS: env.X402_INDEX_CONFIRMATIONS?.trim() || undefined,
    X402_INDEX_INTERVAL_SECONDS: env.X402_INDEX_INTERVAL_SECONDS?.trim() || undefined,
    X402_INDEX_BATCH_BLOCKS: env.X402_INDEX_BATCH_BLOCKS?.trim() || undefined,
    X402_INDEX_START_BLOCK: env.X402_INDEX_START_BLOCK?.trim() || undefined,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`x402 index config: ${issue ? envIssueLine(issue, env) : "invalid"}`);
  }
  const e = parsed.data;
  return {
    mode: e.X402_INDEX,
    confirmations: e.X402_INDEX_CONFIRMATIONS,
    intervalMs: e.X402_INDEX_INTERVAL_SECONDS * 1000,
    batchBlocks: e.X402_INDEX_BATCH_BLOCKS,
    startBlock: e.X402_INDEX_START_BLOCK,
  };
}
