/**
 * What the premium end-to-end suites share: API server processes on given snapshot folders (one per name, e.g. a
 * fresh and a stale one), billed on one real temporary Postgres, a paid token with credits, and a caller that
 * sends it. `stop()` ends the processes, drops the database and removes the folders, even after a failure.
 */
import { rm } from "node:fs/promises";
import { createCredits } from "../billing/credits.ts";
import { openTempDatabase, type TempDatabase } from "../state/testing/temp-database.ts";
import type { Database } from "../state/types.ts";
import { contractFetch } from "../testing/openapi-contract.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";

type Json = Record<string, any>;

export interface PaidServers<K extends string> {
  servers: Record<K, SpawnedApi>;
  /** The database the servers share (tests read what a server wrote). */
  db: Database;
  token: string;
  /** GET `path` on `api` with the paid token; the body parsed. */
  paid(api: SpawnedApi, path: string): Promise<{ status: number; body: Json }>;
  stop(): Promise<void>;
}

/**
 * Start one server per snapshot folder on one temporary database and mint a token holding `credits`; `env` adds
 * to (or replaces) the servers' environment (payments on a test chain, indexer settings).
 */
export async function startPaidServers<K extends string>(folders: Record<K, string>, credits: number, ref: string, env: Record<string, string> = {}): Promise<PaidServers<K>> {
  let temp: TempDatabase | undefined;
  const started: SpawnedApi[] = [];
  const stop = async () => {
    await Promise.all(started.map((s) => s.stop()));
    await temp?.close();
    for (const dir of Object.values<string>(folders)) await rm(dir, { recursive: true, force: true });
  };
  try {
    temp = await openTempDatabase();
    const base = { DATABASE_URL: temp.url, RATE_LIMIT_PER_MINUTE: "0", PAYMENTS_TEST_CHAIN: "off", ...env };
    const servers = {} as Record<K, SpawnedApi>;
    for (const [name, dir] of Object.entries<string>(folders)) {
      const api = await spawnApi({ ...base, SNAPSHOTS_DIR: dir });
      started.push(api);
      servers[name as K] = api;
    }
    const ledger = createCredits(temp.db as Database);
    const minted = await ledger.mintToken(temp.db, { kind: "paid" });
    await ledger.grant(temp.db, minted.id, credits, { reason: "purchase", ref });
    const token = minted.token;
    const paid = async (api: SpawnedApi, path: string) => {
      const res = await contractFetch(api.base + path, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as Json };
    };
    return { servers, db: temp.db as Database, token, paid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
