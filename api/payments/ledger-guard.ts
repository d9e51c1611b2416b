/**
 * Keeps test money out of a real-money ledger: a start on the local test chain records it in payment_chains; a
 * live start refuses a ledger that ran on the test chain while it still holds tokens (their credits may have
 * been bought with test USDC or granted as test trials). A ledger without tokens is cleared and goes live.
 */
import type { Sql } from "../state/types.ts";
import { PaymentConfigError } from "./config.ts";
import { TEST_CHAIN_ID } from "./test-chain/start.ts";

/** Record that this ledger runs payments on the local test chain. */
export async function markTestChainLedger(db: Sql): Promise<void> {
  await db.query("INSERT INTO payment_chains (chain_id, test_chain) VALUES ($1, true) ON CONFLICT (chain_id) DO NOTHING", [TEST_CHAIN_ID]);
}

/** Throw PaymentConfigError when this ledger ran on the test chain and holds tokens; forget the test chain when it holds none. */
export async function refuseTestCreditsOnLive(db: Sql, where: string): Promise<void> {
  const { rows } = await db.query<{ since: Date; tokens: number }>(
    "SELECT min(first_used_at) AS since, (SELECT count(*)::int FROM tokens) AS tokens FROM payment_chains WHERE test_chain HAVING count(*) > 0",
  );
  const used = rows[0];
  if (!used) return;
  if (used.tokens === 0) {
    await db.query("DELETE FROM payment_chains WHERE test_chain");
    return;
  }
  throw new PaymentConfigError(
    `the state database (${where}) ran payments on the local TEST CHAIN (chain ${TEST_CHAIN_ID}) since ${new Date(used.since).toISOString()} and holds ${used.tokens} token(s) whose credits may have been paid in test money; ` +
      "start the real network on a fresh DATA_DIR or DATABASE_URL (see api/payments/README.md)",
  );
}
