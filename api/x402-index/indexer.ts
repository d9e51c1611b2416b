/**
 * The x402 settlement indexer: ERC-20 Transfer logs of one token (USDC) to the publisher registry's wallets, read
 * with viem's getLogs in bounded block ranges and stored in Postgres (x402_settlements), resumable from the last
 * indexed block (x402_index_cursor).
 *
 * - Only final blocks are indexed: at most `head - confirmations`. A reorg shallower than that depth never reaches
 *   the index.
 * - A deeper reorg is noticed on the next pass: the cursor's block hash no longer matches the chain's block at that
 *   height. The index is then rewound `rewindBlocks` below it, and further while the newest settlement kept is on a
 *   block the chain no longer has (settlements above deleted, in the same transaction as the new cursor); those
 *   blocks are read again.
 * - Each range commits its settlements and the new cursor in one transaction: a crash between ranges loses
 *   nothing and repeats nothing (settlements are keyed by chain, tx hash and log index).
 * - Amounts stay integers in base units (bigint in memory, numeric in Postgres).
 */
import { getAddress, parseAbiItem, type PublicClient } from "viem";
import type { Database, Sql } from "../state/types.ts";

const TRANSFER = parseAbiItem("event Transfer(address indexed from, address indexed to, uint256 value)");

export interface IndexerOptions {
  client: PublicClient;
  db: Database;
  chainId: number;
  /** The token contract (USDC). */
  token: `0x${string}`;
  /** Payee wallets to index (the publisher registry's); empty: nothing to read. */
  wallets: readonly string[];
  /** Blocks below the head that count as final (default 12). */
  confirmations?: number;
  /** Blocks per getLogs request (default 10,000). */
  batchBlocks?: number;
  /** First block to index when there is no cursor yet (default: the current final block, forward-only). */
  startBlock?: bigint;
  /** How far below a mismatched cursor to rewind (default 64 blocks). */
  rewindBlocks?: number;
  /** Wallets per getLogs request at most (the `to` topic list; default 100). */
  walletsPerRequest?: number;
}

export interface PassResult {
  /** Final block the index reached (null when the chain has no final block yet). */
  indexedTo: bigint | null;
  blocks: number;
  settlements: number;
  /** Blocks rewound after a reorg below the cursor (0 without one). */
  rewound: number;
}

interface Cursor {
  block: bigint;
  hash: string;
  /** The block's time (null on a row written before the column existed). */
  time: Date | null;
}

async function readCursor(sql: Sql, chainId: number, lock = false): Promise<Cursor | null> {
  const { rows } = await sql.query<{ block_number: string; block_hash: string; block_time: Date | null }>(
    `SELECT block_number, block_hash, block_time FROM x402_index_cursor WHERE chain_id = $1${lock ? " FOR UPDATE" : ""}`,
    [chainId],
  );
  return rows[0] ? { block: BigInt(rows[0].block_number), hash: rows[0].block_hash, time: rows[0].block_time } : null;
}

/**
 * Move the cursor. The first write also records where coverage starts (`first`); later writes keep it. Returns
 * false, writing nothing, when the cursor is no longer at `expected` (another process sharing the database
 * indexed meanwhile): this pass stops and leaves the range to it.
 */
async function moveCursor(sql: Sql, chainId: number, expected: bigint | null, cursor: Cursor, first: { block: bigint; time: Date }): Promise<boolean> {
  const now = await readCursor(sql, chainId, true);
  if ((now?.block ?? null) !== expected) return false;
  await sql.query(
    `INSERT INTO x402_index_cursor (chain_id, block_number, block_hash, block_time, first_block, first_block_time, updated_at) VALUES ($1, $2, $3, $4, $5, $6, now())
     ON CONFLICT (chain_id) DO UPDATE SET block_number = EXCLUDED.block_number, block_hash = EXCLUDED.block_hash, block_time = EXCLUDED.block_time,
       first_block = COALESCE(x402_index_cursor.first_block, EXCLUDED.first_block), first_block_time = COALESCE(x402_index_cursor.first_block_time, EXCLUDED.first_block_time), updated_at = now()`,
    [chainId, cursor.block.toString(), cursor.hash.toLowerCase(), cursor.time?.toISOString() ?? null, first.block.toString(), first.time.toISOString()],
  );
  return true;
}

const timeOf = (block: { timestamp: bigint }) => new Date(Number(block.timestamp) * 1000);

/**
 * Recompute x402_settlements_daily for the UTC `days` (YYYY-MM-DD) of chain `chainId` from the settlements stored:
 * called in the transaction that inserted or deleted settlements of those days, so the totals always match them.
 */
export async function refreshDailyTotals(sql: Sql, chainId: number, days: readonly string[]): Promise<void> {
  if (days.length === 0) return;
  const sorted = [...new Set(days)].sort();
  await sql.query("DELETE FROM x402_settlements_daily WHERE chain_id = $1 AND day = ANY($2::date[])", [chainId, sorted]);
  await sql.query(
    `INSERT INTO x402_settlements_daily (chain_id, token, to_address, day, volume_units, count)
     SELECT chain_id, token, to_address, (block_time AT TIME ZONE 'UTC')::date AS day, sum(amount_units), count(*) FROM x402_settlements
     WHERE chain_id = $1 AND amount_units > 0 AND block_time >= $2::date AT TIME ZONE 'UTC' AND block_time < ($3::date + 1) AT TIME ZONE 'UTC'
       AND (block_time AT TIME ZONE 'UTC')::date = ANY($4::date[])
     GROUP BY 1, 2, 3, 4`,
    [chainId, sorted[0], sorted.at(-1), sorted],
  );
}

const dayOf = (time: Date) => time.toISOString().slice(0, 10);

/** One indexing pass: rewind after a reorg below the cursor, then read every final block past it. */
export async function indexOnce(o: IndexerOptions): Promise<PassResult> {
  const confirmations = BigInt(o.confirmations ?? 12);
  const batch = BigInt(o.batchBlocks ?? 10_000);
  const rewindBlocks = BigInt(o.rewindBlocks ?? 64);
  const perRequest = o.walletsPerRequest ?? 100;
  const wallets = [...new Set(o.wallets.map((w) => getAddress(w)))];
  const head = await o.client.getBlockNumber({ cacheTime: 0 });
  const final = head - confirmations;
  if (final < 0n) return { indexedTo: null, blocks: 0, settlements: 0, rewound: 0 };

  let cursor = await readCursor(o.db, o.chainId);
  let rewound = 0;
  if (cursor) {
    const onChain = cursor.block <= head ? await o.client.getBlock({ blockNumber: cursor.block }).catch(() => null) : null;
    if (!onChain || onChain.hash?.toLowerCase() !== cursor.hash) {
      // The chain no longer has the block the index ended on: rewind below it and read again. Further down, the
      // newest kept settlement must still be on the chain (same block hash); if not, rewind below that one too.
      let to = cursor.block > rewindBlocks ? cursor.block - rewindBlocks : 0n;
      for (;;) {
        const { rows } = await o.db.query<{ block_number: string; block_hash: string }>(
          "SELECT block_number, block_hash FROM x402_settlements WHERE chain_id = $1 AND block_number <= $2 ORDER BY block_number DESC LIMIT 1",
          [o.chainId, to.toString()],
        );
        const kept = rows[0];
        if (!kept) break;
        const still = await o.client.getBlock({ blockNumber: BigInt(kept.block_number) });
        if (still.hash?.toLowerCase() === kept.block_hash) break;
        to = BigInt(kept.block_number) - 1n;
      }
      const block = await o.client.getBlock({ blockNumber: to });
      const next = { block: to, hash: block.hash!.toLowerCase(), time: timeOf(block) };
      const moved = await o.db.transaction(async (tx) => {
        if (!(await moveCursor(tx, o.chainId, cursor!.block, next, { block: to, time: timeOf(block) }))) return false;
        const { rows: gone } = await tx.query<{ block_time: Date }>("DELETE FROM x402_settlements WHERE chain_id = $1 AND block_number > $2 RETURNING block_time", [o.chainId, to.toString()]);
        await refreshDailyTotals(tx, o.chainId, gone.map((g) => dayOf(g.block_time)));
        return true;
      });
      if (!moved) return { indexedTo: null, blocks: 0, settlements: 0, rewound: 0 };
      rewound = Number(cursor.block - to);
      cursor = next;
    }
  }

  let settlements = 0;
  // Without a cursor the index starts at startBlock (default: the current final block: forward-only).
  let from = cursor ? cursor.block + 1n : (o.startBlock ?? final);
  const firstFrom = from;
  const first = { block: from, time: from <= final ? timeOf(await o.client.getBlock({ blockNumber: from })) : new Date(0) };
  let expected = cursor ? cursor.block : null;
  const times = new Map<bigint, Date>();
  while (from <= final) {
    const to = from + batch - 1n > final ? final : from + batch - 1n;
    const read = (chunk: `0x${string}`[]) => o.client.getLogs({ address: o.token, event: TRANSFER, args: { to: chunk }, fromBlock: from, toBlock: to, strict: true });
    const logs: Awaited<ReturnType<typeof read>> = [];
    for (let i = 0; i < wallets.length; i += perRequest) logs.push(...(await read(wallets.slice(i, i + perRequest) as `0x${string}`[])));
    for (const log of logs) {
      if (!times.has(log.blockNumber)) times.set(log.blockNumber, timeOf(await o.client.getBlock({ blockNumber: log.blockNumber })));
    }
    const end = await o.client.getBlock({ blockNumber: to });
    const moved = await o.db.transaction(async (tx) => {
      if (!(await moveCursor(tx, o.chainId, expected, { block: to, hash: end.hash!.toLowerCase(), time: timeOf(end) }, first))) return false;
      for (const log of logs) {
        await tx.query(
          `INSERT INTO x402_settlements (chain_id, block_number, block_hash, block_time, tx_hash, log_index, token, from_address, to_address, amount_units)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT (chain_id, tx_hash, log_index) DO NOTHING`,
          [o.chainId, log.blockNumber.toString(), log.blockHash.toLowerCase(), times.get(log.blockNumber)!.toISOString(), log.transactionHash.toLowerCase(), log.logIndex, o.token.toLowerCase(), log.args.from.toLowerCase(), log.args.to.toLowerCase(), log.args.value.toString()],
        );
      }
      await refreshDailyTotals(tx, o.chainId, logs.map((log) => dayOf(times.get(log.blockNumber)!)));
      return true;
    });
    if (!moved) return { indexedTo: expected, blocks: Number(expected !== null && expected >= firstFrom ? expected - firstFrom + 1n : 0n), settlements, rewound };
    settlements += logs.length;
    expected = to;
    from = to + 1n;
  }
  return { indexedTo: final, blocks: Number(final - firstFrom + 1n > 0n ? final - firstFrom + 1n : 0n), settlements, rewound };
}
