/**
 * MCP tools and resources generated from the route registry (never a second list): every free, preview and
 * premium endpoint that answers JSON, and the free routes of the bearer's own account, becomes a tool whose input schema is its route's zod schemas (path
 * parameters, query, JSON body) as JSON Schema, and whose description is the route's own; the free snapshot
 * endpoints without required input and /llms.txt become resources. A tool call is an HTTP request to the
 * service, so it is validated, rate-limited and billed exactly as the same call over HTTP.
 */
import { z } from "zod";
import { visible } from "../http/clip.ts";
import type { AnyRoute } from "../registry/types.ts";

/** The tiers whose endpoints become tools (besides the free routes of a bearer's own account: `ownAccount`). */
const TOOL_TIERS = new Set(["free", "preview", "premium"]);

/**
 * A free route about the caller's own token (its balance, its watches: `bearer: "required"`); a tool too, so an
 * agent that registers a watch over MCP can also list, read, test and delete it. Buying credits stays on HTTP
 * (it needs an on-chain transfer from a wallet).
 */
function ownAccount(route: AnyRoute): boolean {
  return route.tier === "payment" && route.bearer === "required";
}
/** Longest description sent to a client (route descriptions document every choice and can be long). */
const MAX_DESCRIPTION = 4000;

type JsonSchema = Record<string, unknown>;

/** One tool: its MCP definition and the route it calls. */
export interface McpTool {
  name: string;
  description: string;
  inputSchema: { type: "object"; properties: Record<string, JsonSchema>; required?: string[]; additionalProperties: false };
  route: AnyRoute;
  /** Which input each argument goes to. */
  argsIn: Record<string, "path" | "query" | "body">;
}

/** One resource: a free snapshot endpoint or /llms.txt, read with a GET of `path`. */
export interface McpResource {
  path: string;
  name: string;
  description: string;
  mimeType: string;
}

/** The tool name of a route: its path without /api/, parameters as their names, separators as underscores. */
export function toolName(route: AnyRoute): string {
  const path = route.path.replace(/^\/api\//, "/");
  const base = path
    .split("/")
    .filter(Boolean)
    .map((part) => (part.startsWith(":") ? part.slice(1) : part))
    .join("_")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase();
  return route.method === "GET" ? base : `${base}_${route.method.toLowerCase()}`;
}

/** A route's answers are JSON (no feeds, files or HTML pages). */
function answersJson(route: AnyRoute): boolean {
  return !route.byteRanges && (route.contentType === undefined || route.contentType.startsWith("application/json"));
}

/** The object JSON Schema of a zod schema's input, or null when it is not an object. */
function objectSchema(schema: z.ZodType | undefined): { properties: Record<string, JsonSchema>; required: string[] } | null {
  if (!schema) return { properties: {}, required: [] };
  let json: JsonSchema;
  try {
    json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
  } catch {
    return null;
  }
  if (json.type !== "object") return null;
  const properties = { ...((json.properties ?? {}) as Record<string, JsonSchema>) };
  const required = ((json.required as string[] | undefined) ?? []).filter((name) => properties[name]?.default === undefined);
  return { properties, required };
}

function describe(route: AnyRoute): string {
  const parts = [route.summary];
  if (route.tier === "premium") {
    parts.push(
      `Premium: ${route.cost ?? 1} credit(s) per successful call, nothing when the service fails or a no-charge rule applies; a signed receipt comes with the answer. Needs a bearer token (AGENTFEED_TOKEN for the stdio server, the Authorization header of the MCP HTTP request); without one the result is the payment instructions.`,
    );
  }
  if (route.tier === "preview") parts.push("Free preview with a daily quota per client.");
  if (ownAccount(route)) {
    parts.push("Free; about the bearer token's own account: needs the token (AGENTFEED_TOKEN for the stdio server, the Authorization header of the MCP HTTP request).");
  }
  if (route.description) parts.push(route.description);
  const text = parts.join("\n\n");
  return text.length > MAX_DESCRIPTION ? `${text.slice(0, MAX_DESCRIPTION - 1)}…` : text;
}

const built = new WeakMap<readonly AnyRoute[], { tools: McpTool[]; resources: McpResource[] }>();

/** Tools and resources of a registry, built once per registry array. Throws when two tools share a name or an argument name. */
export function mcpCatalog(routes: readonly AnyRoute[]): { tools: McpTool[]; resources: McpResource[] } {
  const hit = built.get(routes);
  if (hit) return hit;
  const tools: McpTool[] = [];
  const names = new Set<string>();
  for (const route of routes) {
    if (!(TOOL_TIERS.has(route.tier) || ownAccount(route)) || !answersJson(route)) continue;
    if (route.method !== "GET" && route.tier !== "premium" && !ownAccount(route)) continue;
    const inputs = [
      ["path", route.params],
      ["query", route.query],
      ["body", route.method === "GET" ? undefined : route.body],
    ] as const;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    const argsIn: McpTool["argsIn"] = {};
    let usable = true;
    for (const [where, schema] of inputs) {
      const object = objectSchema(schema);
      if (!object) {
        usable = false;
        break;
      }
      for (const [name, prop] of Object.entries(object.properties)) {
        if (argsIn[name]) throw new Error(`mcp: ${route.method} ${route.path} names ${name} in both its ${argsIn[name]} and its ${where}`);
        properties[name] = prop;
        argsIn[name] = where;
      }
      required.push(...(where === "path" ? Object.keys(object.properties) : object.required));
    }
    if (!usable) continue;
    const name = toolName(route);
    if (names.has(name)) throw new Error(`mcp: two routes make the tool name ${name}`);
    names.add(name);
    tools.push({
      name,
      description: describe(route),
      inputSchema: { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false },
      route,
      argsIn,
    });
  }
  const resources: McpResource[] = routes
    .filter((r) => r.method === "GET" && r.tier === "free" && answersJson(r) && (r.snapshots?.length ?? 0) > 0 && !r.params && (objectSchema(r.query)?.required.length ?? 1) === 0)
    .map((r) => ({ path: r.path, name: r.path, description: r.summary, mimeType: "application/json" }));
  resources.push({ path: "/llms.txt", name: "/llms.txt", description: "A short guide to this service for language models, with links to every route.", mimeType: "text/plain" });
  const catalog = { tools, resources };
  built.set(routes, catalog);
  return catalog;
}

/** Longest argument name quoted back in an error, in characters. */
const MAX_QUOTED_NAME = 64;

/** Text from a request made safe to quote: control and format characters replaced, cut to `max` characters. */
export function quoted(text: string, max: number): string {
  const clean = visible(text);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

/** The argument names of a call that `tool` does not declare, made safe to quote; empty when all are known. */
export function unknownArguments(tool: McpTool, args: Record<string, unknown>): string[] {
  return Object.keys(args)
    .filter((name) => !Object.hasOwn(tool.argsIn, name))
    .map((name) => quoted(name, MAX_QUOTED_NAME));
}

/**
 * A tool call as an HTTP request: method, path with its parameters and query, and the JSON body (POST routes).
 * Undeclared arguments are skipped here; the server refuses a call that has any (unknownArguments) first.
 */
export function toolRequest(tool: McpTool, args: Record<string, unknown>): { method: string; path: string; body?: string } {
  let path = tool.route.path;
  const query = new URLSearchParams();
  const body: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    const where = tool.argsIn[name];
    if (!where || value === undefined || value === null) continue;
    if (where === "body") body[name] = value;
    else {
      const text = Array.isArray(value) ? value.map(String).join(",") : typeof value === "object" ? JSON.stringify(value) : String(value);
      if (where === "path") path = path.replace(`:${name}`, encodeURIComponent(text));
      else query.set(name, text);
    }
  }
  const search = query.toString();
  return {
    method: tool.route.method,
    path: search ? `${path}?${search}` : path,
    ...(tool.route.method === "GET" || !tool.route.body ? {} : { body: JSON.stringify(body) }),
  };
}
