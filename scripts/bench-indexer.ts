/**
 * `npm run bench:indexer`: how fast the x402 settlement indexer (api/x402-index/indexer.ts) catches up. Starts a
 * local chain (anvil, with the test USDC) and a throwaway Postgres, spreads BENCH_TRANSFERS transfers (default 200)
 * to BENCH_WALLETS registry wallets (default 20) and as many to other addresses over BENCH_BLOCKS blocks (default
 * 20,000: anvil 1.7.1 mines only 25 to 40 empty blocks a second on 2 cores, so building 100,000 takes most of an
 * hour; set BENCH_BLOCKS=100000 for the full run), then times one catch-up from block 0 (10,000 blocks per getLogs, 12 confirmations),
 * prints the time 100,000 blocks take at that rate, and checks every transfer to a registry wallet was indexed
 * exactly once. Target: 100,000 blocks in ≤ 60 s.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startTestChain } from "../api/payments/testing/chain.ts";
import { openTempDatabase } from "../api/state/testing/temp-database.ts";
import type { Database } from "../api/state/types.ts";
import { indexOnce } from "../api/x402-index/indexer.ts";

const int = (name: string, fallback: number) => {
  const n = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive integer`);
  return n;
};
const blocks = int("BENCH_BLOCKS", 20_000);
const transfers = int("BENCH_TRANSFERS", 200);
const walletCount = int("BENCH_WALLETS", 20);
/** Blocks per anvil_mine call. */
const MINE_CHUNK = 100;

const [chain, temp] = await Promise.all([startTestChain(), openTempDatabase()]);
try {
  const wallets = Array.from({ length: walletCount }, () => privateKeyToAccount(generatePrivateKey()).address);
  const payer = await chain.newWallet(BigInt(transfers) * 2_000_000n);
  const step = Math.max(1, Math.floor(blocks / transfers));
  let sent = 0n;
  const t0 = performance.now();
  for (let i = 0; i < transfers; i++) {
    await chain.transfer(payer, wallets[i % walletCount]!, 1_000_000n + BigInt(i));
    await chain.transfer(payer, privateKeyToAccount(generatePrivateKey()).address, 5n);
    sent += 1_000_000n + BigInt(i);
    // In chunks: one anvil_mine of many blocks can outlast the RPC client's time-out on a loaded machine.
    for (let left = step; left > 0; left -= MINE_CHUNK) await chain.mine(Math.min(MINE_CHUNK, left));
  }
  const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
  process.stdout.write(`bench:indexer — ${head} blocks on anvil, ${transfers} transfers to ${walletCount} registry wallets and ${transfers} elsewhere (built in ${((performance.now() - t0) / 1000).toFixed(1)} s)\n`);

  const t1 = performance.now();
  const pass = await indexOnce({ client: chain.publicClient, db: temp.db as Database, chainId: chain.anvil.chainId, token: chain.usdc, wallets, confirmations: 12, batchBlocks: 10_000, startBlock: 0n });
  const seconds = (performance.now() - t1) / 1000;
  const { rows } = await (temp.db as Database).query<{ n: string; total: string }>("SELECT count(*)::text AS n, coalesce(sum(amount_units), 0)::text AS total FROM x402_settlements");
  process.stdout.write(`catch-up: ${pass.blocks} blocks, ${pass.settlements} settlements in ${seconds.toFixed(2)} s (${Math.round(pass.blocks / seconds)} blocks/s: 100,000 blocks in ${((100_000 / pass.blocks) * seconds).toFixed(1)} s at this rate; target ≤ 60 s)\n`);
  process.stdout.write(`indexed ${rows[0]!.n} settlements totalling ${rows[0]!.total} base units; sent ${transfers} totalling ${sent}\n`);
  if (rows[0]!.n !== String(transfers) || rows[0]!.total !== sent.toString()) {
    process.stdout.write("mismatch: the index does not hold every registry transfer exactly once\n");
    process.exitCode = 1;
  }
} finally {
  await Promise.all([chain.stop(), temp.close()]);
}
