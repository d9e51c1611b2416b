/**
 * The API server as a child process (`node --import tsx api/server.ts --no-schedule`, or with its scheduler) on
 * a free port of 127.0.0.1, for tests and demos that need real HTTP between processes. Resolves once it printed
 * its first line.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { resolve } from "node:path";
import { freePort } from "./free-port.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** A running API process. */
export interface SpawnedApi {
  base: string;
  port: number;
  child: ChildProcess;
  /** The line it printed when it started listening. */
  firstLine: string;
  /** Everything it printed on stdout so far. */
  stdout(): string;
  /** Everything it printed on stderr so far (warnings). */
  stderr(): string;
  /** SIGTERM, then wait for the exit; resolves to the exit code (null when it was already gone). */
  stop(): Promise<number | null>;
}

/**
 * Start the API with `env` added to this process's environment (HOST is 127.0.0.1; PORT a free one unless given);
 * `nodeArgs` go to Node before the script (a test's `--require` preload).
 */
export async function spawnApi(
  env: Record<string, string>,
  options: { timeoutMs?: number; schedule?: boolean; ownProcessGroup?: boolean; nodeArgs?: readonly string[] } = {},
): Promise<SpawnedApi> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const args = [...(options.nodeArgs ?? []), "--import", "tsx", "api/server.ts", ...(options.schedule ? [] : ["--no-schedule"])];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, HOST: "127.0.0.1", ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, as a shell gives a command run in a terminal: the group can then be signalled whole.
    detached: options.ownProcessGroup === true,
  });
  let out = "";
  let err = "";
  child.stderr!.on("data", (c: Buffer) => (err += c.toString()));
  const firstLine = await new Promise<string>((ok, fail) => {
    const timer = setTimeout(() => fail(new Error(`api did not start in ${options.timeoutMs ?? 60_000} ms: ${err}`)), options.timeoutMs ?? 60_000);
    child.stdout!.on("data", (c: Buffer) => {
      out += c.toString();
      if (out.includes("\n")) {
        clearTimeout(timer);
        ok(out.split("\n")[0]!);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`api exited with ${code}: ${err}`));
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    child,
    firstLine,
    stdout: () => out,
    stderr: () => err,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      const exited = new Promise<number | null>((ok) => child.once("exit", (code) => ok(code)));
      child.kill("SIGTERM");
      return exited;
    },
  };
}
