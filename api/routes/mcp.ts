/**
 * POST /mcp: this service as a Model Context Protocol server over Streamable HTTP (stateless, JSON answers),
 * with the official SDK's web-standard transport. Tools and resources come from the route registry
 * (api/mcp/tools.ts); each tool call is dispatched into the running app with the MCP request's own
 * Authorization and client address, so it is limited and billed exactly as the same HTTP call.
 */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { clip } from "../http/clip.ts";
import { z } from "zod";
import { inProcessCall } from "../mcp/dispatch.ts";
import { createMcpServer } from "../mcp/server.ts";
import { defineRoute } from "../registry/define.ts";
import { ApiError } from "../registry/types.ts";

/** The MCP endpoint. */
export const mcpRoutes = [
  defineRoute({
    method: "POST",
    path: "/mcp",
    tier: "discovery",
    summary: "Model Context Protocol server (Streamable HTTP, stateless): every free, preview and premium endpoint and the bearer's balance and watches as tools, the snapshots and /llms.txt as resources.",
    description:
      "Send JSON-RPC messages as the MCP Streamable HTTP transport does (Accept: application/json, text/event-stream); answers are JSON, no session is kept. Tool names are the route paths without /api/, parameters as their names, separators as underscores (e.g. premium_route_verdict). Premium tools need `Authorization: Bearer <token>` on the MCP request and are billed exactly as the HTTP call; without a token the tool result (isError) carries the payment instructions of the 402. The per-IP limit of free routes applies to this endpoint and to each free tool call. Resources: agentfeed:/api/... for the free snapshot endpoints, agentfeed:/llms.txt.",
    tags: ["discovery", "mcp"],
    body: z.unknown(),
    // A body that is not JSON gets the JSON-RPC parse error, as the transport itself answers it.
    notJsonBody: () => jsonRpcError(-32700, "Parse error: the request body is not valid JSON"),
    response: z.unknown().meta({ description: "A JSON-RPC response (or batch) of the MCP protocol." }),
    errors: {
      400: "a body that is not valid JSON: the JSON-RPC parse error (-32700, id null); an MCP-Protocol-Version the server does not support (-32000, the value cut to 64 characters); a body over the size or depth limit keeps the service's error body",
      406: "the Accept header does not list both application/json and text/event-stream, as the Streamable HTTP transport requires (the body is a JSON-RPC error, as every error of the protocol itself is)",
      503: "the MCP endpoint is not wired on this instance",
    },
    handle: async (ctx, { body }) => {
      const unsupported = unsupportedProtocolVersion(ctx.request.headers.get("mcp-protocol-version"));
      if (unsupported) return unsupported;
      const call = inProcessCall({ clientIp: ctx.clientIp, authorization: ctx.request.headers.get("authorization"), userAgent: ctx.request.headers.get("user-agent") });
      if (!call) throw new ApiError(503, "mcp_unavailable", "the MCP endpoint is not wired on this instance");
      const server = createMcpServer(ctx.routes ?? [], call);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      await server.connect(transport);
      try {
        return await transport.handleRequest(ctx.request, { parsedBody: body });
      } finally {
        await server.close();
      }
    },
  }),
];

/**
 * The transport's 400 for an MCP-Protocol-Version it does not support, answered here because the transport
 * repeats the header whole (a 15,000-character header came back in the message); the value is made visible and
 * cut. Null when the header is absent or supported.
 */
function unsupportedProtocolVersion(header: string | null): Response | null {
  if (header === null || SUPPORTED_PROTOCOL_VERSIONS.includes(header)) return null;
  return jsonRpcError(-32000, `Bad Request: Unsupported protocol version: ${clip(header, 64)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`);
}

/** A 400 whose body is a JSON-RPC error without a request id, as the transport answers a request it cannot take. */
function jsonRpcError(code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } }), { status: 400, headers: { "Content-Type": "application/json" } });
}
