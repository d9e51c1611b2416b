/**
 * `npm run bench:mcp`: tools/list latency of the MCP server, over Streamable HTTP at /mcp of a spawned server on
 * the bundled snapshots and over stdio (`npm run mcp`), with the official SDK's client: N calls in a row after a
 * warm-up, then p50, p99 and max in ms. Target: tools/list ≤ 50 ms. Env: BENCH_CALLS (default 200).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawnApi } from "../api/testing/spawn-api.ts";

const ROOT = resolve(import.meta.dirname, "..");
const calls = Number(process.env.BENCH_CALLS ?? 200);
if (!Number.isInteger(calls) || calls < 1 || calls > 100_000) throw new Error(`BENCH_CALLS must be an integer 1..100000, got ${process.env.BENCH_CALLS}`);

async function measure(label: string, client: Client): Promise<void> {
  for (let i = 0; i < 10; i++) await client.listTools();
  const times: number[] = [];
  let tools = 0;
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    tools = (await client.listTools()).tools.length;
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  process.stdout.write(`${label.padEnd(26)} ${String(tools).padStart(5)} tools  p50 ${at(0.5)} ms  p99 ${at(0.99)} ms  max ${times.at(-1)!.toFixed(2)} ms  (target ≤ 50 ms)\n`);
}

const data = await mkdtemp(join(tmpdir(), "agentfeed-bench-mcp-"));
const api = await spawnApi({ SNAPSHOTS_DIR: resolve(ROOT, "snapshots"), DATA_DIR: data, DATABASE_URL: "", PAYMENTS_TEST_CHAIN: "off", RATE_LIMIT_PER_MINUTE: "0" });
try {
  process.stdout.write(`bench:mcp — tools/list, ${calls} calls after 10 warm-up calls\n`);
  const http = new Client({ name: "bench", version: "1" });
  await http.connect(new StreamableHTTPClientTransport(new URL(`${api.base}/mcp`)));
  await measure("Streamable HTTP /mcp", http);
  await http.close();
  const stdio = new Client({ name: "bench", version: "1" });
  await stdio.connect(new StdioClientTransport({ command: "npm", args: ["run", "--silent", "mcp", "--", "--base-url", api.base], cwd: ROOT, stderr: "ignore" }));
  await measure("stdio (npm run mcp)", stdio);
  await stdio.close();
} finally {
  await api.stop();
  await rm(data, { recursive: true, force: true });
}
