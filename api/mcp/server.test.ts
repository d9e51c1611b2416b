import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, describe, expect, it } from "vitest";
import { routes } from "../registry/index.ts";
import { createMcpServer, type ServiceCall } from "./server.ts";

type Json = Record<string, any>;

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((close) => close()));
});

/** The server over an in-memory transport with a stub service; `rpc` sends one raw request and returns its answer. */
async function connect() {
  const calls: ServiceCall[] = [];
  const server = createMcpServer(routes, async (request) => {
    calls.push(request);
    return { status: 200, contentType: "application/json", text: JSON.stringify({ ok: true }) };
  });
  const [client, serverSide] = InMemoryTransport.createLinkedPair();
  const waiting = new Map<number, (message: Json) => void>();
  client.onmessage = (message: JSONRPCMessage) => {
    const id = (message as Json).id as number;
    waiting.get(id)?.(message as Json);
    waiting.delete(id);
  };
  await server.connect(serverSide);
  await client.start();
  open.push(() => server.close());
  let next = 1;
  const rpc = (method: string, params: unknown): Promise<Json> => {
    const id = next++;
    const answer = new Promise<Json>((resolve) => waiting.set(id, resolve));
    void client.send({ jsonrpc: "2.0", id, method, params } as JSONRPCMessage);
    return answer;
  };
  return { rpc, calls };
}

const toolBody = (answer: Json): Json => JSON.parse(answer.result.content[0].text as string) as Json;

describe("MCP server: arguments a tool does not declare", () => {
  it("refuses the call as a tool error naming the unknown and the accepted arguments, before any request is made", async () => {
    const { rpc, calls } = await connect();
    const misspelled = await rpc("tools/call", { name: "premium_routing", arguments: { task: "code", topn: 1 } });
    expect(misspelled.result.isError).toBe(true);
    const body = toolBody(misspelled);
    expect(body).toMatchObject({ ok: false, error: "invalid_params", issues: [{ path: "topn", code: "unrecognized_keys" }] });
    expect(body.message).toMatch(/premium_routing has no argument topn; it accepts task, .*top_n/);
    expect(body.accepted).toContain("top_n");

    const bogus = await rpc("tools/call", { name: "gpu_pricing_cheapest", arguments: { gpu: "H100-SXM", bogus: 1, junk: 2 } });
    expect(bogus.result.isError).toBe(true);
    expect(toolBody(bogus).message).toBe("gpu_pricing_cheapest has no arguments bogus, junk; it accepts gpu, type. Nothing was run or charged.");
    expect(calls).toEqual([]);
  });

  it("quotes an unknown name cut short and without control characters, and lists at most ten", async () => {
    const { rpc, calls } = await connect();
    const args: Json = { [`evil\u0000\n\u202e${"x".repeat(5000)}`]: 1 };
    for (let i = 0; i < 30; i++) args[`extra${i}`] = i;
    const answer = await rpc("tools/call", { name: "gpu_pricing_cheapest", arguments: args });
    const body = toolBody(answer);
    expect(answer.result.content[0].text.length).toBeLessThan(2000);
    expect(body.message).toMatch(/^gpu_pricing_cheapest has no arguments evil\?\?\?x+…, extra0, .* and 21 more;/);
    expect(body.issues).toHaveLength(10);
    expect(calls).toEqual([]);
  });

  it("still sends a call whose arguments are all declared", async () => {
    const { rpc, calls } = await connect();
    const answer = await rpc("tools/call", { name: "premium_routing", arguments: { task: "code", top_n: 1 } });
    expect(answer.result.isError).toBeUndefined();
    expect(calls).toEqual([{ method: "GET", path: "/api/premium/routing?task=code&top_n=1" }]);
    expect(toolBody(await rpc("tools/call", { name: "gpu_pricing_cheapest" }))).toEqual({ ok: true });
  });
});

describe("MCP server: path arguments left out", () => {
  it("refuses the call as a tool error naming the missing path argument, instead of requesting the path's placeholder", async () => {
    const { rpc, calls } = await connect();
    const answer = await rpc("tools/call", { name: "history_date_type", arguments: { date: "2026-11-27" } });
    expect(answer.result.isError).toBe(true);
    expect(toolBody(answer)).toMatchObject({ ok: false, error: "invalid_params", issues: [{ path: "type" }] });
    expect(toolBody(answer).message).toBe("history_date_type needs type (part of the endpoint's path). Nothing was run or charged.");
    const none = await rpc("tools/call", { name: "history_date_type", arguments: { date: "", type: null } });
    expect(toolBody(none).message).toMatch(/^history_date_type needs date and type /);
    expect(calls).toEqual([]);
    await rpc("tools/call", { name: "history_date_type", arguments: { date: "2026-11-27", type: "status" } });
    expect(calls).toEqual([{ method: "GET", path: "/api/history/2026-11-27/status" }]);
  });
});

describe("MCP server: malformed requests are JSON-RPC errors", () => {
  it("answers tools/call without a name, or with arguments that are not an object, -32602 with a one-line message", async () => {
    const { rpc, calls } = await connect();
    const noName = await rpc("tools/call", {});
    expect(noName.error.code).toBe(-32602);
    expect(noName.error.message).toBe("invalid params of tools/call: params.name is required (a string)");
    const array = await rpc("tools/call", { name: "gpu_pricing_cheapest", arguments: [1, 2] });
    expect(array.error.code).toBe(-32602);
    expect(array.error.message).toBe("invalid params of tools/call: params.arguments must be an object");
    expect((await rpc("tools/call", undefined)).error.code).toBe(-32602);
    expect((await rpc("tools/list", { cursor: 5 })).error.code).toBe(-32602);
    expect(calls).toEqual([]);
  });

  it("answers resources/read of an unknown URI -32602 with the URI cut and cleaned, and a missing URI -32602", async () => {
    const { rpc, calls } = await connect();
    const unknown = await rpc("resources/read", { uri: "agentfeed:/nope" });
    expect(unknown.error).toMatchObject({ code: -32602, data: { uri: "agentfeed:/nope" } });
    expect(unknown.error.message).toMatch(/unknown resource agentfeed:\/nope; resources\/list names/);
    const hostile = await rpc("resources/read", { uri: `agentfeed:/\r\n${"y".repeat(10_000)}` });
    expect(hostile.error.code).toBe(-32602);
    expect(hostile.error.message.length).toBeLessThan(400);
    expect(hostile.error.message).not.toMatch(/[\r\n]/);
    expect((await rpc("resources/read", {})).error).toMatchObject({ code: -32602, message: expect.stringMatching(/params\.uri is required/) });
    expect(calls).toEqual([]);
  });

  it("still answers the known methods, and an unknown method -32601", async () => {
    const { rpc } = await connect();
    expect((await rpc("tools/list", {})).result.tools.length).toBeGreaterThan(10);
    expect((await rpc("resources/list", {})).result.resources.map((r: Json) => r.uri)).toContain("agentfeed:/llms.txt");
    expect((await rpc("resources/read", { uri: "agentfeed:/llms.txt" })).result.contents[0]).toMatchObject({ uri: "agentfeed:/llms.txt", text: '{"ok":true}' });
    expect((await rpc("prompts/list", {})).error.code).toBe(-32601);
    expect((await rpc("ping", {})).result).toEqual({});
  });
});
