/**
 * `npm run --silent mcp -- --base-url <url>`: this service as an MCP server on stdio, for an agent that starts
 * it as a subprocess. Tools and resources come from this checkout's route registry; each tool call is an
 * HTTP request to the service at --base-url (default http://localhost:3000), with the bearer token in
 * AGENTFEED_TOKEN when set. Nothing but protocol messages is written to stdout; notices go to stderr.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { routes } from "../registry/index.ts";
import { createMcpServer, type ServiceAnswer, type ServiceCall } from "./server.ts";

/** How long one tool call may take, in ms. */
const CALL_TIMEOUT_MS = 60_000;

/** The --base-url argument (or its default), checked: an http(s) URL without credentials, no trailing slash. */
export function baseUrlFrom(argv: readonly string[]): string {
  const i = argv.indexOf("--base-url");
  const inline = argv.find((a) => a.startsWith("--base-url="))?.slice("--base-url=".length);
  const raw = inline ?? (i >= 0 ? argv[i + 1] : undefined) ?? "http://localhost:3000";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`--base-url must be an http(s) URL, got ${JSON.stringify(raw.slice(0, 200))}`);
  }
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) throw new Error(`--base-url must be an http(s) URL without credentials, got ${JSON.stringify(raw.slice(0, 200))}`);
  return url.href.replace(/\/+$/, "");
}

/** A `call` that sends the request to the service at `baseUrl` over HTTP, with `token` as bearer when given. */
export function httpCall(baseUrl: string, token: string | undefined): (request: ServiceCall) => Promise<ServiceAnswer> {
  return async ({ method, path, body }) => {
    const headers: Record<string, string> = { accept: "application/json", "user-agent": "agentfeed-mcp-stdio" };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    try {
      const response = await fetch(`${baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
      return { status: response.status, contentType: response.headers.get("content-type") ?? "", text: await response.text() };
    } catch (err) {
      const message = `the service at ${baseUrl} did not answer: ${(err as Error).message}`.slice(0, 500);
      return { status: 502, contentType: "application/json", text: JSON.stringify({ ok: false, error: "service_unreachable", message }) };
    }
  };
}

async function main(): Promise<void> {
  let baseUrl: string;
  try {
    baseUrl = baseUrlFrom(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`agentfeed-mcp: ${(err as Error).message}\n`);
    process.exit(2);
  }
  const token = process.env.AGENTFEED_TOKEN?.trim() || undefined;
  const server = createMcpServer(routes, httpCall(baseUrl, token));
  await server.connect(new StdioServerTransport());
  process.stderr.write(`agentfeed-mcp: serving ${baseUrl} on stdio${token ? " with a bearer token" : " (no AGENTFEED_TOKEN: premium tools answer with payment instructions)"}\n`);
}

if (import.meta.url === `file://${process.argv[1]}`) void main();
