/**
 * What the settlement routes and the indexer read: the publisher registry's wallets on the indexed chain (from the
 * warehouse table x402_publishers_daily) and the indexed settlements to them (Postgres x402_settlements), summed per
 * wallet over a time range or per UTC day. Zero-value transfers are not payments (address-poisoning spam sends
 * them) and are never counted. Amounts stay integers: sums come back as text and become bigint. Daily figures come
 * from x402_settlements_daily, which the indexer keeps in step with the settlements.
 */
import type { Sql } from "../state/types.ts";
import type { WarehouseReader } from "../warehouse/reader-contract.ts";

/** One registered publisher on the indexed chain. */
export interface RegisteredPublisher {
  domain: string;
  /** Checksummed wallets, in the order the registry first saw them. */
  wallets: string[];
  /** First crawl day (YYYY-MM-DD) any of its wallets on this chain was seen. */
  firstSeen: string;
}

/** The registry as the settlement reads use it. */
export interface ChainRegistry {
  /** CAIP-2 id of the chain (eip155:8453). */
  network: string;
  publishers: Map<string, RegisteredPublisher>;
  /**
   * Lower-cased wallet → the one publisher its settlements are attributed to in rankings and ecosystem totals:
   * the domain that listed it first (then the alphabetically first), so a wallet several domains share counts once.
   */
  owner: Map<string, string>;
  /** Lower-cased wallet → every domain naming it (more than one for a shared wallet). */
  namedBy: Map<string, string[]>;
}

/** One (domain, wallet, network) of the registry with the first crawl day it was seen. */
export interface RegistryRow {
  domain: string;
  pay_to: string;
  network: string;
  first_seen: string;
}

const REGISTRY_SQL = `SELECT domain, pay_to, network, CAST(min(date) AS VARCHAR) AS first_seen FROM x402_publishers_daily
GROUP BY domain, pay_to, network ORDER BY first_seen, domain, pay_to, network`;

/** The registry per warehouse reader, read again only when the reader's day files change (its version). */
const registryCache = new WeakMap<WarehouseReader, { version: number; rows: Promise<RegistryRow[]> }>();

/** Every row of the registry (every network), first seen first, then by domain. */
export function registryRows(warehouse: WarehouseReader): Promise<RegistryRow[]> {
  const held = registryCache.get(warehouse);
  if (held && held.version === warehouse.version) return held.rows;
  const rows = warehouse.query<{ domain: string; pay_to: string; network: string; first_seen: string }>(REGISTRY_SQL);
  registryCache.set(warehouse, { version: warehouse.version, rows });
  rows.catch(() => registryCache.delete(warehouse));
  return rows;
}

/** The registry's publishers with a wallet on chain `chainId`. */
export async function chainRegistry(warehouse: WarehouseReader, chainId: number): Promise<ChainRegistry> {
  const network = `eip155:${chainId}`;
  const publishers = new Map<string, RegisteredPublisher>();
  const owner = new Map<string, string>();
  const namedBy = new Map<string, string[]>();
  for (const r of await registryRows(warehouse)) {
    if (r.network !== network) continue;
    const entry = publishers.get(r.domain) ?? { domain: r.domain, wallets: [], firstSeen: r.first_seen };
    entry.wallets.push(r.pay_to);
    publishers.set(r.domain, entry);
    const key = r.pay_to.toLowerCase();
    if (!owner.has(key)) owner.set(key, r.domain);
    namedBy.set(key, [...(namedBy.get(key) ?? []), r.domain]);
  }
  return { network, publishers, owner, namedBy };
}

/** Every wallet of the registry on the chain, lower-cased. */
export function registryWallets(registry: ChainRegistry): string[] {
  return [...registry.owner.keys()];
}

/** Where the index stands on a chain. */
export interface IndexStatus {
  /** The last indexed final block, its time, and the first block the index read (coverage starts there). */
  block: bigint;
  blockTime: Date | null;
  firstBlock: bigint | null;
  firstBlockTime: Date | null;
  /** When a pass last moved the cursor. */
  updatedAt: Date;
}

/** The cursor of chain `chainId`; null before the first pass. */
export async function indexStatus(sql: Sql, chainId: number): Promise<IndexStatus | null> {
  const { rows } = await sql.query<{ block_number: string; block_time: Date | null; first_block: string | null; first_block_time: Date | null; updated_at: Date }>(
    "SELECT block_number::text, block_time, first_block::text, first_block_time, updated_at FROM x402_index_cursor WHERE chain_id = $1",
    [chainId],
  );
  const r = rows[0];
  if (!r) return null;
  return { block: BigInt(r.block_number), blockTime: r.block_time, firstBlock: r.first_block === null ? null : BigInt(r.first_block), firstBlockTime: r.first_block_time, updatedAt: r.updated_at };
}

/** Settlement totals of one wallet. */
export interface WalletTotals {
  wallet: string;
  volumeUnits: bigint;
  count: number;
}

/** What every settlement read filters on. */
export interface SettlementScope {
  chainId: number;
  /** The token contract (lower-cased or not). */
  token: string;
  /** Wallets to sum (lower-cased or not); empty → nothing. */
  wallets: readonly string[];
}

const DAY_MS = 86_400_000;

/**
 * Each wallet's settlements with block time in (from, to]: a window ending at a block includes it. The whole UTC
 * days inside the window come from the daily totals; only the partial days at its two edges are summed from the
 * settlements themselves, so a 30-day window reads about 30 rows per wallet, not every settlement.
 */
export async function totalsByWallet(sql: Sql, scope: SettlementScope, from: Date, to: Date): Promise<WalletTotals[]> {
  if (scope.wallets.length === 0 || to <= from) return [];
  // Whole days: from the first midnight after `from` to the last midnight at or before `to`.
  const firstMidnight = new Date((Math.floor(from.getTime() / DAY_MS) + 1) * DAY_MS);
  const lastMidnight = new Date(Math.floor(to.getTime() / DAY_MS) * DAY_MS);
  const whole = firstMidnight < lastMidnight;
  const params = [scope.chainId, scope.token.toLowerCase(), scope.wallets.map((w) => w.toLowerCase()), from.toISOString(), to.toISOString()];
  const raw = `SELECT to_address, amount_units AS volume, 1 AS count FROM x402_settlements
     WHERE chain_id = $1 AND token = $2 AND to_address = ANY($3) AND amount_units > 0 AND block_time > $4 AND block_time <= $5`;
  const text = whole
    ? `SELECT to_address, sum(volume)::text AS volume, sum(count)::text AS count FROM (
         ${raw} AND (block_time < $6 OR block_time >= $7)
         UNION ALL
         SELECT to_address, volume_units, count FROM x402_settlements_daily
         WHERE chain_id = $1 AND token = $2 AND to_address = ANY($3) AND day >= $6::timestamptz AT TIME ZONE 'UTC' AND day < $7::timestamptz AT TIME ZONE 'UTC'
       ) t GROUP BY to_address`
    : `SELECT to_address, sum(volume)::text AS volume, sum(count)::text AS count FROM (${raw}) t GROUP BY to_address`;
  const { rows } = await sql.query<{ to_address: string; volume: string; count: string }>(text, whole ? [...params, firstMidnight.toISOString(), lastMidnight.toISOString()] : params);
  return rows.map((r) => ({ wallet: r.to_address, volumeUnits: BigInt(r.volume), count: Number(r.count) }));
}

/** Settlement totals of one UTC day. */
export interface DayTotals {
  date: string;
  volumeUnits: bigint;
  count: number;
}

/** The wallets' settlements per UTC day from `fromDay` to `toDay` (inclusive, YYYY-MM-DD), from the daily totals; days without any are absent. */
export async function totalsByDay(sql: Sql, scope: SettlementScope, fromDay: string, toDay: string): Promise<DayTotals[]> {
  if (scope.wallets.length === 0) return [];
  const { rows } = await sql.query<{ day: string; volume: string; count: string }>(
    `SELECT to_char(day, 'YYYY-MM-DD') AS day, sum(volume_units)::text AS volume, sum(count)::text AS count FROM x402_settlements_daily
     WHERE chain_id = $1 AND token = $2 AND to_address = ANY($3) AND day BETWEEN $4::date AND $5::date
     GROUP BY 1 ORDER BY 1`,
    [scope.chainId, scope.token.toLowerCase(), scope.wallets.map((w) => w.toLowerCase()), fromDay, toDay],
  );
  return rows.map((r) => ({ date: r.day, volumeUnits: BigInt(r.volume), count: Number(r.count) }));
}
