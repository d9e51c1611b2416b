/**
 * The MCP server of this service, on the official SDK's low-level Server: tools/list and resources/list answer
 * the catalog built once from the registry (./tools.ts); tools/call and resources/read make the matching HTTP
 * request through `call`, which the transport supplies (the stdio CLI: fetch to --base-url with the
 * environment's token; /mcp: the running app itself, with the MCP request's own Authorization and client
 * address). A 4xx or 5xx answer comes back as a tool result with `isError` and the service's JSON body (for a
 * premium call without a token: the payment instructions of the 402), never as a protocol failure. A call with
 * an argument its tool does not declare is a tool error before any request is made; params that do not fit the
 * method's MCP schema, and an unknown resource, are JSON-RPC -32602 with a short message.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  type JSONRPCRequest,
  type ServerResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { AnyRoute } from "../registry/types.ts";
import { mcpCatalog, quoted, toolRequest, unknownArguments, type McpTool } from "./tools.ts";

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

  // The handlers sit behind the fallback, not setRequestHandler: the SDK parses a registered method's params
  // itself and answers a mismatch as -32603 with the zod dump; here it is -32602 with a short message.
  const handlers: Record<string, (request: JSONRPCRequest) => Promise<ServerResult>> = {
    "tools/list": checked(ListToolsRequestSchema, async () => ({ tools: listed })),
    "tools/call": checked(CallToolRequestSchema, async ({ params }) => {
      const tool = byName.get(params.name);
      if (!tool) return toolError({ ok: false, error: "unknown_tool", message: `no tool named ${quoted(params.name, 100)}` });
      const args = params.arguments ?? {};
      const unknown = unknownArguments(tool, args);
      if (unknown.length > 0) return toolError(unknownArgumentsError(tool, unknown));
      const missing = missingPathArguments(tool, args);
      if (missing.length > 0) return toolError(missingArgumentsError(tool, missing));
      const answer = await call(toolRequest(tool, args));
      const text = answer.status === 402 ? withMcpPayment(answer.text) : answer.text;
      return { ...(answer.status >= 400 ? { isError: true } : {}), content: [{ type: "text" as const, text: capped(text) }] };
    }),
    "resources/list": checked(ListResourcesRequestSchema, async () => ({
      resources: resources.map((r) => ({ uri: `${RESOURCE_SCHEME}${r.path}`, name: r.name, description: r.description, mimeType: r.mimeType })),
    })),
    "resources/read": checked(ReadResourceRequestSchema, async ({ params }) => {
      const path = params.uri.startsWith(RESOURCE_SCHEME) ? params.uri.slice(RESOURCE_SCHEME.length) : "";
      const resource = resources.find((r) => r.path === path);
      if (!resource) {
        // -32602 as the SDK's own McpServer answers an unknown resource (the SDK defines no -32002).
        const uri = quoted(params.uri, 200);
        throw new RpcError(ErrorCode.InvalidParams, `unknown resource ${uri}; resources/list names the ${resources.length} resources`, { uri });
      }
      const answer = await call({ method: "GET", path });
      if (answer.status >= 400) throw new Error(`${path} answered ${answer.status}: ${answer.text.slice(0, 500)}`);
      return { contents: [{ uri: params.uri, mimeType: resource.mimeType, text: capped(answer.text) }] };
    }),
  };
  server.fallbackRequestHandler = async (request) => {
    const handler = Object.hasOwn(handlers, request.method) ? handlers[request.method] : undefined;
    if (!handler) throw new RpcError(ErrorCode.MethodNotFound, "Method not found");
    return handler(request);
  };

  return server;
}

/** How many problems an invalid-params message names. */
const MAX_LISTED_ISSUES = 3;

/** A handler that first checks the request against the SDK's schema: a mismatch is -32602 with a short message. */
function checked<S extends z.ZodType, R extends ServerResult>(schema: S, run: (request: z.output<S>) => Promise<R>): (request: JSONRPCRequest) => Promise<ServerResult> {
  return async (request) => {
    const parsed = schema.safeParse(request);
    if (!parsed.success) throw new RpcError(ErrorCode.InvalidParams, invalidParamsMessage(request, parsed.error.issues));
    return run(parsed.data);
  };
}

/** One line per problem (at most three), e.g. `invalid params of tools/call: params.arguments must be an object`. */
function invalidParamsMessage(request: JSONRPCRequest, issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.slice(0, MAX_LISTED_ISSUES).map((issue) => {
    const path = quoted(issue.path.map(String).join(".") || "params", 100);
    if (issue.code === "invalid_type") {
      const expected = issue.expected === "record" ? "an object" : `a${/^[aeiou]/.test(issue.expected) ? "n" : ""} ${issue.expected}`;
      return valueAt(request, issue.path) === undefined ? `${path} is required (${expected})` : `${path} must be ${expected}`;
    }
    return `${path}: ${quoted(issue.message, 200)}`;
  });
  const more = issues.length - lines.length;
  return `invalid params of ${quoted(request.method, 50)}: ${lines.join("; ")}${more > 0 ? ` (and ${more} more)` : ""}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const key of path) at = at !== null && typeof at === "object" && Object.hasOwn(at, key) ? (at as Record<PropertyKey, unknown>)[key] : undefined;
  return at;
}

/**
 * A JSON-RPC error whose message is sent as written. The SDK answers a thrown error with its `code`, `message`
 * and `data`; its own McpError would put "MCP error <code>: " in the message, which clients print again.
 */
class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

/**
 * The path arguments of `tool` the call leaves out (or empty): the route's path cannot be built without them,
 * where a missing query or body argument is the route's own 400.
 */
function missingPathArguments(tool: McpTool, args: Record<string, unknown>): string[] {
  return Object.entries(tool.argsIn)
    .filter(([name, where]) => where === "path" && (args[name] === undefined || args[name] === null || args[name] === ""))
    .map(([name]) => name);
}

function missingArgumentsError(tool: McpTool, missing: readonly string[]): Record<string, unknown> {
  return {
    ok: false,
    error: "invalid_params",
    message: `${tool.name} needs ${missing.join(" and ")} (part of the endpoint's path). Nothing was run or charged.`,
    issues: missing.map((name) => ({ path: name, code: "invalid_type", message: "required" })),
    accepted: Object.keys(tool.argsIn),
  };
}

/** The tool error of a call with arguments its tool does not declare (the invalid-input shape of the HTTP API). */
function unknownArgumentsError(tool: McpTool, unknown: readonly string[]): Record<string, unknown> {
  const accepted = Object.keys(tool.argsIn);
  const listed = unknown.slice(0, 10);
  const names = `${listed.join(", ")}${unknown.length > listed.length ? ` and ${unknown.length - listed.length} more` : ""}`;
  return {
    ok: false,
    error: "invalid_params",
    message: `${tool.name} has no argument${unknown.length > 1 ? "s" : ""} ${names}; it accepts ${accepted.length > 0 ? accepted.join(", ") : "none"}. Nothing was run or charged.`,
    issues: listed.map((name) => ({ path: name, code: "unrecognized_keys", message: "not an argument of this tool" })),
    accepted,
  };
}

/** How a premium tool is paid over MCP, where the x402 retry headers of a 402 cannot be sent. */
export const MCP_PAYMENT =
  "Over MCP a premium tool is paid with a bearer token: buy credits (POST /api/payment/buy-credits, then POST /api/payment/confirm; see /api/payment/info), then send Authorization: Bearer <token> with the /mcp request (stdio: AGENTFEED_TOKEN). The x402 payment headers cannot be sent through tools/call.";

/** A 402 body with `mcp_payment` added (a body that is not a JSON object is left as it is). */
function withMcpPayment(text: string): string {
  try {
    const body = JSON.parse(text) as unknown;
    if (body === null || typeof body !== "object" || Array.isArray(body)) return text;
    return JSON.stringify({ ...(body as Record<string, unknown>), mcp_payment: MCP_PAYMENT });
  } catch {
    return text;
  }
}

function toolError(body: Record<string, unknown>): ServerResult {
  return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(body) }] };
}

function capped(text: string): string {
  return text.length > MAX_ANSWER_CHARS ? `${text.slice(0, MAX_ANSWER_CHARS)}\n… (cut at ${MAX_ANSWER_CHARS} characters)` : text;
}
