/**
 * The settlement indexer against a real local chain (anvil, with the test USDC) and a real Postgres: final blocks
 * only, resumable without duplicates, amounts as integers, and a forced reorg below the cursor rewound and re-read.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { startTestChain, type TestChain } from "../payments/testing/chain.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { indexOnce, type IndexerOptions } from "./indexer.ts";

let chain: TestChain | undefined;
let temp: TempDatabase | undefined;
const payeeA = privateKeyToAccount(generatePrivateKey()).address;
const payeeB = privateKeyToAccount(generatePrivateKey()).address;
const elsewhere = privateKeyToAccount(generatePrivateKey()).address;

beforeAll(async () => {
  [chain, temp] = await Promise.all([startTestChain(), openTempDatabase()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([chain?.stop(), temp?.close()]);
});

const options = (over: Partial<IndexerOptions> = {}): IndexerOptions => ({
  client: chain!.publicClient,
  db: temp!.db as Database,
  chainId: chain!.anvil.chainId,
  token: chain!.usdc,
  wallets: [payeeA, payeeB],
  confirmations: 2,
  batchBlocks: 3,
  startBlock: 0n,
  rewindBlocks: 4,
  ...over,
});
const rows = async () =>
  (await (temp!.db as Database).query<{ to_address: string; amount_units: string; block_number: string }>("SELECT to_address, amount_units::text, block_number::text FROM x402_settlements ORDER BY block_number, log_index")).rows;

describe("indexOnce()", () => {
  it("indexes transfers to the registry's wallets in final blocks only, as integer base units, resumably", async () => {
    const payer = await chain!.newWallet(100_000_000n);
    await chain!.transfer(payer, payeeA, 1_500_000n);
    await chain!.transfer(payer, payeeB, 2_000_000n);
    await chain!.transfer(payer, elsewhere, 3_000_000n);
    await chain!.transfer(payer, payeeA, 250_001n); // the newest block: within the confirmation depth
    await chain!.mine(1);
    const first = await indexOnce(options());
    expect(first.settlements).toBe(2);
    expect((await rows()).map((r) => [r.to_address, r.amount_units])).toEqual([
      [payeeA.toLowerCase(), "1500000"],
      [payeeB.toLowerCase(), "2000000"],
    ]);
    await chain!.mine(2);
    const second = await indexOnce(options());
    expect(second.settlements).toBe(1);
    expect((await rows()).map((r) => r.amount_units)).toEqual(["1500000", "2000000", "250001"]);
    const again = await indexOnce(options());
    expect(again).toMatchObject({ settlements: 0, rewound: 0 });
    expect(await rows()).toHaveLength(3);
  });

  it("rewinds a reorg below its cursor and reads the new fork", async () => {
    const payer = await chain!.newWallet(100_000_000n);
    const fork = await chain!.testClient.snapshot();
    await chain!.transfer(payer, payeeA, 4_000_000n);
    await chain!.mine(3);
    await indexOnce(options());
    expect((await rows()).map((r) => r.amount_units)).toContain("4000000");
    // The chain drops those blocks and grows a longer fork with another transfer.
    await chain!.testClient.revert({ id: fork });
    await chain!.transfer(payer, payeeB, 7_000_000n);
    await chain!.mine(6);
    const after = await indexOnce(options());
    expect(after.rewound).toBeGreaterThan(0);
    const amounts = (await rows()).map((r) => r.amount_units);
    expect(amounts).not.toContain("4000000");
    expect(amounts).toContain("7000000");
    expect(amounts.filter((a) => a === "7000000")).toHaveLength(1);
    // The daily totals follow the rewind and the re-read.
    const { rows: daily } = await (temp!.db as Database).query<{ to_address: string; volume: string; count: number }>(
      "SELECT to_address, sum(volume_units)::text AS volume, sum(count)::int AS count FROM x402_settlements_daily GROUP BY 1 ORDER BY 1",
    );
    const { rows: raw } = await (temp!.db as Database).query<{ to_address: string; volume: string; count: number }>(
      "SELECT to_address, sum(amount_units)::text AS volume, count(*)::int AS count FROM x402_settlements WHERE amount_units > 0 GROUP BY 1 ORDER BY 1",
    );
    expect(daily).toEqual(raw);
  });

  it("records where coverage starts and the time of the block it reached; passes racing on one database store each transfer once", async () => {
    const payer = await chain!.newWallet(100_000_000n);
    for (let i = 0; i < 4; i++) await chain!.transfer(payer, payeeA, 1_000n + BigInt(i));
    await chain!.mine(3);
    const before = (await rows()).length;
    const results = await Promise.all([indexOnce(options({ batchBlocks: 1 })), indexOnce(options({ batchBlocks: 1 })), indexOnce(options({ batchBlocks: 2 }))]);
    expect(results.reduce((a, r) => a + r.settlements, 0)).toBe(4);
    const after = await rows();
    expect(after).toHaveLength(before + 4);
    expect(new Set(after.map((r) => `${r.block_number}|${r.amount_units}`)).size).toBe(after.length);
    const { rows: cursor } = await (temp!.db as Database).query<{ block_number: string; block_time: Date; first_block: string; first_block_time: Date }>(
      "SELECT block_number::text, block_time, first_block::text, first_block_time FROM x402_index_cursor WHERE chain_id = $1",
      [chain!.anvil.chainId],
    );
    const head = await chain!.publicClient.getBlock({ blockTag: "latest" });
    expect(BigInt(cursor[0]!.block_number)).toBe(head.number - 2n);
    const final = await chain!.publicClient.getBlock({ blockNumber: head.number - 2n });
    expect(cursor[0]!.block_time.getTime()).toBe(Number(final.timestamp) * 1000);
    expect(cursor[0]!.first_block).toBe("0");
    const genesis = await chain!.publicClient.getBlock({ blockNumber: 0n });
    expect(cursor[0]!.first_block_time.getTime()).toBe(Number(genesis.timestamp) * 1000);
  });

  it("does nothing before the chain has a final block, and nothing for an empty registry", async () => {
    expect(await indexOnce(options({ confirmations: 1_000_000 }))).toEqual({ indexedTo: null, blocks: 0, settlements: 0, rewound: 0 });
    const none = await indexOnce(options({ wallets: [], chainId: 31337 }));
    expect(none.settlements).toBe(0);
  });
});
