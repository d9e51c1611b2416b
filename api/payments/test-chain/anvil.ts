/**
 * A local anvil chain on 127.0.0.1: spawned on port 0 (the OS picks a free port, read back from anvil's
 * "Listening on" line, so no port race), in memory only, stopped with its owner. Where util-linux's setpriv is
 * present, anvil also gets a parent-death signal, so even a `kill -9` of the owner leaves no anvil behind.
 */
import { spawn } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** A running anvil. */
export interface Anvil {
  rpcUrl: string;
  port: number;
  chainId: number;
  /** Process id of anvil itself. */
  pid: number;
  /** SIGTERM (SIGKILL after 3 s) and wait for the exit; safe to call twice. */
  stop(): Promise<void>;
}

/** anvil did not start or answer. */
export class AnvilError extends Error {
  override name = "AnvilError";
}

const SETPRIV = "/usr/bin/setpriv";
const START_TIMEOUT_MS = 15_000;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The anvil binary: ANVIL_BIN when set, else the optional dependency @foundry-rs/anvil-linux-amd64 (Linux x64
 * only). Undefined, with the reason, when there is none.
 */
export function findAnvil(env: Record<string, string | undefined> = process.env): { found: true; path: string } | { found: false; reason: string } {
  const configured = env.ANVIL_BIN?.trim();
  if (configured) return executable(configured) ? { found: true, path: configured } : { found: false, reason: `ANVIL_BIN=${configured} is not an executable file` };
  try {
    const pkg = createRequire(import.meta.url).resolve("@foundry-rs/anvil-linux-amd64/package.json");
    const path = join(dirname(pkg), "bin", "anvil");
    if (executable(path)) return { found: true, path };
    return { found: false, reason: `${path} is not executable` };
  } catch {
    return {
      found: false,
      reason: `anvil is not installed (the optional package @foundry-rs/anvil-linux-amd64 exists for Linux x64 only; this is ${process.platform}-${process.arch}); install Foundry and set ANVIL_BIN`,
    };
  }
}

async function chainIdOf(rpcUrl: string): Promise<number | undefined> {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as { result?: string };
    return body.result ? Number(body.result) : undefined;
  } catch {
    return undefined;
  }
}

/** Start anvil with `chainId` on 127.0.0.1 and wait (up to 15 s) until it answers eth_chainId with it. */
export async function startAnvil(options: { chainId: number; bin?: string }): Promise<Anvil> {
  const found = options.bin ? { found: true as const, path: options.bin } : findAnvil();
  if (!found.found) throw new AnvilError(found.reason);
  const anvilArgs = ["--host", "127.0.0.1", "--port", "0", "--chain-id", String(options.chainId)];
  const [command, args] = executable(SETPRIV) ? [SETPRIV, ["--pdeathsig", "TERM", "--", found.path, ...anvilArgs]] : [found.path, anvilArgs];
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });

  let output = "";
  let exit: string | undefined;
  let spawnError: Error | undefined;
  // Settles when anvil exits, or when it never ran (a spawn error emits no exit).
  const exited = new Promise<void>((ok) => {
    child.once("exit", (code, signal) => {
      exit = signal ? `signal ${signal}` : `code ${code}`;
      ok();
    });
    child.once("error", (err) => {
      spawnError = err;
      exit ??= `spawn error: ${err.message}`;
      ok();
    });
  });
  const stop = async () => {
    if (exit === undefined) {
      child.kill("SIGTERM");
      const force = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(force);
    }
  };

  try {
    const port = await new Promise<number>((ok, fail) => {
      const timer = setTimeout(() => fail(new AnvilError(`anvil did not listen within ${START_TIMEOUT_MS / 1000} s: ${output.slice(-300).trim()}`)), START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        // Keep only the tail: anvil prints its accounts first, the listening line last.
        output = (output + chunk.toString()).slice(-4000);
        const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearTimeout(timer);
          ok(Number(match[1]));
        }
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", onData);
      void exited.then(() => {
        clearTimeout(timer);
        fail(
          new AnvilError(spawnError ? `cannot run ${found.path}: ${spawnError.message}` : `anvil exited (${exit}) before listening: ${output.slice(-300).trim()}`),
        );
      });
    });
    // Past the banner, anvil logs every RPC call: read and drop it so the pipe never fills.
    child.stdout.removeAllListeners("data").resume();
    child.stderr.removeAllListeners("data").resume();
    const rpcUrl = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + START_TIMEOUT_MS;
    while ((await chainIdOf(rpcUrl)) !== options.chainId) {
      if (exit !== undefined) throw new AnvilError(`anvil exited (${exit}) before answering on ${rpcUrl}`);
      if (Date.now() > deadline) throw new AnvilError(`anvil did not answer eth_chainId ${options.chainId} on ${rpcUrl}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return { rpcUrl, port, chainId: options.chainId, pid: child.pid!, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}
