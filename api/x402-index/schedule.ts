/**
 * The indexer's periodic pass inside the server: every interval, the registry's wallets on the chain are read
 * again from the warehouse (a wallet the weekly crawl adds is indexed from then on) and one pass runs. Passes
 * never overlap; a failed pass is reported and the next one tries again.
 */
import type { PublicClient } from "viem";
import type { Database } from "../state/types.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";
import type { X402IndexConfig } from "./config.ts";
import { indexOnce, type PassResult } from "./indexer.ts";
import { chainRegistry, registryWallets } from "./reads.ts";

export interface SettlementIndexingOptions {
  db: Database;
  client: PublicClient;
  chainId: number;
  token: `0x${string}`;
  warehouse: WarehouseReader;
  config: Pick<X402IndexConfig, "confirmations" | "intervalMs" | "batchBlocks" | "startBlock">;
  onWarn?: (message: string) => void;
  onPass?: (result: PassResult & { wallets: number }) => void;
}

/** The running indexer: run a pass now (tests, start), stop and wait for the pass under way. */
export interface SettlementIndexing {
  runNow(): Promise<void>;
  stop(): Promise<void>;
}

/** Start indexing: a first pass at once, then one every interval. */
export function startSettlementIndexing(o: SettlementIndexingOptions): SettlementIndexing {
  let running: Promise<void> | null = null;
  let stopped = false;
  const pass = async () => {
    const wallets = registryWallets(await chainRegistry(o.warehouse, o.chainId));
    const result = await indexOnce({
      client: o.client,
      db: o.db,
      chainId: o.chainId,
      token: o.token,
      wallets,
      confirmations: o.config.confirmations,
      batchBlocks: o.config.batchBlocks,
      ...(o.config.startBlock !== undefined ? { startBlock: o.config.startBlock } : {}),
    });
    o.onPass?.({ ...result, wallets: wallets.length });
  };
  const runNow = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    running ??= pass()
      .catch((err: unknown) => o.onWarn?.(`x402 settlement index pass failed: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}`))
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void runNow(), o.config.intervalMs);
  timer.unref();
  void runNow();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
