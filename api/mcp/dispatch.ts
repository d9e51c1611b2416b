/**
 * How /mcp reaches the running app: the composition root (api/server.ts) sets the app's own web handler here
 * once the app exists, and clears it at close. A tool call is then dispatched in process, as a request with
 * the MCP caller's Authorization, user agent and client address, so limits, quotas and billing apply to the
 * caller exactly as over HTTP.
 */
import type { ServiceAnswer, ServiceCall } from "./server.ts";

/** The app's web handler (h3's `app.fetch`). */
export type AppFetch = (request: Request) => Response | Promise<Response>;

let appFetch: AppFetch | undefined;

/** Set the app /mcp dispatches to; the returned function clears it (if no other app was set since). */
export function setMcpDispatch(fetch: AppFetch): () => void {
  appFetch = fetch;
  return () => {
    if (appFetch === fetch) appFetch = undefined;
  };
}

/** The caller of one /mcp request, as the tool calls it makes carry it. */
export interface McpCaller {
  clientIp: string;
  authorization: string | null;
  userAgent: string | null;
}

/** A `call` for createMcpServer that dispatches into the app as `caller`; null when no app is set. */
export function inProcessCall(caller: McpCaller): ((request: ServiceCall) => Promise<ServiceAnswer>) | null {
  const fetch = appFetch;
  if (!fetch) return null;
  return async ({ method, path, body }) => {
    const headers = new Headers({ accept: "application/json" });
    if (caller.authorization) headers.set("authorization", caller.authorization);
    headers.set("user-agent", `${(caller.userAgent ?? "unknown").slice(0, 200)} (via MCP)`);
    if (body !== undefined) headers.set("content-type", "application/json");
    const request = new Request(new URL(path, "http://mcp.internal"), { method, headers, ...(body !== undefined ? { body } : {}) });
    // The app reads the client address from `req.ip`, as Node's adapter sets it for a socket.
    Object.defineProperty(request, "ip", { value: caller.clientIp });
    const response = await fetch(request);
    return { status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() };
  };
}
