/**
 * POST /mcp of a real API process (bundled snapshots made fresh, a temp Postgres, a token with credits minted
 * directly): a tool call with an argument its tool does not declare is refused before the route runs, so a paid
 * call is not charged; malformed tools/call params and an unknown resource are JSON-RPC errors -32602, a body
 * that is not JSON the parse error -32700; the RateLimit headers of /mcp count the tool call it dispatched.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCredits } from "../billing/credits.ts";
import { startPaidServers, type PaidServers } from "../e2e/paid-servers.ts";
import { freshBundledCopy } from "../testing/bundled-server.ts";
import type { SpawnedApi } from "../testing/spawn-api.ts";

type Json = Record<string, any>;

let run: PaidServers<"api"> | undefined;
let api: SpawnedApi | undefined;
let token = "";

beforeAll(async () => {
  // One API process on a fresh copy of the bundled snapshots (removed by stop), a temp Postgres, 5 credits.
  run = await startPaidServers({ api: await freshBundledCopy({ warehouse: false }) }, 5, "test:mcp-arguments", { WATCHES_ALLOW_PRIVATE_CALLBACKS: "1", RATE_LIMIT_PER_MINUTE: "120" });
  api = run.servers.api;
  token = run.token;
}, 180_000);

afterAll(async () => {
  await run?.stop();
});

// Read from the database: this instance has no payment chain, so its payment routes are off.
const balance = async (): Promise<number> => (await createCredits(run!.db).tokenByBearer(token))!.balance;
const textOf = (result: unknown): string => (result as { content: { text: string }[] }).content[0]?.text ?? "";

/** One raw JSON-RPC request to /mcp (no initialize needed: the endpoint is stateless). */
async function rpc(method: string, params: unknown): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${api!.base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 7, method, params }),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

describe("POST /mcp", () => {
  it("sends the RateLimit-Remaining left after the tool call it dispatched, which counts as a request of its own", async () => {
    const call = async () => {
      const res = await fetch(`${api!.base}/mcp`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "status_summary", arguments: {} } }),
      });
      await res.arrayBuffer();
      return Number(res.headers.get("ratelimit-remaining"));
    };
    const first = await call();
    const second = await call();
    expect(second).toBe(first - 2);
    const plain = await fetch(`${api!.base}/api/status/summary`);
    await plain.arrayBuffer();
    expect(Number(plain.headers.get("ratelimit-remaining"))).toBe(second - 1);
  });

  it("refuses a tool call with an undeclared argument as a tool error, before it is run or charged", { timeout: 60_000 }, async () => {
    const client = new Client({ name: "mcp-arguments", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api!.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      const before = await balance();
      const misspelled = await client.callTool({ name: "premium_routing", arguments: { task: "code", topn: 1 } });
      expect(misspelled.isError).toBe(true);
      expect(JSON.parse(textOf(misspelled))).toMatchObject({ ok: false, error: "invalid_params", message: expect.stringMatching(/no argument topn; it accepts .*top_n/) });
      expect(await balance()).toBe(before);

      const free = await client.callTool({ name: "gpu_pricing_cheapest", arguments: { gpu: "H100-SXM", bogus: 1 } });
      expect(free.isError).toBe(true);
      expect(JSON.parse(textOf(free)).message).toMatch(/^gpu_pricing_cheapest has no argument bogus; it accepts gpu, type\./);

      const spelled = await client.callTool({ name: "premium_routing", arguments: { task: "code", top_n: 1 } });
      expect(spelled.isError, textOf(spelled).slice(0, 400)).toBeFalsy();
      expect(JSON.parse(textOf(spelled)).recommendations).toHaveLength(1);
      expect(await balance()).toBe(before - 1);
    } finally {
      await client.close();
    }
  });

  it("registers a watch and then lists, reads, tests and deletes it through tools, the management free", { timeout: 60_000 }, async () => {
    const client = new Client({ name: "mcp-watches", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${api!.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const call = async (name: string, args: Record<string, unknown>): Promise<Json> => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${textOf(result).slice(0, 400)}`).toBeFalsy();
      return JSON.parse(textOf(result)) as Json;
    };
    try {
      const created = await call("premium_watches_post", { spec: { type: "digest", cadence: "daily" }, callback_url: "http://127.0.0.1:9/hook" });
      const id = created.watch.id as string;
      const afterRegistration = await balance();
      expect((await call("premium_watches", {})).watches.map((w: Json) => w.id)).toContain(id);
      expect((await call("premium_watches_id", { id })).watch).toMatchObject({ id, status: "active" });
      expect(await call("premium_watches_id_test_post", { id })).toMatchObject({ ok: true, event: "watch.test", state: "pending" });
      expect(await call("premium_watches_id_delete", { id })).toMatchObject({ ok: true, watch: { id, status: "deleted" }, refunded_credits: 0 });
      expect(await balance()).toBe(afterRegistration);

      const missing = await client.callTool({ name: "premium_watches_id", arguments: { id: "wat_000000000000000000000000" } });
      expect(missing.isError).toBe(true);
      expect(JSON.parse(textOf(missing))).toMatchObject({ ok: false, error: "watch_not_found" });
    } finally {
      await client.close();
    }
  });

  it("answers malformed tools/call params and an unknown resource with JSON-RPC -32602", async () => {
    for (const params of [{}, { name: "gpu_pricing_cheapest", arguments: ["gpu"] }]) {
      const { status, body } = await rpc("tools/call", params);
      expect(status).toBe(200);
      expect(body).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } });
      expect(body.error.message).toMatch(/^invalid params of tools\/call: params\.(name|arguments) /);
      expect(body.error.message).not.toContain("\n");
    }
    const unknown = await rpc("resources/read", { uri: "agentfeed:/api/nothing" });
    expect(unknown.body).toMatchObject({ id: 7, error: { code: -32602, data: { uri: "agentfeed:/api/nothing" } } });
  });

  it("refuses an unsupported MCP-Protocol-Version repeating it only cut and made visible", async () => {
    const res = await fetch(`${api!.base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", "mcp-protocol-version": `<script>${"Z".repeat(15_000)}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    expect(body.error.message).toMatch(/^Bad Request: Unsupported protocol version: <script>Z{56}… \(15008 characters\) \(supported versions: 2025-11-25, [^)]*\)$/);
  });

  it("answers a body that is not JSON with the JSON-RPC parse error", async () => {
    const res = await fetch(`${api!.base}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"',
    });
    expect(res.status).toBe(400);
    expect(res.statusText).toBe("Bad Request");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(await res.json()).toEqual({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error: the request body is not valid JSON" } });
    // The transport's own refusals (here a missing Accept) carry the reason phrase too.
    const noAccept = await fetch(`${api!.base}/mcp`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) });
    expect([noAccept.status, noAccept.statusText]).toEqual([406, "Not Acceptable"]);
  });
});
