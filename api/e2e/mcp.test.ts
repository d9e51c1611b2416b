/**
 * The MCP server over both transports, driven by the official SDK's client against real processes: anvil with
 * Test USDC, the API server (embedded Postgres) on replayed snapshots, and, for stdio, `npm run mcp` as a
 * subprocess talking HTTP to that server. Each transport lists the tools (one per free, preview and premium
 * JSON endpoint of the registry), calls a free tool, calls a premium tool without a token (the payment
 * instructions of the 402, as a tool error) and with a token bought on the chain (1 credit charged, a receipt).
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { replaySnapshots } from "../../scripts/lib/replay-snapshots.ts";
import { mcpCatalog } from "../mcp/tools.ts";
import { startTestChain, paymentEnvFor, type TestChain } from "../payments/testing/chain.ts";
import { routes } from "../registry/index.ts";
import { spawnApi, type SpawnedApi } from "../testing/spawn-api.ts";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";

const ROOT = resolve(import.meta.dirname, "../..");
type Json = Record<string, any>;

let chain: TestChain | undefined;
let api: SpawnedApi | undefined;
const dirs: string[] = [];
let token = "";

/** Buy credits on the local chain: quote, Test USDC transfer, confirm; returns the bearer token. */
async function buyToken(base: string, c: TestChain): Promise<string> {
  const payer = await c.newWallet(2_000_000n);
  const quote = (await (await fetch(`${base}/api/payment/buy-credits`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ amount_usd: 1, sender_wallet: payer.address }) })).json()) as Json;
  expect(quote.ok).toBe(true);
  const tx = await c.transfer(payer, quote.wallet as `0x${string}`, 1_000_000n);
  await c.mine(1);
  const confirm = (await (await fetch(`${base}/api/payment/confirm`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ tx_hash: tx, nonce: quote.memo }) })).json()) as Json;
  expect(confirm.ok).toBe(true);
  return confirm.token as string;
}

const balance = async (): Promise<number> => ((await (await fetch(`${api!.base}/api/payment/balance`, { headers: { authorization: `Bearer ${token}` } })).json()) as Json).balance as number;
const textOf = (result: unknown): string => ((result as { content: { type: string; text: string }[] }).content[0]?.text ?? "");

beforeAll(async () => {
  const snapshots = await mkdtemp(join(tmpdir(), "agentfeed-mcp-e2e-"));
  const data = await mkdtemp(join(tmpdir(), "agentfeed-mcp-e2e-state-"));
  dirs.push(snapshots, data);
  chain = await startTestChain();
  await replaySnapshots(snapshots, ["news", "status", "pricing", "benchmarks", "gpu-pricing", "probe", "model-deprecations"]);
  const publisher = privateKeyToAccount(generatePrivateKey());
  api = await spawnApi({ SNAPSHOTS_DIR: snapshots, DATA_DIR: data, DATABASE_URL: "", RATE_LIMIT_PER_MINUTE: "0", ...paymentEnvFor(chain, publisher.address) });
  token = await buyToken(api.base, chain);
}, 180_000);

afterAll(async () => {
  await api?.stop();
  await chain?.stop();
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

/** The same checks over one connected client; `paid` is a client whose calls carry the token. */
async function exercise(open: (withToken: boolean) => Promise<Client>): Promise<void> {
  const client = await open(false);
  const paid = await open(true);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(mcpCatalog(routes).tools.map((t) => t.name).sort());
    const verdict = tools.find((t) => t.name === "premium_route_verdict")!;
    expect(verdict.description).toMatch(/credit/);
    expect(Object.keys((verdict.inputSchema as Json).properties)).toContain("task");

    const free = await client.callTool({ name: "gpu_pricing_cheapest", arguments: { gpu: "H100" } });
    expect(free.isError).toBeFalsy();
    expect(JSON.parse(textOf(free))).toMatchObject({ ok: true });

    const unpaid = await client.callTool({ name: "premium_route_verdict", arguments: { task: "code" } });
    expect(unpaid.isError).toBe(true);
    expect(JSON.parse(textOf(unpaid))).toMatchObject({ ok: false, error: "payment_required", x402Version: 2, mcp_payment: expect.stringContaining("Authorization: Bearer") });

    const bad = await client.callTool({ name: "no_such_tool", arguments: {} });
    expect(bad.isError).toBe(true);

    const before = await balance();
    const charged = await paid.callTool({ name: "premium_route_verdict", arguments: { task: "code" } });
    expect(charged.isError, textOf(charged).slice(0, 400)).toBeFalsy();
    const body = JSON.parse(textOf(charged)) as Json;
    expect(body.billing).toMatchObject({ credits_charged: 1 });
    expect(body.receipt).toBeDefined();
    expect(await balance()).toBe(before - 1);

    // A bad parameter after payment: a tool error, nothing charged.
    const invalid = await paid.callTool({ name: "premium_route_verdict", arguments: { task: "x".repeat(500) } });
    expect(invalid.isError).toBe(true);
    expect(await balance()).toBe(before - 1);

    const { resources } = await client.listResources();
    expect(resources.map((r) => r.uri)).toContain("agentfeed:/llms.txt");
    const llms = await client.readResource({ uri: "agentfeed:/llms.txt" });
    expect(JSON.stringify(llms.contents[0])).toContain("agentfeed");
  } finally {
    await client.close();
    await paid.close();
  }
}

describe("MCP server", () => {
  it("over Streamable HTTP at /mcp: tools from the registry, free and premium calls billed as HTTP", { timeout: 120_000 }, async () => {
    await exercise(async (withToken) => {
      const client = new Client({ name: "e2e", version: "1" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${api!.base}/mcp`), withToken ? { requestInit: { headers: { authorization: `Bearer ${token}` } } } : {}));
      return client;
    });
  });

  it("over stdio with `npm run mcp -- --base-url`: the same tools, calls and billing", { timeout: 120_000 }, async () => {
    await exercise(async (withToken) => {
      const client = new Client({ name: "e2e", version: "1" });
      const env: Record<string, string> = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined && e[0] !== "AGENTFEED_TOKEN"));
      if (withToken) env.AGENTFEED_TOKEN = token;
      await client.connect(new StdioClientTransport({ command: "npm", args: ["run", "--silent", "mcp", "--", "--base-url", api!.base], cwd: ROOT, env, stderr: "ignore" }));
      return client;
    });
  });
});
