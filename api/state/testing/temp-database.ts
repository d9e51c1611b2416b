/**
 * A throwaway embedded Postgres for tests: a fresh data folder in the OS temp dir, a free port, migrations
 * applied. `close()` stops the server and deletes the folder. Start one per test file (initdb takes ~1–2 s).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase } from "../database.ts";
import { embeddedUrl } from "../embedded.ts";
import type { Database } from "../types.ts";

/** An open test database and the URL other processes can use to reach its server. */
export interface TempDatabase {
  db: Database;
  /** postgres:// URL of the embedded server, for spawned processes (DATABASE_URL). */
  url: string;
  dataDir: string;
  /** Close the pool, stop the server, delete the folder. */
  close(): Promise<void>;
}

/** Start a fresh embedded Postgres in a temp folder and open it with migrations applied. */
export async function openTempDatabase(options: { migrationsDir?: string; queryTimeoutMs?: number } = {}): Promise<TempDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), "agentfeed-pg-"));
  const db = await openDatabase({ dataDir, databaseUrl: "", migrationsDir: options.migrationsDir, ...(options.queryTimeoutMs ? { queryTimeoutMs: options.queryTimeoutMs } : {}) });
  const url = await embeddedUrl(dataDir);
  if (!url) throw new Error(`openTempDatabase: no server running from ${dataDir}`);
  return {
    db,
    url,
    dataDir,
    async close() {
      await db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
