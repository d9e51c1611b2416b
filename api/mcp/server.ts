/**
 * The MCP server of this service, on the official SDK's low-level Server: tools/list and resources/list answer
 * the catalog built once from the registry (./tools.ts); tools/call and resources/read make the matching HTTP
 * request through `call`, which the transport supplies (the stdio CLI: fetch to --base-url with the
 * environment's token; /mcp: the running app itself, with the MCP request's own Authorization and client
 * address). A 4xx or 5xx answer comes back as a tool result with `isError` and the service's JSON body (for a
 * premium call without a token: the payment instructions of the 402), never as a protocol failure.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListResourcesRequestSchema, ListToolsRequestSchema, ReadResourceRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { AnyRoute } from "../registry/types.ts";
import { mcpCatalog, toolRequest } from "./tools.ts";

/** One HTTP exchange with the service. */
export interface ServiceCall {
  method: string;
  /** Path and query, e.g. /api/premium/route-verdict?task=code. */
  path: string;
  body?: string;
}

/** The service's answer: status, content type and body text. */
export interface ServiceAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Largest answer passed to a client, in characters (larger ones are cut with a note). */
const MAX_ANSWER_CHARS = 1_000_000;
/** Resource URIs: this scheme and the service path. */
export const RESOURCE_SCHEME = "agentfeed:";

/** The server's name and version as it introduces itself. */
export const MCP_SERVER_INFO = { name: "agentfeed", version: "0.1.0" } as const;

/** A new MCP server over `routes`; every call goes through `call`. */
export function createMcpServer(routes: readonly AnyRoute[], call: (request: ServiceCall) => Promise<ServiceAnswer>): Server {
  const { tools, resources } = mcpCatalog(routes);
  const byName = new Map(tools.map((t) => [t.name, t]));
  const listed = tools.map((t) => ({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  const server = new Server(MCP_SERVER_INFO, {
    capabilities: { tools: {}, resources: {} },
    instructions:
      "AI ecosystem data as JSON: news, provider status, model prices and benchmarks, GPU prices, papers, registries (free tools), and computed verdicts and history series (premium tools, paid in credits with a bearer token). /llms.txt (a resource) explains the service.",
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: listed }));

  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = byName.get(request.params.name);
    if (!tool) return { isError: true, content: [{ type: "text" as const, text: JSON.stringify({ ok: false, error: "unknown_tool", message: `no tool named ${request.params.name.slice(0, 100)}` }) }] };
    const answer = await call(toolRequest(tool, request.params.arguments ?? {}));
    return { ...(answer.status >= 400 ? { isError: true } : {}), content: [{ type: "text" as const, text: capped(answer.text) }] };
  });

  server.setRequestHandler(ListResourcesRequestSchema, () => ({
    resources: resources.map((r) => ({ uri: `${RESOURCE_SCHEME}${r.path}`, name: r.name, description: r.description, mimeType: r.mimeType })),
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const path = request.params.uri.startsWith(RESOURCE_SCHEME) ? request.params.uri.slice(RESOURCE_SCHEME.length) : "";
    const resource = resources.find((r) => r.path === path);
    if (!resource) throw new Error(`unknown resource ${request.params.uri.slice(0, 200)}`);
    const answer = await call({ method: "GET", path });
    if (answer.status >= 400) throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
    return { contents: [{ uri: request.params.uri, mimeType: resource.mimeType, text: capped(answer.text) }] };
  });

  return server;
}

function capped(text: string): string {
  return text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}\n… (cut at ${MAX_ANSWER_CHARS} characters)` : text;
}
