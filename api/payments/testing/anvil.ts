/** Start a local anvil chain on 127.0.0.1 (a free port, chain id 8453 by default) for payment tests. */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { freePort } from "../../testing/free-port.ts";

/** Path of the anvil binary shipped in node_modules. */
export const ANVIL_BIN = fileURLToPath(new URL("../../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil", import.meta.url));

/** A running anvil. */
export interface Anvil {
  rpcUrl: string;
  port: number;
  chainId: number;
  stop(): Promise<void>;
}

/** anvil did not start or answer. */
export class AnvilError extends Error {
  override name = "AnvilError";
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

/** Start anvil and wait (up to 15 s) until it answers eth_chainId. */
export async function startAnvil(options: { chainId?: number } = {}): Promise<Anvil> {
  const chainId = options.chainId ?? 8453;
  const port = await freePort();
  const rpcUrl = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(ANVIL_BIN, ["--host", "127.0.0.1", "--port", String(port), "--chain-id", String(chainId), "--silent"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let exited = false;
  child.on("exit", () => {
    exited = true;
  });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (exited) throw new AnvilError(`anvil exited before answering on ${rpcUrl}: ${stderr.trim()}`);
    if ((await chainIdOf(rpcUrl)) === chainId) {
      return {
        rpcUrl,
        port,
        chainId,
        stop: () =>
          new Promise<void>((resolve) => {
            if (exited) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
          }),
      };
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill("SIGKILL");
  throw new AnvilError(`anvil did not answer on ${rpcUrl} within 15 s: ${stderr.trim()}`);
}
