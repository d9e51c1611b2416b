/**
 * The embedded Postgres server: real PostgreSQL binaries (postgres-binaries.ts) run as a child process
 * (postgres-process.ts) under an identity that works as root and as a regular user, under a 0700 home or not
 * (postgres-identity.ts). The cluster lives in `<dataDir>/pg`, listening on 127.0.0.1 only.
 *
 * One live owner per data folder: the process that started (or adopted) the folder's server owns it and stops it
 * on close. Another process that finds a live owner is refused, naming the owner's pid, because two servers
 * sharing one embedded database would lose billing the moment the first stops; several processes share one
 * Postgres server through DATABASE_URL instead. The same process may open the folder again (it joins). A server
 * whose owner died (kill -9 leaves postgres running) is adopted by the next opener.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, open, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import pg from "pg";
import { freePort } from "../testing/free-port.ts";
import { findPostgresBinaries, type PostgresBinaries } from "./postgres-binaries.ts";
import { choosePostgresIdentity, type PostgresIdentity } from "./postgres-identity.ts";
import { runInitdb, startPostgres, type PostgresChild } from "./postgres-process.ts";
import { EmbeddedPostgresError } from "./startup-failure.ts";
import { folderRemedy } from "./data-dir.ts";
import { processAlive } from "../process-alive.ts";
import { clip } from "../http/clip.ts";

export { EmbeddedPostgresError };

/** The database every agentfeed process uses inside the embedded server. */
export const EMBEDDED_DATABASE = "agentfeed";

/** A running embedded server, as one process sees it. */
export interface EmbeddedServer {
  /** postgres://user:password@127.0.0.1:port/agentfeed */
  readonly url: string;
  readonly port: number;
  /** True when this process started or adopted the server (and so stops it). */
  readonly owned: boolean;
  /** The cluster folder. */
  readonly clusterDir: string;
  /** How the binaries run, e.g. "as the current user". */
  readonly identity: string;
  /** Whether the server process is still there. */
  alive(): boolean;
  /** Whether a server that is gone was asked to stop (a clean shutdown) rather than lost to a crash or a kill. */
  shutDownCleanly(): boolean;
  /** Start the server again on the same port after it was lost (owned servers only). */
  restart(): Promise<void>;
  /** Stop the server if this process owns it; otherwise nothing. */
  stop(): Promise<void>;
}

interface Credentials {
  user: string;
  password: string;
}

/** Where the generated credentials live: beside the cluster, mode 0600. */
const credentialsPath = (dataDir: string): string => join(dataDir, "pg-credentials.json");

/** Read the folder's credentials, creating them once when missing. */
async function loadCredentials(dataDir: string, create: boolean): Promise<Credentials> {
  const path = credentialsPath(dataDir);
  try {
    const parsed = JSON.parse(await readFile(path, "utf8")) as Partial<Credentials>;
    if (typeof parsed.user !== "string" || typeof parsed.password !== "string") {
      throw new EmbeddedPostgresError(`embedded postgres: ${path} has no user/password; restore it or move the data folder away`);
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

/** The kernel's start time of a process (Linux), so a reused pid is not taken for the owner. */
async function processStart(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  if (!stat) return undefined;
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
}

/** Who owns the folder's server: a file beside the cluster. */
const ownerPath = (dataDir: string): string => join(dataDir, "pg-owner.pid");

async function writeOwner(dataDir: string): Promise<void> {
  const owner = { pid: process.pid, start: await processStart(process.pid) };
  await writeFile(ownerPath(dataDir), `${JSON.stringify(owner)}\n`, { mode: 0o600 });
}

/** The live owner's pid, or undefined when nobody (or a dead process) owns the folder. */
export async function liveOwner(dataDir: string): Promise<number | undefined> {
  const text = await readFile(ownerPath(dataDir), "utf8").catch(() => "");
  let pid: number;
  let start: string | undefined;
  try {
    const parsed = JSON.parse(text) as { pid?: unknown; start?: unknown } | number;
    pid = typeof parsed === "number" ? parsed : Number(parsed.pid);
    start = typeof parsed === "object" && typeof parsed.start === "string" ? parsed.start : undefined;
  } catch {
    return undefined;
  }
  if (!Number.isInteger(pid) || pid <= 0 || !processAlive(pid)) return undefined;
  if (start !== undefined) {
    const current = await processStart(pid);
    if (current !== undefined && current !== start) return undefined;
  }
  return pid;
}

function inUseMessage(dataDir: string, owner: number): string {
  return `embedded postgres: ${dataDir} is in use: its database belongs to the running agentfeed process pid ${owner}; stop that process, give this one another DATA_DIR, or run several processes against one Postgres server with DATABASE_URL`;
}

/**
 * Why this process cannot use `dataDir` (another running agentfeed owns its database), or undefined. The start
 * checks the same under its start lock; this early look lets `npm start` refuse before loading the server.
 */
export async function dataFolderInUse(dataDir: string): Promise<string | undefined> {
  const absolute = resolve(dataDir);
  const owner = await liveOwner(absolute);
  return owner !== undefined && owner !== process.pid ? inUseMessage(absolute, owner) : undefined;
}

/** Resolve once `pid` is gone. */
async function waitExit(pid: number, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (processAlive(pid)) {
    if (Date.now() > deadline) throw new EmbeddedPostgresError(`embedded postgres: pid ${pid} still running after ${timeoutMs} ms`);
    await new Promise((done) => setTimeout(done, 25));
  }
}

/** Stop a server this process did not spawn (an adopted orphan): fast shutdown, then wait for it to exit. */
async function stopByPid(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT");
  } catch {
    return;
  }
  await waitExit(pid).catch(() => {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  });
}

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
  return processAlive(pid) ? { pid, port } : undefined;
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
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const handle = await open(path, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(await readFile(path, "utf8").catch(() => ""));
      if (!(Number.isInteger(holder) && holder > 0 && processAlive(holder))) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new EmbeddedPostgresError(`embedded postgres: ${path} still held by pid ${holder} after 30 s; stop that process or delete the file`);
      }
      await new Promise((done) => setTimeout(done, 50));
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
        throw new EmbeddedPostgresError(`embedded postgres: 127.0.0.1:${port} refuses connections (${(error as Error).message})`, { cause: error });
      }
      await new Promise((done) => setTimeout(done, 50));
    }
  }
}

/** Create the agentfeed database when it is missing (first start, or a start that crashed after initdb). */
async function ensureDatabase(credentials: Credentials, port: number): Promise<void> {
  const client = new pg.Client({ connectionString: urlFor(credentials, port, "postgres") });
  client.on("error", () => undefined);
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

const isEmptyDir = async (dir: string): Promise<boolean> => {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
};

/** Refuse a cluster another PostgreSQL major version wrote, before the server says it less clearly. */
async function checkVersion(clusterDir: string, binaries: PostgresBinaries): Promise<void> {
  const written = (await readFile(join(clusterDir, "PG_VERSION"), "utf8").catch(() => undefined))?.trim();
  if (written === undefined) {
    throw new EmbeddedPostgresError(
      `embedded postgres: ${clusterDir} is not empty but holds no PostgreSQL cluster (no PG_VERSION); move it away or point DATA_DIR elsewhere`,
    );
  }
  if (written !== binaries.major) {
    throw new EmbeddedPostgresError(
      `embedded postgres: ${clusterDir} was written by PostgreSQL ${written.slice(0, 20)} but this install runs PostgreSQL ${binaries.major}; move the folder away to start empty, or dump it with PostgreSQL ${written.slice(0, 20)} and restore it`,
    );
  }
}

/** initdb into an empty cluster folder; a failed attempt leaves the folder empty for the next try. */
async function initialise(
  dataDir: string,
  clusterDir: string,
  credentials: Credentials,
  binaries: PostgresBinaries,
  identity: PostgresIdentity,
): Promise<void> {
  // The password reaches initdb through a file only its owner can read, inside the 0700 data folder.
  const passwordFile = join(dataDir, `pg-password-${randomBytes(6).toString("hex")}`);
  try {
    // Inside the try: a write that fails part-way (a full disk) still leaves no password file behind.
    await writeFile(passwordFile, `${credentials.password}\n`, { mode: 0o600 });
    await identity.prepare(dataDir, clusterDir);
    if (identity.kind === "system-user") await chmod(passwordFile, 0o644); // read by the other user, removed below
    await runInitdb(binaries, identity, { clusterDir, user: credentials.user, passwordFile });
  } catch (error) {
    await rm(clusterDir, { recursive: true, force: true });
    await mkdir(clusterDir, { mode: 0o700 });
    throw error;
  } finally {
    await rm(passwordFile, { force: true });
  }
}

/** Options for {@link startEmbeddedPostgres}. */
export interface EmbeddedOptions {
  dataDir: string;
  /** Listen port; a free port is chosen (and retried) when omitted. */
  port?: number;
  /** Folder of the PostgreSQL binaries (bin/, lib/, share/); default: the installed platform package. */
  binariesRoot?: string;
  /** As root: force a way of running the binaries (tests). */
  runAsRoot?: "namespace" | "system-user";
}

/**
 * Start (or adopt) the embedded server of `dataDir`: initdb on an empty `<dataDir>/pg`, then a server on
 * 127.0.0.1:`port`. Refuses a folder whose server another live process owns.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedServer> {
  try {
    return await startOrAdopt(options);
  } catch (error) {
    throw asFolderError(error, resolve(options.dataDir));
  }
}

/** File-system codes that say the data folder itself cannot be written (full, read-only, not ours). */
const FOLDER_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "ENOTDIR"]);

/** A failure to write in the data folder as the one start-up line: the folder, the cause, what to do. */
function asFolderError(error: unknown, dataDir: string): unknown {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (error instanceof EmbeddedPostgresError || typeof code !== "string" || !FOLDER_CODES.has(code)) return error;
  return new EmbeddedPostgresError(`embedded postgres: cannot write in the data folder ${dataDir} (${clip((error as Error).message, 200)}); ${folderRemedy(code)}`, { cause: error });
}

async function startOrAdopt(options: EmbeddedOptions): Promise<EmbeddedServer> {
  const dataDir = resolve(options.dataDir);
  const clusterDir = join(dataDir, "pg");
  // The data folder holds the credentials and the cluster: only its owner may read it.
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  return withStartLock(dataDir, async () => {
    const running = await runningServer(clusterDir);
    const owner = await liveOwner(dataDir);
    if (owner !== undefined && owner !== process.pid) throw new EmbeddedPostgresError(inUseMessage(dataDir, owner));
    if (running) return joinRunning(dataDir, clusterDir, running, owner === process.pid);

    const binaries = await findPostgresBinaries(options.binariesRoot);
    const identity = await choosePostgresIdentity({ binariesRoot: binaries.root, dataDir, prefer: options.runAsRoot });
    const fresh = await isEmptyDir(clusterDir);
    if (!fresh) await checkVersion(clusterDir, binaries);
    const credentials = await loadCredentials(dataDir, fresh).catch((error: unknown) => {
      if (error instanceof EmbeddedPostgresError) throw error;
      throw new EmbeddedPostgresError(
        `embedded postgres: cannot read ${credentialsPath(dataDir)} for the existing cluster ${clusterDir} (${(error as Error).message}); restore the file or move the data folder away`,
        { cause: error },
      );
    });
    if (fresh) {
      await mkdir(clusterDir, { recursive: true, mode: 0o700 });
      await initialise(dataDir, clusterDir, credentials, binaries, identity);
    } else {
      await identity.prepare(dataDir, clusterDir);
    }

    const launch = async (port: number): Promise<PostgresChild> => {
      const child = await startPostgres(binaries, identity, { clusterDir, port });
      try {
        await waitReady(credentials, port, 10_000);
        await ensureDatabase(credentials, port);
      } catch (error) {
        await child.stop(2_000);
        throw error;
      }
      return child;
    };
    // A port picked by the kernel can be taken by someone else before postgres binds it: try a few.
    let child: PostgresChild | undefined;
    let port = 0;
    for (let attempt = 1; !child; attempt++) {
      port = options.port ?? (await freePort());
      try {
        child = await launch(port);
      } catch (error) {
        const portTaken = error instanceof EmbeddedPostgresError && /already in use/.test(error.message);
        if (options.port !== undefined || attempt >= 3 || !portTaken) throw error;
      }
    }
    await writeOwner(dataDir);
    let current = child;
    let stopped = false;
    // A restart under way when the server is stopped is waited for, so the server it starts is stopped too.
    let restarting: Promise<void> | undefined;
    return {
      url: urlFor(credentials, port),
      port,
      owned: true,
      clusterDir,
      identity: identity.description,
      alive: () => !current.hasExited(),
      shutDownCleanly: () => current.shutDownCleanly(),
      restart: async () => {
        if (stopped || !current.hasExited()) return;
        restarting ??= withStartLock(dataDir, () => launch(port))
          .then((next) => {
            current = next;
          })
          .finally(() => {
            restarting = undefined;
          });
        await restarting;
      },
      stop: async () => {
        if (stopped) return;
        stopped = true;
        await restarting?.catch(() => undefined);
        await current.stop();
        await rm(ownerPath(dataDir), { force: true });
      },
    };
  });
}

/** A server already running from the folder: this process's own (join), or an orphan (adopt and own it). */
async function joinRunning(
  dataDir: string,
  clusterDir: string,
  running: { pid: number; port: number },
  ownProcess: boolean,
): Promise<EmbeddedServer> {
  const credentials = await loadCredentials(dataDir, false);
  await waitReady(credentials, running.port, 10_000);
  const adopted = !ownProcess;
  if (adopted) await writeOwner(dataDir);
  let stopped = false;
  // As for a server this process started (postgres-process.ts): an adopted one gets the fast-shutdown signal if
  // this process ends without stopping it.
  const stopOnProcessExit = (): void => {
    try {
      process.kill(running.pid, "SIGINT");
    } catch {
      // already gone
    }
  };
  if (adopted) process.on("exit", stopOnProcessExit);
  return {
    url: urlFor(credentials, running.port),
    port: running.port,
    owned: adopted,
    clusterDir,
    identity: adopted ? "adopted from a process that died" : "joined (this process already runs it)",
    alive: () => processAlive(running.pid),
    // Not our child: how it ended cannot be seen.
    shutDownCleanly: () => false,
    // An adopted server is not our child: a lost one is not restarted here; the next start takes the folder over.
    restart: async () => undefined,
    stop: async () => {
      if (!adopted || stopped) return;
      stopped = true;
      process.off("exit", stopOnProcessExit);
      await stopByPid(running.pid);
      await rm(ownerPath(dataDir), { force: true });
    },
  };
}

export { freePort };
