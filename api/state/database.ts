/**
 * Open the state database: the Postgres server named by DATABASE_URL, or else the embedded Postgres kept in
 * `<DATA_DIR>/pg`. Migrations are applied before the handle is returned.
 */
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded.ts";
import { migrate, MIGRATIONS_DIR } from "./migrate.ts";
import type { Database, Sql } from "./types.ts";

/** Options for openDatabase; each falls back to its environment variable. */
export interface OpenDatabaseOptions {
  /** A Postgres server to use (env DATABASE_URL); when absent or "" the embedded server is used. */
  databaseUrl?: string;
  /** Folder for the embedded server (env DATA_DIR, default `.data`); the cluster lives in `<dataDir>/pg`. */
  dataDir?: string;
  /** Port for the embedded server; a free port is chosen at start when omitted. */
  port?: number;
  /** Pool size per process (default 10). */
  poolSize?: number;
  /** Migrations folder (default api/state/migrations). */
  migrationsDir?: string;
}

const wrap = (client: pg.Pool | pg.PoolClient): Sql => ({
  async query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: readonly unknown[]) {
    const result = await client.query<R>(text, params as unknown[] | undefined);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  },
});

/** Open the database (embedded unless a URL is given) and apply the migrations. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? undefined;
  let embedded: EmbeddedServer | undefined;
  let connectionString: string;
  if (databaseUrl) {
    connectionString = databaseUrl;
  } else {
    const dataDir = options.dataDir ?? process.env.DATA_DIR ?? ".data";
    embedded = await startEmbeddedPostgres({ dataDir: join(dataDir), port: options.port });
    connectionString = embedded.url;
  }
  const pool = new pg.Pool({ connectionString, max: options.poolSize ?? 10 });
  // An idle client losing its server (restart, shutdown) must not crash the process; the next query fails instead.
  pool.on("error", () => undefined);
  const sql = wrap(pool);
  let closed = false;
  const db: Database = {
    kind: embedded ? "embedded" : "server",
    query: sql.query,
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      let broken = false;
      try {
        await client.query("BEGIN");
        const result = await fn(wrap(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {
          broken = true;
        });
        throw error;
      } finally {
        client.release(broken);
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool.end();
      await embedded?.stop();
    },
  };
  try {
    await migrate(db, options.migrationsDir ?? MIGRATIONS_DIR);
  } catch (error) {
    await db.close();
    throw error;
  }
  return db;
}
