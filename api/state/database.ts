/**
 * Open the state database: the Postgres server named by DATABASE_URL, or else the embedded Postgres kept in
 * `<DATA_DIR>/pg`. Migrations are applied before the handle is returned. An embedded server this process owns
 * is watched: when it is lost while serving (killed, crashed), it is started again on the same port, so the
 * pool reconnects by itself; meanwhile queries fail and the routes answer 503. One that shut down cleanly was
 * asked to stop, and is left stopped.
 */
import { join } from "node:path";
import pg from "pg";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded.ts";
import { migrate, MIGRATIONS_DIR } from "./migrate.ts";
import type { Database, QueryOptions, Sql } from "./types.ts";
import { dataDirOf } from "./data-dir.ts";

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
  /**
   * Longest wait for a connection, in ms (default 10,000): a server that accepts connections but never answers
   * fails the start, and a call that cannot get one answers 503 state_unavailable, instead of waiting forever.
   */
  connectTimeoutMs?: number;
  /**
   * Longest wait for the answer to one query while serving, in ms (default 15,000): a server that stops
   * answering (paused, or a lock held for minutes) fails the call with 503 state_unavailable instead of holding
   * it forever. Migrations at start run without this limit.
   */
  queryTimeoutMs?: number;
  /** Migrations folder (default api/state/migrations). */
  migrationsDir?: string;
  /** How often a lost embedded server is looked for, in ms (default 1000). */
  watchMs?: number;
  /** Receives one line per lost/restarted embedded server. Default: stderr. */
  onWarn?: (message: string) => void;
}

/** Default of {@link OpenDatabaseOptions.queryTimeoutMs}. */
export const QUERY_TIMEOUT_MS = 15_000;

const wrap = (client: pg.Pool | pg.PoolClient): Sql => ({
  async query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, params?: readonly unknown[], options?: QueryOptions) {
    const values = params as unknown[] | undefined;
    const result = options?.prepareAs ? await client.query<R>({ name: options.prepareAs, text, values }) : await client.query<R>(text, values);
    return { rows: result.rows, rowCount: result.rowCount ?? 0 };
  },
});

/** Queries and transactions over a pool (a client whose ROLLBACK fails is dropped, not reused). */
function sqlOn(pool: pg.Pool): Pick<Database, "query" | "transaction"> {
  return {
    query: wrap(pool).query,
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
  };
}

/** The server a DATABASE_URL names, without its credentials; a clear error (never the password) when it is not a URL. */
export function describeDatabaseUrl(databaseUrl: string): string {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new Error("DATABASE_URL is not a URL: expected postgres://user:password@host:port/database");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new Error(`DATABASE_URL must start with postgres:// or postgresql://, not ${url.protocol.slice(0, 20)}//`);
  }
  if (!url.hostname) throw new Error("DATABASE_URL names no host: expected postgres://user:password@host:port/database");
  return `Postgres server ${url.hostname}:${url.port || "5432"}/${decodeURIComponent(url.pathname.slice(1)) || "(default database)"}`;
}

/**
 * Restart a lost embedded server, at most one attempt at a time, backing off while it keeps failing. A server
 * that was asked to stop (a clean shutdown: the terminal's Ctrl-C reaches it with this process, as does a system
 * shutdown) is not restarted: this process is about to stop too, or its operator stopped the database on purpose.
 */
function watchEmbedded(embedded: EmbeddedServer, everyMs: number, warn: (message: string) => void): () => void {
  let busy = false;
  let failures = 0;
  let skip = 0;
  const timer = setInterval(() => {
    if (busy || embedded.alive()) return;
    if (embedded.shutDownCleanly()) {
      clearInterval(timer);
      warn(
        `embedded postgres in ${embedded.clusterDir} was shut down from outside (a clean stop, as on Ctrl-C); not restarting it: routes that need the database answer 503 until agentfeed is started again`,
      );
      return;
    }
    if (skip > 0) {
      skip--;
      return;
    }
    busy = true;
    warn(`embedded postgres in ${embedded.clusterDir} was lost; restarting it on 127.0.0.1:${embedded.port}`);
    embedded.restart().then(
      () => {
        failures = 0;
        warn(`embedded postgres in ${embedded.clusterDir} restarted`);
      },
      (error: unknown) => {
        failures++;
        skip = Math.min(2 ** failures, 30);
        warn(`embedded postgres restart failed: ${(error as Error).message}`);
      },
    ).finally(() => {
      busy = false;
    });
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/** Open the database (embedded unless a URL is given) and apply the migrations. */
export async function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  const databaseUrl = options.databaseUrl ?? process.env.DATABASE_URL ?? undefined;
  const warn = options.onWarn ?? ((message: string) => process.stderr.write(`agentfeed: ${message}\n`));
  let embedded: EmbeddedServer | undefined;
  let connectionString: string;
  let where: string;
  if (databaseUrl) {
    where = describeDatabaseUrl(databaseUrl);
    connectionString = databaseUrl;
  } else {
    const dataDir = options.dataDir ?? dataDirOf(process.env.DATA_DIR);
    embedded = await startEmbeddedPostgres({ dataDir: join(dataDir), port: options.port });
    connectionString = embedded.url;
    where = `embedded Postgres in ${embedded.clusterDir}, ${embedded.identity}`;
  }
  const connectionTimeoutMillis = options.connectTimeoutMs ?? 10_000;
  const queryTimeout = options.queryTimeoutMs ?? QUERY_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    connectionTimeoutMillis,
    // A query without an answer in time fails (and pg-pool drops its client); TCP keepalive finds a peer that
    // vanished. No server-side limits in the startup packet (statement_timeout, lock_timeout): PgBouncer refuses
    // connections that carry them. A charge that reaches the server late is stopped by its own deadline instead.
    query_timeout: queryTimeout,
    keepAlive: true,
  });
  // An idle client losing its server (restart, shutdown) must not crash the process; the next query fails instead.
  pool.on("error", () => undefined);
  const stopWatching = embedded?.owned ? watchEmbedded(embedded, options.watchMs ?? 1_000, warn) : undefined;
  let closed = false;
  const kind = embedded ? "embedded" : "server";
  const db: Database = {
    kind,
    where,
    ...sqlOn(pool),
    async close() {
      if (closed) return;
      closed = true;
      stopWatching?.();
      await pool.end();
      await embedded?.stop();
    },
  };
  // A server that cannot be reached is said as such, not as a failed migration. The same round trip reads the
  // server's clock: the charge deadline is this host's clock read on the server's (migration 0195), so a clock
  // off by seconds would refuse or stretch it. Said once at start.
  let serverClock: Date;
  const before = Date.now();
  try {
    serverClock = (await pool.query<{ t: Date }>("SELECT clock_timestamp() AS t")).rows[0]!.t;
  } catch (error) {
    await db.close();
    throw new Error(`cannot connect to the ${where}: ${(error as Error).message.slice(0, 200)}`, { cause: error });
  }
  const skew = serverClock.getTime() - (before + Date.now()) / 2;
  if (Math.abs(skew) > 2_000) {
    warn(`the ${where}'s clock is ${(Math.abs(skew) / 1000).toFixed(1)} s ${skew > 0 ? "ahead of" : "behind"} this host's; paid calls' charge deadlines are read on the server's clock: keep both in time (NTP)`);
  }
  // Migrations may run long on a large database: one connection of their own, without the serving time-outs.
  const setup = new pg.Pool({ connectionString, max: 1, connectionTimeoutMillis });
  setup.on("error", () => undefined);
  try {
    await migrate({ kind, where, ...sqlOn(setup), close: async () => undefined }, options.migrationsDir ?? MIGRATIONS_DIR);
  } catch (error) {
    await setup.end().catch(() => undefined);
    await db.close();
    throw error;
  }
  await setup.end();
  return db;
}
