/**
 * Payments at server start: decide the mode (mode.ts), start the local test chain when that is the mode, wire
 * the payment deps against it or the real network, and describe the result in one line for the start banner.
 * The caller stops it with the server: that stops the test chain's anvil.
 */
import type { Credits, Database } from "../state/types.ts";
import { BASE_CHAIN_ID, loadPaymentConfig, PaymentConfigError, type PaymentConfig } from "./config.ts";
import type { PaymentDeps } from "./deps.ts";
import { markTestChainLedger, refuseTestCreditsOnLive } from "./ledger-guard.ts";
import { decidePaymentMode } from "./mode.ts";
import { setupPayments } from "./setup.ts";
import { findAnvil } from "./test-chain/anvil.ts";
import { FUNDED_UNITS, startLocalTestChain, TEST_CHAIN_ID, TEST_TOKEN, type LocalTestChain } from "./test-chain/start.ts";

/** Payments as started: their deps, the mode, one banner line, and how to stop them. */
export interface StartedPayments {
  deps: PaymentDeps;
  mode: "live" | "test-chain" | "off";
  /** For the start banner's `payments:` line: `TEST CHAIN anvil 127.0.0.1:PORT chain 31337 …`, `live on Base mainnet (chain 8453) …` or `off (reason …)`. */
  line: string;
  /** Stops the test chain, if one runs. */
  stop(): Promise<void>;
}

/** Start payments for a server over `db` and `credits`; `env` defaults to process.env. */
export async function startPayments(input: {
  db: Database;
  credits: Credits;
  env?: Record<string, string | undefined>;
  /** The server's configured public base URL, if any (blocks the automatic test chain). */
  publicBaseUrl?: string;
}): Promise<StartedPayments> {
  const env = input.env ?? process.env;
  // Every payment setting is checked whatever the mode: on the test chain some are replaced by the chain's own,
  // and a typo would otherwise surface only on the day the instance moves to the real network.
  loadPaymentConfig(env);
  const decision = decidePaymentMode(env, input.publicBaseUrl);
  const base = { db: input.db, credits: input.credits };

  if (decision.kind === "live") {
    await refuseTestCreditsOnLive(input.db, input.db.where);
    const deps = await setupPayments({ ...base, env });
    return { deps, mode: "live", line: describeLive(deps.config), stop: async () => {} };
  }

  let reason = decision.kind === "off" ? decision.reason : "";
  if (decision.kind === "test-chain") {
    const anvil = findAnvil(env);
    if (!anvil.found) reason = `no local test chain: ${anvil.reason}`;
    else {
      let chain: LocalTestChain | undefined;
      try {
        chain = await startLocalTestChain({ anvilBin: anvil.path });
      } catch (err) {
        reason = `the local test chain did not start: ${(err as Error).message.split("\n")[0]}`;
      }
      if (chain) {
        try {
          return await onTestChain(chain, base, env, decision.why);
        } catch (err) {
          await chain.stop();
          throw err;
        }
      }
    }
    // Asked for explicitly, a test chain that cannot run is a configuration to fix, not a mode to fall back from.
    if (decision.forced) throw new PaymentConfigError(`payment config: PAYMENTS_TEST_CHAIN=on, but ${reason}`);
  }
  const deps = await setupPayments({ ...base, env });
  return { deps, mode: "off", line: `off (${reason}; payment routes answer 503 payments_not_configured)`, stop: async () => {} };
}

/** Payment deps against a started local test chain (its token, publisher and chain id replace the env's). */
async function onTestChain(
  chain: LocalTestChain,
  base: { db: Database; credits: Credits },
  env: Record<string, string | undefined>,
  why: string,
): Promise<StartedPayments> {
  const deps = await setupPayments({
    ...base,
    env: {
      ...env,
      BASE_RPC_URL: chain.rpcUrl,
      PUBLISHER_WALLET: chain.publisher,
      USDC_ADDRESS: chain.usdc,
      CHAIN_ID: String(TEST_CHAIN_ID),
      // anvil mines each transaction at once; one block is all a test payment can get.
      MIN_CONFIRMATIONS: env.MIN_CONFIRMATIONS?.trim() || "1",
    },
  });
  await markTestChainLedger(base.db);
  deps.config.testChain = { rpcUrl: chain.rpcUrl, fundedAccounts: chain.funded, fundedUnits: FUNDED_UNITS, settler: chain.settler };
  const line =
    `TEST CHAIN anvil ${chain.rpcUrl.replace("http://", "")} chain ${TEST_CHAIN_ID} — TEST MONEY, not Base: ${TEST_TOKEN.name} (${TEST_TOKEN.symbol}) ${chain.usdc}, ` +
    `publisher ${chain.publisher} (anvil dev account 0); the chain starts empty at every start${why === "PAYMENTS_TEST_CHAIN=on" ? " (PAYMENTS_TEST_CHAIN=on)" : ""}`;
  return { deps, mode: "test-chain", line, stop: () => chain.stop() };
}

/** The line of a live network: which chain (Base mainnet says REAL USDC), the recipient, the token and the RPC host (never its path, which may hold a key). */
function describeLive(config: PaymentConfig): string {
  const network = config.chainId === BASE_CHAIN_ID ? "Base mainnet (chain 8453), REAL USDC" : `chain ${config.chainId}`;
  let rpcHost = "the configured RPC";
  try {
    rpcHost = new URL(config.rpcUrl ?? "").host;
  } catch {
    // loadPaymentConfig already checked the URL
  }
  return `live on ${network}, paid to ${config.publisherWallet}, token ${config.usdcAddress}, RPC ${rpcHost}`;
}
