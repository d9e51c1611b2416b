/** Payment deps for tests: a temp database, the real credit ledger, and a config pointing at a test chain. */
import { createCredits } from "../../billing/credits.ts";
import type { TempDatabase } from "../../state/testing/temp-database.ts";
import { createChainReader } from "../chain.ts";
import { loadPaymentConfig, type PaymentConfig } from "../config.ts";
import type { PaymentDeps } from "../deps.ts";
import { sanctionsList, type SanctionsList } from "../sanctions.ts";

/** A test clock: `set` pins it, `reset` returns to the wall clock. */
export interface TestClock {
  now(): Date;
  set(date: Date): void;
  reset(): void;
}

/** A clock tests can pin. */
export function testClock(): TestClock {
  let pinned: Date | undefined;
  return { now: () => (pinned ? new Date(pinned) : new Date()), set: (d) => (pinned = d), reset: () => (pinned = undefined) };
}

/** Deps over an open temp database; `env` overrides the payment settings. */
export function testPaymentDeps(
  temp: TempDatabase,
  options: { rpcUrl: string; usdc?: string; publisher: string; env?: Record<string, string>; sanctions?: SanctionsList; clock?: TestClock },
): PaymentDeps & { config: PaymentConfig } {
  const config = loadPaymentConfig({
    BASE_RPC_URL: options.rpcUrl,
    PUBLISHER_WALLET: options.publisher,
    CHAIN_ID: "8453",
    MIN_CONFIRMATIONS: "1",
    ...(options.usdc ? { USDC_ADDRESS: options.usdc } : {}),
    ...options.env,
  });
  return {
    db: temp.db,
    credits: createCredits(temp.db),
    config,
    chain: config.rpcUrl ? createChainReader(config.rpcUrl) : undefined,
    sanctions: options.sanctions ?? sanctionsList([], "test"),
    now: options.clock?.now,
  };
}
