/**
 * The OpenAPI 3.1.0 document, generated from the registry with zod-openapi: every route's path, query and
 * header parameters, its security, its success schema and content type (premium: with billing and receipt),
 * and every error it can answer (see openapi-responses.ts).
 */
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import type { RouteDef } from "../registry/types.ts";
import { IDEMPOTENCY_KEY_MAX } from "../billing/idempotency.ts";
import { openApiPath } from "./endpoints.ts";
import { responsesOf, securityOf, SECURITY_SCHEMES, type ResponseOptions } from "./openapi-responses.ts";

import { ErrorSchema } from "./openapi-schemas.ts";

export { ErrorSchema };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyRoute = RouteDef<any, any, any>;

/** Added to the document's description under PREMIUM_BILLING=off. */
const PREMIUM_BILLING_OFF =
  " Premium billing is off on this instance (PREMIUM_BILLING=off): premium routes are served without a token, without charge and without receipts; their answers carry no billing or receipt.";

/** Added to the document's description when premium billing is on (the default). */
const PREMIUM_BILLING_ON =
  " Premium routes (/api/premium/*) need Authorization: Bearer <token>, an x402 retry (X-Payment-Tx + X-Payment-Quote) or a standard x402 exact payment (PAYMENT-SIGNATURE) where the 402 offers one; without one they answer 402 with payment instructions, and every paid answer carries billing and a signed receipt.";

/** Interface version declared in the document and in /api/meta. */
export const API_VERSION = "1.0.0";

/** Options of {@link buildOpenApi}. */
export interface OpenApiOptions {
  baseUrl: string;
  title?: string;
  /** PREMIUM_BILLING (default true): when false, premium operations declare no credential, 402, billing or receipt. */
  premiumBilling?: boolean;
}

/** The operationId of a route: method and path in camel case, e.g. getApiHistoryDateType. */
export function operationIdOf(route: Pick<AnyRoute, "method" | "path">): string {
  return `${route.method.toLowerCase()}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ""))}`;
}

function operation(route: AnyRoute, opts: ResponseOptions): ZodOpenApiOperationObject {
  const op: ZodOpenApiOperationObject = {
    operationId: operationIdOf(route),
    summary: route.summary,
    tags: route.tags,
    responses: responsesOf(route, opts),
    "x-tier": route.tier,
  };
  const security = securityOf(route, opts);
  if (security) op.security = security;
  if (route.description) op.description = route.description;
  if (route.cost !== undefined) op["x-cost-credits"] = route.cost;
  const requestParams: NonNullable<ZodOpenApiOperationObject["requestParams"]> = {};
  if (route.query) requestParams.query = route.query as never;
  if (route.params) requestParams.path = route.params as never;
  if (route.tier === "premium" && opts.premiumBilling) requestParams.header = PremiumHeaders as never;
  if (Object.keys(requestParams).length > 0) op.requestParams = requestParams;
  if (route.body) op.requestBody = { content: { "application/json": { schema: route.body } } };
  return op;
}

/** Answers that belong to no operation (app.ts): an unknown path, a method its path does not serve. */
const OUTSIDE_OPERATIONS = {
  NotFound: { description: "not_found: no route has this path (see /api/meta).", content: { "application/json": { schema: ErrorSchema } } },
  MethodNotAllowed: {
    description: "method_not_allowed: the path exists but not for this method; the Allow header lists the methods it serves.",
    headers: { Allow: { description: "Methods the path serves.", schema: { type: "string" as const } } },
    content: { "application/json": { schema: ErrorSchema } },
  },
};

/** Request headers a premium call may send besides its credential. */
const PremiumHeaders = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX)
    .optional()
    .meta({ description: "Replays the stored answer (and charges once) when the same request is sent again within 24 h." }),
});

function pathsOf(routes: readonly AnyRoute[], opts: ResponseOptions): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const r of routes) {
    const key = openApiPath(r.path);
    const item = (paths[key] ??= {}) as Record<string, unknown>;
    item[r.method.toLowerCase()] = operation(r, opts);
  }
  return paths;
}

/** Documents already built, per route list and options (see {@link openApiDocument}). */
const built = new WeakMap<readonly AnyRoute[], Map<string, Record<string, unknown>>>();

/**
 * {@link buildOpenApi}, built once per route list and options and then shared: the document is a function of
 * those alone, and building it takes a few hundred ms, which `/openapi.json` would otherwise pay each time its
 * cached answer expires. Treat the result as read-only.
 */
export function openApiDocument(routes: readonly AnyRoute[], opts: OpenApiOptions): Record<string, unknown> {
  const key = JSON.stringify([opts.baseUrl, opts.title ?? null, opts.premiumBilling ?? true]);
  let documents = built.get(routes);
  if (!documents) built.set(routes, (documents = new Map()));
  let document = documents.get(key);
  if (!document) documents.set(key, (document = buildOpenApi(routes, opts)));
  return document;
}

/** Build the document; a route whose schemas zod-openapi cannot express is listed with an open schema. */
export function buildOpenApi(routes: readonly AnyRoute[], opts: OpenApiOptions): Record<string, unknown> {
  const responseOpts: ResponseOptions = { premiumBilling: opts.premiumBilling ?? true };
  const base = {
    openapi: "3.1.0" as const,
    info: {
      title: opts.title ?? "agentfeed",
      version: API_VERSION,
      description:
        "AI-ecosystem data (news, provider status, model prices, benchmarks, catalogs) served from dated snapshots. Free routes need no credential and are rate limited per IP." +
        (opts.premiumBilling === false ? PREMIUM_BILLING_OFF : PREMIUM_BILLING_ON) +
        " Every error is { ok: false, error, message }; an unknown path answers 404 and a method a path does not serve 405, both with that body (components.responses).",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: opts.baseUrl }],
    components: { securitySchemes: SECURITY_SCHEMES as never, responses: OUTSIDE_OPERATIONS },
  };
  try {
    return createDocument({ ...base, paths: pathsOf(routes, responseOpts) }) as unknown as Record<string, unknown>;
  } catch {
    // Find the routes that break generation and describe them without their schemas.
    const safe = routes.map((r) => {
      try {
        createDocument({ ...base, paths: pathsOf([r], responseOpts) });
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
    return createDocument({ ...base, paths: pathsOf(safe, responseOpts) }) as unknown as Record<string, unknown>;
  }
}
