/**
 * Runs the PostgreSQL binaries as child processes: `initdb` for a new cluster and the server itself, under the
 * identity chosen in postgres-identity.ts. A process that cannot be spawned, or a server that exits before it is
 * ready, rejects at once with one line naming the cause, the path and what to do (startup-failure.ts); nothing
 * waits for a time-out to find out that a start failed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import type { PostgresBinaries } from "./postgres-binaries.ts";
import type { PostgresIdentity } from "./postgres-identity.ts";
import { describeStartFailure, EmbeddedPostgresError } from "./startup-failure.ts";

/** Lines a process wrote, the last `max` kept. */
class LogTail {
  readonly lines: string[] = [];
  constructor(private readonly max = 40) {}
  push(chunk: string): void {
    for (const line of chunk.split("\n")) {
      const trimmed = line.trim();
      if (!trimmed) continue;
      this.lines.push(trimmed.slice(0, 500));
      if (this.lines.length > this.max) this.lines.shift();
    }
  }
}

/** Messages in English whatever the machine's locale, so failures can be recognised. */
const childEnv = (): NodeJS.ProcessEnv => ({ ...process.env, LC_MESSAGES: "C", LC_ALL: "C" });

function spawnAs(identity: PostgresIdentity, binary: string, args: readonly string[]): ChildProcess {
  const command = identity.command(binary, args);
  return spawn(command.file, command.args, {
    env: childEnv(),
    stdio: ["ignore", "pipe", "pipe"],
    ...(command.uid !== undefined ? { uid: command.uid, gid: command.gid } : {}),
  });
}

/** Options for {@link runInitdb}. */
export interface InitdbOptions {
  clusterDir: string;
  user: string;
  /** A file holding the superuser's password (read by initdb, removed by the caller). */
  passwordFile: string;
}

/** Create a cluster in `clusterDir` (empty or missing). Rejects with the reason initdb gave. */
export async function runInitdb(binaries: PostgresBinaries, identity: PostgresIdentity, options: InitdbOptions): Promise<void> {
  const log = new LogTail();
  const args = [
    `--pgdata=${options.clusterDir}`,
    `--username=${options.user}`,
    `--pwfile=${options.passwordFile}`,
    "--auth=scram-sha-256",
    "--encoding=UTF8",
    "--no-locale",
  ];
  await new Promise<void>((resolve, reject) => {
    const child = spawnAs(identity, binaries.initdb, args);
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => log.push(chunk));
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => log.push(chunk));
    child.once("error", (error) =>
      reject(describeStartFailure({ step: "initdb", clusterDir: options.clusterDir, binary: binaries.initdb, spawnError: error, log: log.lines })),
    );
    child.once("close", (code, signal) => {
      if (code === 0) resolve();
      else reject(describeStartFailure({ step: "initdb", clusterDir: options.clusterDir, binary: binaries.initdb, exit: { code, signal }, log: log.lines }));
    });
  });
}

/** A server this process started. */
export interface PostgresChild {
  readonly pid: number;
  /** Settles when the server process has exited, whoever stopped it. */
  readonly exited: Promise<void>;
  /** Whether the process has exited. */
  readonly hasExited: () => boolean;
  /**
   * Whether it exited by a clean shutdown (exit code 0): someone asked it to stop (a signal to the terminal's
   * process group, a system shutdown, `pg_ctl stop`), as opposed to a crash or a kill.
   */
  readonly shutDownCleanly: () => boolean;
  /** Fast shutdown (SIGINT), then SIGKILL if it is still there after `graceMs`; resolves once it is gone. */
  stop(graceMs?: number): Promise<void>;
}

/** Options for {@link startPostgres}. */
export interface StartPostgresOptions {
  clusterDir: string;
  port: number;
  /** Give up (and stop the process) when the server is not ready after this long (default 30 s: crash recovery). */
  readyTimeoutMs?: number;
}

/**
 * Start the server on 127.0.0.1:`port` (TCP only: no Unix socket in a shared folder) and resolve once it
 * accepts connections; reject at once when it exits first.
 */
export async function startPostgres(
  binaries: PostgresBinaries,
  identity: PostgresIdentity,
  options: StartPostgresOptions,
): Promise<PostgresChild> {
  const log = new LogTail();
  const args = ["-D", options.clusterDir, "-p", String(options.port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="];
  const child = spawnAs(identity, binaries.postgres, args);
  let exited = false;
  let exitCode: number | null = null;
  // If this process ends without stopping the server (a `process.exit` anywhere, the forced exit of a shutdown
  // that hung), the server gets the fast-shutdown signal on the way out instead of running on without its owner.
  // Node runs "exit" listeners synchronously, which is all a signal needs.
  const stopOnProcessExit = (): void => {
    if (!exited) child.kill("SIGINT");
  };
  process.on("exit", stopOnProcessExit);
  // "exit", not "close": backends left by a killed server keep the output pipes open long after it is gone.
  const exitedPromise = new Promise<void>((resolve) => {
    child.once("exit", (code) => {
      exited = true;
      exitCode = code;
      process.off("exit", stopOnProcessExit);
      resolve();
    });
    child.once("error", () => {
      exited = true;
      process.off("exit", stopOnProcessExit);
      resolve();
    });
  });
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => log.push(chunk));
  const stop = async (graceMs = 10_000): Promise<void> => {
    if (exited) return;
    child.kill("SIGINT");
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    await exitedPromise;
    clearTimeout(timer);
  };
  await new Promise<void>((resolve, reject) => {
    const timeoutMs = options.readyTimeoutMs ?? 30_000;
    const timer = setTimeout(() => {
      void stop(2_000).then(() =>
        reject(
          describeStartFailure({ step: "start", clusterDir: options.clusterDir, binary: binaries.postgres, port: options.port, timeoutMs, log: log.lines }),
        ),
      );
    }, timeoutMs);
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
      log.push(chunk);
      if (chunk.includes("database system is ready to accept connections")) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(describeStartFailure({ step: "start", clusterDir: options.clusterDir, binary: binaries.postgres, port: options.port, spawnError: error, log: log.lines }));
    });
    child.once("exit", (code, signal) => {
      clearTimeout(timer);
      // Let the last output lines arrive before they are read for the reason.
      setImmediate(() => reject(
        describeStartFailure({ step: "start", clusterDir: options.clusterDir, binary: binaries.postgres, port: options.port, exit: { code, signal }, log: log.lines }),
      ));
    });
  });
  // Keep draining the server's output after start so its pipes never fill; the tail stays for diagnostics.
  if (child.pid === undefined) throw new EmbeddedPostgresError(`embedded postgres: ${binaries.postgres} started without a pid`);
  return { pid: child.pid, exited: exitedPromise, hasExited: () => exited, shutDownCleanly: () => exited && exitCode === 0, stop };
}
