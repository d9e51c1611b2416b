/**
 * Schema migrations: every `*.sql` file of the migrations folder, applied once each in file-name order and
 * recorded in `schema_migrations`. Each file runs in its own transaction under a transaction-scoped advisory
 * lock, so processes starting together apply each file exactly once and in order. Files must not contain
 * BEGIN/COMMIT of their own.
 */
import { readdir, readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { join } from "node:path";
import type { Database } from "./types.ts";
import { isConnectionError } from "./unavailable.ts";

/** The folder holding the project's migrations. */
export const MIGRATIONS_DIR = fileURLToPath(new URL("./migrations/", import.meta.url));

/** Advisory lock key shared by every process migrating an agentfeed database ("agentfee" as 8 bytes). */
const MIGRATION_LOCK_KEY = "7018690069353882981";

/** A migration file failed to apply. */
export class MigrationError extends Error {
  override name = "MigrationError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

/** Apply every migration not yet recorded; returns the names applied by this call. */
export async function migrate(db: Database, dir: string = MIGRATIONS_DIR): Promise<string[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith(".sql")).sort();
  const applied: string[] = [];
  for (const name of names) {
    const sql = await readFile(join(dir, name), "utf8");
    try {
      const ran = await db.transaction(async (tx) => {
        await tx.query("SELECT pg_advisory_xact_lock($1::bigint)", [MIGRATION_LOCK_KEY]);
        await tx.query(
          "CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())",
        );
        const done = await tx.query("SELECT 1 FROM schema_migrations WHERE name = $1", [name]);
        if (done.rowCount > 0) return false;
        await tx.query(sql);
        await tx.query("INSERT INTO schema_migrations (name) VALUES ($1)", [name]);
        return true;
      });
      if (ran) applied.push(name);
    } catch (error) {
      // A lost or refused connection is not a broken migration: it goes up as it is.
      if (isConnectionError(error)) throw error;
      throw new MigrationError(`migrate: ${name} failed: ${(error as Error).message}`, { cause: error });
    }
  }
  return applied;
}
