/**
 * The OpenAPI 3.1.0 document, generated from the registry with zod-openapi: every route's path and query
 * parameters, its success schema and content type, and the shared error body.
 */
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { RouteDef } from "../registry/types.ts";
import { openApiPath } from "./endpoints.ts";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** Added to the document's description under PREMIUM_BILLING=off. */
const PREMIUM_BILLING_OFF =
  " Premium billing is off on this instance (PREMIUM_BILLING=off): premium routes are served without a token, without charge and without receipts; their answers carry no billing or receipt.";

/** Interface version declared in the document and in /api/meta. */
export const API_VERSION = "1.0.0";

/** The error body every 4xx/5xx carries. */
export const ErrorSchema = z
  .object({
    ok: z.literal(false),
    error: z.string().meta({ description: "Machine-readable code, e.g. invalid_query, not_found, rate_limited." }),
    message: z.string(),
    issues: z
      .array(z.object({ path: z.string(), code: z.string(), message: z.string() }))
      .optional()
      .meta({ description: "Present on invalid_query / invalid_params / invalid_body." }),
  })
  .meta({ id: "Error" });

const errorResponse = (description: string) => ({
  description,
  content: { "application/json": { schema: ErrorSchema } },
});

const RATE_HEADERS = ["RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset", "RateLimit-Policy"];

function operation(route: AnyRoute): ZodOpenApiOperationObject {
  const contentType = route.contentType ?? "application/json";
  const limited = route.tier === "free" || route.tier === "discovery" || route.tier === "preview";
  const headers = Object.fromEntries([
    ["ETag", { description: "Strong validator; send it back in If-None-Match for a 304.", schema: { type: "string" } }],
    ...(limited ? RATE_HEADERS.map((h) => [h, { schema: { type: "string" } }]) : []),
  ]);
  const op: ZodOpenApiOperationObject = {
    operationId: `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`,
    summary: route.summary,
    tags: route.tags,
    responses: {
      "200": { description: route.summary, headers, content: { [contentType]: { schema: route.response } } },
      "304": { description: "Not modified (If-None-Match matched the ETag)." },
      "400": errorResponse("Invalid query or path parameters."),
      "404": errorResponse("Unknown path, or no snapshot for this date and type."),
      ...(limited ? { "429": errorResponse("Rate limited; see Retry-After.") } : {}),
      ...(route.snapshots?.length ? { "503": errorResponse("The snapshot this route reads is not available.") } : {}),
    },
    "x-tier": route.tier,
  };
  if (route.description) op.description = route.description;
  if (route.cost !== undefined) op["x-cost-credits"] = route.cost;
  const requestParams: NonNullable<ZodOpenApiOperationObject["requestParams"]> = {};
  if (route.query) requestParams.query = route.query as never;
  if (route.params) requestParams.path = route.params as never;
  if (route.query || route.params) op.requestParams = requestParams;
  if (route.body) op.requestBody = { content: { "application/json": { schema: route.body } } };
  return op;
}

function pathsOf(routes: readonly AnyRoute[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const r of routes) {
    const key = openApiPath(r.path);
    const item = (paths[key] ??= {}) as Record<string, unknown>;
    item[r.method.toLowerCase()] = operation(r);
  }
  return paths;
}

/** Build the document; a route whose schemas zod-openapi cannot express is listed with an open schema. */
export function buildOpenApi(routes: readonly AnyRoute[], opts: { baseUrl: string; title?: string; premiumBilling?: boolean }): Record<string, unknown> {
  const base = {
    openapi: "3.1.0" as const,
    info: {
      title: opts.title ?? "agentfeed",
      version: API_VERSION,
      description:
        "AI-ecosystem data (news, provider status, model prices, benchmarks, catalogs) served from dated snapshots. Free routes need no credential and are rate limited per IP." +
        (opts.premiumBilling === false ? PREMIUM_BILLING_OFF : ""),
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: opts.baseUrl }],
  };
  try {
    return createDocument({ ...base, paths: pathsOf(routes) }) as unknown as Record<string, unknown>;
  } catch {
    // Find the routes that break generation and describe them without their schemas.
    const safe = routes.map((r) => {
      try {
        createDocument({ ...base, paths: pathsOf([r]) });
        return r;
      } catch (cause) {
        return {
          ...r,
          query: undefined,
          params: undefined,
          body: undefined,
          response: z.unknown().meta({ description: `schema not expressible: ${(cause as Error).message}` }),
        };
      }
    });
    return createDocument({ ...base, paths: pathsOf(safe) }) as unknown as Record<string, unknown>;
  }
}
